//===- Passes.h - Transforms of the tile dialect ----------------*- C++ -*-===//

#ifndef AICC_DIALECTS_TILE_TRANSFORMS_PASSES_H
#define AICC_DIALECTS_TILE_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace aicc::tile {

#define GEN_PASS_DECL
#include "Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Tile/Transforms/Passes.h.inc"

} // namespace aicc::tile

#endif // AICC_DIALECTS_TILE_TRANSFORMS_PASSES_H
