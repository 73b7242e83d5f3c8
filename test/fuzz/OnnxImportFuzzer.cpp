//===- OnnxImportFuzzer.cpp - libFuzzer target: ONNX import from bytes ----===//
//
// Arbitrary bytes as an ONNX model: protobuf parsing, the opset-aware
// conversion, shape inference and constant folding, under the importer's
// limits. Whatever imports must verify.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"

#include "aicc/Importer/ONNXImporter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto context = aicc::fuzz::makeContext();
  aicc::ONNXImportOptions options;
  // Small budgets keep each input fast; the limits themselves are under
  // test (their errors are fine, a crash or a blow-up is not).
  options.foldElementLimit = 1 << 16;
  options.maxOperations = 20000;
  mlir::OwningOpRef<mlir::ModuleOp> module = aicc::importONNXModelFromBuffer(
      *context, llvm::StringRef(reinterpret_cast<const char *>(data), size),
      /*modelDir=*/"", "fuzz.onnx", options);
  if (module && mlir::failed(mlir::verify(*module)))
    std::abort(); // the importer produced invalid IR
  return 0;
}
