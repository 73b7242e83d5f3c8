//===- Reduction.cpp
//----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerReductionOps(OpTable &) {}
} // namespace aicc::onnx_importer
