//===- Passes.td - Transforms of the tile dialect ------------*- tablegen -*-===//

#ifndef AICC_DIALECTS_TILE_TRANSFORMS_PASSES_TD
#define AICC_DIALECTS_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileInlineFusionsPass : Pass<"tile-inline-fusions"> {
  let summary = "Dissolve fusion regions into the blocks that hold them";
  let description = [{
    Replaces every `tile.fusion` by the ops of its body, wiring the body's
    arguments to the region's inputs and the region's results to the values
    its `tile.yield` names. It is the inverse of `tile-fuse`: a debugging aid,
    and the way a target that compiles op by op consumes fused IR.

    Input invariant: any IR; fusion regions may be nested.

    Output IR: no `tile.fusion` or `tile.yield` remains under the anchor op;
    every other op is unchanged, in its original order.
  }];
  let dependentDialects = ["::aicc::tile::TileDialect"];
}

#endif // AICC_DIALECTS_TILE_TRANSFORMS_PASSES_TD
