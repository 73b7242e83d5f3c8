//===- InlineFusions.cpp - Dissolve tile.fusion regions -------------------===//

#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace aicc::tile {
#define GEN_PASS_DEF_TILEINLINEFUSIONSPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {
struct TileInlineFusionsPass
    : aicc::tile::impl::TileInlineFusionsPassBase<TileInlineFusionsPass> {
  void runOnOperation() override {
    SmallVector<FusionOp> fusions;
    // Post-order: inner regions are inlined into outer bodies first.
    getOperation()->walk([&](FusionOp op) { fusions.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (FusionOp op : fusions) {
      YieldOp yield = op.getYield();
      SmallVector<Value> results(yield.getValues());
      rewriter.eraseOp(yield);
      rewriter.inlineBlockBefore(&op.getBody().front(), op, op.getInputs());
      rewriter.replaceOp(op, results);
    }
  }
};
} // namespace
