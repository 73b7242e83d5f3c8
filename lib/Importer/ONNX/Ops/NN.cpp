//===- NN.cpp ----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerNNOps(OpTable &) {}
} // namespace aicc::onnx_importer
