//===- ControlFlow.cpp
//----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerControlFlowOps(OpTable &) {}
} // namespace aicc::onnx_importer
