//===- Signal.cpp
//----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerSignalOps(OpTable &) {}
} // namespace aicc::onnx_importer
