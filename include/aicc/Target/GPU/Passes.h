//===- Passes.h - Passes of the GPU targets ---------------------*- C++ -*-===//

#ifndef AICC_TARGET_GPU_PASSES_H
#define AICC_TARGET_GPU_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace aicc::gpu {

#define GEN_PASS_DECL
#include "aicc/Target/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aicc/Target/GPU/Passes.h.inc"

} // namespace aicc::gpu

#endif // AICC_TARGET_GPU_PASSES_H
