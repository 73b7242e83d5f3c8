//===- Passes.h - Conversions between aicc's IR levels ----------*- C++ -*-===//

#ifndef AICC_CONVERSION_PASSES_H
#define AICC_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace aicc {

#define GEN_PASS_DECL
#include "aicc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aicc/Conversion/Passes.h.inc"

} // namespace aicc

#endif // AICC_CONVERSION_PASSES_H
