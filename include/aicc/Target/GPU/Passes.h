//===- Passes.h - Passes of the GPU targets ---------------------*- C++ -*-===//

#ifndef AICC_TARGET_GPU_PASSES_H
#define AICC_TARGET_GPU_PASSES_H

#include "AiccGPU/IR/AiccGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace aicc::gpu {

#define GEN_PASS_DECL
#include "aicc/Target/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aicc/Target/GPU/Passes.h.inc"

/// Declares the memory effects of ops in the kernels that upstream leaves
/// unsaid: `gpu.barrier` reads and writes memory (it orders the block's
/// accesses to shared memory), and so do the cp.async group commits and
/// waits, proxy fences and wgmma ops (`nvvm.wgmma.mma_async` reads shared
/// memory); `nvvm.mma.sync` has none. Buffer deallocation
/// refuses ops of unknown effects, and the tensor-core kernels are built
/// before it runs.
void registerKernelOpEffects(mlir::DialectRegistry &registry);

} // namespace aicc::gpu

#endif // AICC_TARGET_GPU_PASSES_H
