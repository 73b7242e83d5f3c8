//===- CPUTarget.h - The host CPU target ------------------------*- C++ -*-===//
//
// `--target=cpu`: tile IR to linalg, vectors and loops, the LLVM dialect,
// and one position-independent shared object per bundle, run by the
// runtime's CPU executor on its thread pool.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_TARGET_CPU_CPUTARGET_H
#define AICC_TARGET_CPU_CPUTARGET_H

#include "aicc/Target/CPU/CodeGen.h"
#include "aicc/Target/Target.h"

#include "mlir/Pass/PassOptions.h"

namespace aicc {

struct CPUTargetOptions : public TargetOptions,
                          public mlir::PassPipelineOptions<CPUTargetOptions> {
  Option<std::string> cpu{
      *this, "cpu",
      llvm::cl::desc("CPU to compile for: an LLVM x86 CPU name or 'native' "
                     "(default x86-64-v3: AVX2 and FMA)"),
      llvm::cl::init("x86-64-v3")};
  Option<std::string> cpuFeatures{
      *this, "cpu-features",
      llvm::cl::desc("Extra LLVM subtarget features, e.g. +avx512f"),
      llvm::cl::init("")};
  Option<bool> keepSymbols{
      *this, "keep-symbols",
      llvm::cl::desc("Keep function symbols in the code object, for "
                     "profilers; run with AICC_CODE_DIR set so that they can "
                     "find it"),
      llvm::cl::init(false)};
  Option<bool> channelsLast{
      *this, "channels-last",
      llvm::cl::desc("Convolutions on channels-last images (a check of "
                     "tile-channels-last: the CPU kernels gain nothing)"),
      llvm::cl::init(false)};
};

/// The code generator's options for `options`' CPU.
cpu::CodeGenOptions codeGenOptions(const CPUTargetOptions &options);

/// The CPU pipeline from tile IR to `options.emit` ("linalg") or to the
/// LLVM dialect, its panels and register tiles sized by `limits` (the
/// target's getLimits for `options`).
void buildCPUPipeline(mlir::OpPassManager &pm, const CPUTargetOptions &options,
                      const TargetLimits &limits);

/// Adds the cpu target to the TargetRegistry.
void registerCPUTarget();

} // namespace aicc

#endif // AICC_TARGET_CPU_CPUTARGET_H
