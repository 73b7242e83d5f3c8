//===- Recurrent.cpp
//----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerRecurrentOps(OpTable &) {}
} // namespace aicc::onnx_importer
