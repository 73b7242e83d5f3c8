//===- Loss.cpp ----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerLossOps(OpTable &) {}
} // namespace aicc::onnx_importer
