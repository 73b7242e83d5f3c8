//===- Indexing.cpp
//----------------------------------------------------------===//

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {
void registerIndexingOps(OpTable &) {}
} // namespace aicc::onnx_importer
