//===- CompileFuzzer.cpp - libFuzzer target: import and compile -----------===//
//
// Arbitrary bytes as an ONNX model, imported and, when that succeeds, run
// through the whole CPU pipeline to the LLVM dialect (every pass, with the
// verifier after each). Importer errors and pipeline failures with a
// diagnostic are expected outcomes; a crash, a sanitizer report or invalid
// IR between passes is a finding.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"

#include "aicc/Importer/ONNXImporter.h"
#include "aicc/Target/CPU/CPUTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto context = aicc::fuzz::makeContext();
  aicc::ONNXImportOptions options;
  options.foldElementLimit = 1 << 16;
  options.maxOperations = 2000;
  mlir::OwningOpRef<mlir::ModuleOp> module = aicc::importONNXModelFromBuffer(
      *context, llvm::StringRef(reinterpret_cast<const char *>(data), size),
      /*modelDir=*/"", "fuzz.onnx", options);
  if (!module)
    return 0;
  mlir::PassManager pm(context.get());
  pm.enableVerifier(true);
  aicc::CPUTargetOptions pipeline;
  aicc::buildCPUPipeline(pm, pipeline);
  (void)pm.run(*module);
  return 0;
}
