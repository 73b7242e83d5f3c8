//===- InlineFusions.cpp - Dissolve tile.fusion regions -------------------===//

#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Groups.h"
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
  using Base::Base;
  void runOnOperation() override {
    SmallVector<FusionOp> fusions;
    // Post-order: inner regions are inlined into outer bodies first.
    getOperation()->walk([&](FusionOp op) { fusions.push_back(op); });
    IRRewriter rewriter(&getContext());
    int64_t group = 0;
    for (FusionOp op : fusions) {
      YieldOp yield = op.getYield();
      Block &body = op.getBody().front();
      if (markGroups) {
        auto tag = rewriter.getI64IntegerAttr(group++);
        for (Operation &inner : body.without_terminator())
          if (!inner.hasAttr(kGroupAttr))
            inner.setAttr(kGroupAttr, tag);
      }
      // A yielded block argument stands for its input: the argument itself
      // disappears when the block is inlined.
      SmallVector<Value> results;
      for (Value value : yield.getValues()) {
        auto argument = dyn_cast<BlockArgument>(value);
        results.push_back(argument && argument.getOwner() == &body
                              ? op.getInputs()[argument.getArgNumber()]
                              : value);
      }
      rewriter.eraseOp(yield);
      rewriter.inlineBlockBefore(&body, op, op.getInputs());
      rewriter.replaceOp(op, results);
    }
  }
};
} // namespace
