//===- Matrix.cpp
//----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerMatrixOps(OpTable &) {}
} // namespace aicc::onnx_importer
