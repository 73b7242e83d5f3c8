//===- Quantization.cpp
//----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerQuantizationOps(OpTable &) {}
} // namespace aicc::onnx_importer
