//===- Passes.h - Passes of the CPU target ----------------------*- C++ -*-===//

#ifndef AICC_TARGET_CPU_PASSES_H
#define AICC_TARGET_CPU_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace aicc::cpu {

#define GEN_PASS_DECL
#include "aicc/Target/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aicc/Target/CPU/Passes.h.inc"

} // namespace aicc::cpu

#endif // AICC_TARGET_CPU_PASSES_H
