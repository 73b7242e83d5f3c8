//===- FuseElementwise.cpp - Element-wise chains as single loops
//-----------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPUFUSEELEMENTWISEPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {
bool allParallel(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
}

/// Fusing a producer whose result has other users computes it twice: once
/// for them, once inside the consumer. That pays only for a producer about
/// as cheap as reading its result back: few inputs, a short body (a
/// depthwise convolution as a sum over 25 taps is not), and only while the
/// consumer stays small: a residual stream (x + a1 + m1 + a2 + ..., each
/// partial sum also read by a normalization) would otherwise recompute
/// every earlier sum in every later one.
bool cheapToRecompute(Operation *producerOp, Operation *consumerOp) {
  auto producer = cast<linalg::LinalgOp>(producerOp);
  auto consumer = cast<linalg::LinalgOp>(consumerOp);
  constexpr int64_t kMaxInputs = 2;
  constexpr int64_t kMaxFusedInputs = 4;
  constexpr size_t kMaxBodyOps = 8;
  return producer.getNumDpsInputs() <= kMaxInputs &&
         producer.getBlock()->getOperations().size() <= kMaxBodyOps + 1 &&
         consumer.getNumDpsInputs() - 1 + producer.getNumDpsInputs() <=
             kMaxFusedInputs;
}

/// A padded tensor becomes a buffer filled with the padding value, built
/// before the source's producer, with the source inserted into it:
/// empty-tensor elimination then lets the producer write into the buffer's
/// interior, and no copy runs afterwards on one thread.
struct PadAsFilledBuffer : OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = pad.getResultType();
    Attribute value;
    Value padding = pad.getConstantPaddingValue();
    if (!type.hasStaticShape() || !pad.getSourceType().hasStaticShape() ||
        !padding || !matchPattern(padding, m_Constant(&value)))
      return rewriter.notifyMatchFailure(pad, "not a static constant pad");
    Operation *producer = pad.getSource().getDefiningOp();
    if (producer && producer->getBlock() == pad->getBlock())
      rewriter.setInsertionPoint(producer);
    else
      rewriter.setInsertionPoint(pad);
    Location loc = pad.getLoc();
    Value scalar =
        arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(value));
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    Value filled =
        linalg::FillOp::create(rewriter, loc, scalar, empty).getResult(0);
    rewriter.setInsertionPoint(pad);
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, pad.getSource());
    SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        pad, pad.getSource(), filled, pad.getMixedLowPad(), sizes, strides);
    return success();
  }
};

/// Whether `op` is a reduction that no dedicated kernel (contraction,
/// convolution) matches.
bool plainReduction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && !linalg::isaContractionOpInterface(linalgOp) &&
         !linalg::isaConvolutionOpInterface(linalgOp);
}

struct CPUFuseElementwisePass
    : aicc::cpu::impl::CPUFuseElementwisePassBase<CPUFuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    bool reductions = intoReductions;
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [reductions](OpOperand *operand) {
          Operation *producer = operand->get().getDefiningOp();
          Operation *consumer = operand->getOwner();
          if (!allParallel(producer))
            return false;
          if (allParallel(consumer))
            return operand->get().hasOneUse() ||
                   cheapToRecompute(producer, consumer);
          // A fused producer whose result other ops read stays a result of
          // the fused op; a reduction would then write it once per
          // reduction step.
          return reductions && plainReduction(consumer) &&
                 operand->get().hasOneUse();
        });
    patterns.add<PadAsFilledBuffer>(&getContext());
    // Powers by small constant exponents become multiplications, square
    // roots and reciprocals (LayerNorm exported as Pow(x, 2)).
    populateMathAlgebraicSimplificationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
