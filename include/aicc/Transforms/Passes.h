//===- Passes.h - Passes every target runs ----------------------*- C++ -*-===//

#ifndef AICC_TRANSFORMS_PASSES_H
#define AICC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace aicc {

#define GEN_PASS_DECL
#include "aicc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aicc/Transforms/Passes.h.inc"

} // namespace aicc

#endif // AICC_TRANSFORMS_PASSES_H
