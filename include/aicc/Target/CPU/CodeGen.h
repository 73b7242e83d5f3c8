//===- CodeGen.h - Host code objects from the LLVM dialect ------*- C++ -*-===//
//
// The last step of a CPU compile: the LLVM dialect module the CPU pipeline
// produced becomes LLVM IR, is optimized for the chosen CPU, compiled to an
// object and linked into a position-independent shared object that exports
// `aicc_entry`. The runtime loads that image from the bundle.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_TARGET_CPU_CODEGEN_H
#define AICC_TARGET_CPU_CODEGEN_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace aicc::cpu {

struct CodeGenOptions {
  /// An LLVM CPU name ("x86-64-v3", "sapphirerapids", ...) or "native" for
  /// the machine that compiles. x86-64-v3 (AVX2, FMA) is the baseline.
  std::string cpu = "x86-64-v3";
  /// Extra LLVM subtarget features ("+avx512f,-avx512fp16").
  std::string features;
  /// 0 to 3, as for the LLVM optimizer.
  unsigned optLevel = 2;
  /// The ELF linker; empty picks $AICC_LLD, then the ld.lld of the LLVM
  /// aicc was built with.
  std::string linker;
  /// Keep the function symbols in the image, for profilers and debuggers.
  bool keepSymbols = false;
  /// When set, the optimized LLVM IR is written here.
  llvm::raw_ostream *llvmIR = nullptr;
};

struct CodeObject {
  std::string triple;
  /// The resolved CPU name ("native" is resolved to the host's).
  std::string cpu;
  /// ISA extensions the code may use, as the bundle format's
  /// aicc_cpu_feature bits.
  uint64_t requiredFeatures = 0;
  /// The shared object.
  std::string image;
};

/// The widest vector registers code for `options`' CPU may use, in bits:
/// 512 with AVX-512, 256 with AVX2; errors for an unknown CPU.
llvm::Expected<unsigned> vectorRegisterBits(const CodeGenOptions &options);

/// The width of the VNNI byte dot products (`vpdpbusd`) code for
/// `options`' CPU may use: 512 with AVX-512 VNNI, 256 with AVX-VNNI (or
/// AVX-512 VNNI and VL, below AVX-512), 0 without.
llvm::Expected<unsigned> vnniBits(const CodeGenOptions &options);

/// Translates, optimizes, compiles and links `module` (an LLVM dialect
/// module with an `aicc_entry` function).
llvm::Expected<CodeObject> emitCodeObject(mlir::Operation *module,
                                          const CodeGenOptions &options);

} // namespace aicc::cpu

#endif // AICC_TARGET_CPU_CODEGEN_H
