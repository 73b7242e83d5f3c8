//===- CodeGen.h - GPU kernels to code objects ------------------*- C++ -*-===//
//
// Serializes the `gpu.module` the GPU pipeline produced: for cuda, PTX per
// architecture through LLVM's NVPTX backend, then cubins through the CUDA
// toolkit's ptxas, found when the compiler runs; for rocm, hsaco code
// objects through the AMDGPU backend and ld.lld.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_TARGET_GPU_CODEGEN_H
#define AICC_TARGET_GPU_CODEGEN_H

#include "aicc/bundle_format.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace aicc::gpu {

struct CodeGenOptions {
  std::string target = "cuda"; ///< cuda or rocm
  /// sm_80, sm_90, ... or gfx90a, gfx942, ...; the first is the oldest.
  std::vector<std::string> archs;
  unsigned optLevel = 2;
  /// When set, the PTX or AMDGPU assembly of the first architecture is
  /// written here and no code object is made (--emit=isa).
  llvm::raw_ostream *isa = nullptr;
};

struct CodeObject {
  aicc_target target;
  aicc_code_format format;
  std::string arch;
  uint32_t minDriver = 0;
  std::string image;
};

/// Code objects for every architecture of `options`, from the module's
/// `gpu.module @aicc_kernels`: for cuda a cubin per architecture and PTX of
/// the newest for later GPUs; for rocm an hsaco per architecture.
llvm::Expected<std::vector<CodeObject>>
emitCodeObjects(mlir::ModuleOp module, const CodeGenOptions &options);

} // namespace aicc::gpu

#endif // AICC_TARGET_GPU_CODEGEN_H
