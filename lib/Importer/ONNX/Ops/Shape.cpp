//===- Shape.cpp ----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerShapeOps(OpTable &) {}
} // namespace aicc::onnx_importer
