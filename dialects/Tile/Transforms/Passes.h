//===- Passes.h - Transforms of the tile dialect ----------------*- C++ -*-===//

#ifndef AICC_DIALECTS_TILE_TRANSFORMS_PASSES_H
#define AICC_DIALECTS_TILE_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace aicc::tile {

#define GEN_PASS_DECL
#include "Tile/Transforms/Passes.h.inc"

/// The rewrites of tile-fold-qdq: integer matmuls and convolutions from
/// their dequantized operands.
void populateTileFoldQDQPatterns(mlir::RewritePatternSet &patterns);

/// The rewrites of tile-lower-quant: quantize and dequantize as arithmetic;
/// with `int4ProductRows` positive, products of fewer rows by dequantized
/// 4-bit weights as tile.matmul_int4.
void populateTileLowerQuantPatterns(mlir::RewritePatternSet &patterns,
                                    int64_t int4ProductRows = 0);

#define GEN_PASS_REGISTRATION
#include "Tile/Transforms/Passes.h.inc"

} // namespace aicc::tile

#endif // AICC_DIALECTS_TILE_TRANSFORMS_PASSES_H
