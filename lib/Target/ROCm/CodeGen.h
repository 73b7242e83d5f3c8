//===- CodeGen.h - ROCm kernels to hsaco objects ----------------*- C++ -*-===//
//
// Serializes the `gpu.module @aicc_kernels` the GPU pipeline produced: an
// hsaco code object per architecture through LLVM's AMDGPU backend and
// ld.lld.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_ROCM_CODEGEN_H
#define AICC_LIB_TARGET_ROCM_CODEGEN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace aicc {
namespace bundle {
struct CodeObject;
} // namespace bundle

namespace rocm {
/// The code objects of `module`'s kernels for `archs` (none when it has no
/// kernels); with `isa`, the first architecture's assembly is written
/// there and no code object is made.
llvm::Expected<std::vector<bundle::CodeObject>>
emitCodeObjects(mlir::ModuleOp module, llvm::ArrayRef<std::string> archs,
                unsigned optLevel, llvm::raw_ostream *isa);
} // namespace rocm
} // namespace aicc

#endif // AICC_LIB_TARGET_ROCM_CODEGEN_H
