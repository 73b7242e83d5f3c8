//===- LowerQuant.cpp - Quantize and dequantize as arithmetic -------------===//
//
// What tile-fold-qdq left of a quantized model: the quantize and dequantize
// ops at the edges of float islands and of the model, as element-wise tile
// arithmetic every target already compiles.
//
//===----------------------------------------------------------------------===//

#include "Tile/IR/QuantArithmetic.h"
#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc::tile {
#define GEN_PASS_DEF_TILELOWERQUANTPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {

/// A quantize or dequantize as arithmetic: `build` is buildQuantize or
/// buildDequantize, given the scheme's parameters as constants.
template <typename OpTy> struct LowerQuantOp : OpRewritePattern<OpTy> {
  using Build = Value (*)(OpBuilder &, Location, Value, Value, Value, Type);
  LowerQuantOp(MLIRContext *context, Build build)
      : OpRewritePattern<OpTy>(context), build(build) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> shape = op.getInput().getType().getShape();
    Location loc = op.getLoc();
    Value scales = buildQuantScales(rewriter, loc, op.getQuant(), shape);
    Value zeroPoints =
        buildQuantZeroPoints(rewriter, loc, op.getQuant(), shape);
    Value result = build(rewriter, loc, op.getInput(), scales, zeroPoints,
                         op.getResult().getType().getElementType());
    if (!result)
      return rewriter.notifyMatchFailure(op, "the arithmetic is ill-typed");
    rewriter.replaceOp(op, result);
    return success();
  }

  Build build;
};

struct TileLowerQuantPass
    : aicc::tile::impl::TileLowerQuantPassBase<TileLowerQuantPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTileLowerQuantPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation()->walk([](Operation *op) {
      if (!isa<QuantizeOp, DequantizeOp>(op))
        return WalkResult::advance();
      op->emitOpError() << "could not be lowered to arithmetic";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void aicc::tile::populateTileLowerQuantPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerQuantOp<QuantizeOp>>(patterns.getContext(), buildQuantize);
  patterns.add<LowerQuantOp<DequantizeOp>>(patterns.getContext(),
                                           buildDequantize);
}
