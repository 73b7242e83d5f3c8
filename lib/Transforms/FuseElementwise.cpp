//===- FuseElementwise.cpp - Element-wise chains as single loops ----------===//

#include "aicc/Transforms/Passes.h"

#include "Fusion.h"

#include "Tile/Transforms/Groups.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "aicc/Transforms/Passes.h.inc"
} // namespace aicc

using namespace mlir;

using aicc::cpu::allParallel;
using aicc::cpu::readsContraction;
using aicc::tile::mayShareKernel;

namespace {
/// The inputs of `op` it reads whole: as many elements as its result,
/// through a permutation (not broadcast).
int64_t wholeInputs(linalg::LinalgOp op) {
  auto result = dyn_cast<ShapedType>(op->getResult(0).getType());
  int64_t count = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<ShapedType>(input->get().getType());
    count += type && result && type.hasStaticShape() &&
             result.hasStaticShape() &&
             type.getNumElements() == result.getNumElements() &&
             op.getMatchingIndexingMap(input).isPermutation();
  }
  return count;
}

/// Whether recomputing `producer`, whose result other ops read too, inside
/// each reader moves fewer bytes than writing it once: a traffic model in
/// units of the result's size. Kept, the producer reads its w whole inputs
/// (broadcast ones, a bias, stay in cache and count nothing), writes its
/// result, and each of its U readers reads it back: w + 1 + U. Recomputed
/// in every reader, each reads the w inputs: U w. So recomputing pays
/// while U (w - 1) < w + 1: always for one whole input (a bias add, a
/// scale), for two only while fewer than three ops read the result (a
/// pre-norm residual stream's partial sum, read by the next sum and by its
/// normalization's steps, is written once and read by each).
bool recomputeSavesTraffic(linalg::LinalgOp producer) {
  Value result = producer->getResult(0);
  int64_t readers = std::distance(result.use_begin(), result.use_end());
  int64_t whole = wholeInputs(producer);
  return readers * (whole - 1) < whole + 1;
}

/// Fusing a producer whose result has other users computes it twice: once
/// for them, once inside the consumer. It is done when the traffic model
/// says so (recomputeSavesTraffic) and the recomputed work stays small:
/// few inputs, a short body (a depthwise convolution as a sum over 25
/// taps is not), and a consumer that stays small: a residual stream (x +
/// a1 + m1 + a2 + ..., each partial sum also read by a normalization)
/// would otherwise recompute every earlier sum in every later one.
bool cheapToRecompute(Operation *producerOp, Operation *consumerOp) {
  auto producer = cast<linalg::LinalgOp>(producerOp);
  auto consumer = cast<linalg::LinalgOp>(consumerOp);
  constexpr int64_t kMaxInputs = 2;
  constexpr int64_t kMaxFusedInputs = 4;
  constexpr size_t kMaxBodyOps = 8;
  return recomputeSavesTraffic(producer) &&
         producer.getNumDpsInputs() <= kMaxInputs &&
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

struct FuseElementwisePass
    : aicc::impl::FuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  /// A cheap element-wise op whose result several reductions read (a
  /// softmax's scaled scores, read by its max and by its sum) gets a copy
  /// per reduction, which fusion then takes into it: the op's own kernel
  /// and its result's round trip go once no other op reads it.
  bool cloneIntoReductions() {
    bool changed = false;
    SmallVector<linalg::GenericOp> producers;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (allParallel(op) && op->getNumResults() == 1 &&
          !op->getResult(0).hasOneUse())
        producers.push_back(op);
    });
    for (linalg::GenericOp producer : producers) {
      // Only when every reader takes it in (reductions a copy each, the
      // element-wise ones by the usual fusion): a kept op would be computed
      // again for nothing, and its extra readers could cost a product its
      // epilogue.
      SmallVector<OpOperand *> intoReductions;
      bool allFuse = true;
      for (OpOperand &use : producer->getResult(0).getUses()) {
        auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
        allFuse = consumer && consumer.isDpsInput(&use) &&
                  mayShareKernel(producer, consumer) &&
                  linalg::areElementwiseOpsFusable(&use) &&
                  cheapToRecompute(producer, consumer) &&
                  (allParallel(consumer) || plainReduction(consumer));
        if (!allFuse)
          break;
        if (!allParallel(consumer))
          intoReductions.push_back(&use);
      }
      if (!allFuse || intoReductions.empty())
        continue;
      for (OpOperand *use : intoReductions) {
        OpBuilder b(use->getOwner());
        use->set(b.clone(*producer)->getResult(0));
      }
      changed = true;
      if (producer->use_empty())
        producer->erase();
    }
    return changed;
  }

  /// Gives a fused op the group of the ops it joins (tile-fuse's, which
  /// later kernel passes keep to): the consumer's, or the producer's where
  /// the consumer had none. The fusion patterns build the fused op right
  /// after the control function accepts a pair; other patterns replace a
  /// generic by one of the same group.
  struct KeepGroups : RewriterBase::Listener {
    Operation *producer = nullptr, *consumer = nullptr;
    void notifyOperationInserted(Operation *op,
                                 OpBuilder::InsertPoint) override {
      if (!consumer || !isa<linalg::GenericOp>(op))
        return;
      aicc::tile::inheritGroup(producer, op);
      aicc::tile::inheritGroup(consumer, op);
      producer = consumer = nullptr;
    }
    void notifyOperationReplaced(Operation *op,
                                 ValueRange replacement) override {
      // The first value the op is replaced by (the others may be null: a
      // dead result dropped).
      auto found = llvm::find_if(replacement, [](Value v) { return v; });
      Operation *next =
          found == replacement.end() ? nullptr : (*found).getDefiningOp();
      if (next && isa<linalg::GenericOp>(next) && aicc::tile::groupOf(next) < 0)
        aicc::tile::inheritGroup(op, next);
    }
  };

  LogicalResult fuse() {
    RewritePatternSet patterns(&getContext());
    bool reductions = intoReductions, reread = rereadReductions;
    KeepGroups keepGroups;
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [reductions, reread, &keepGroups](OpOperand *operand) {
          Operation *producer = operand->get().getDefiningOp();
          Operation *consumer = operand->getOwner();
          // tile-fuse put them in different kernels, or the consumer is
          // a dedicated kernel's.
          if (!allParallel(producer) || !mayShareKernel(producer, consumer) ||
              consumer->hasAttr(aicc::tile::kOwnKernelAttr))
            return false;
          bool fuse;
          if (allParallel(consumer))
            fuse = operand->get().hasOneUse() ||
                   (cheapToRecompute(producer, consumer) &&
                    (reread || (!readsContraction(producer, false) &&
                                !readsContraction(producer, true))));
          else
            // A fused producer whose result other ops read stays a result
            // of the fused op; a reduction would then write it once per
            // reduction step.
            fuse = reductions && plainReduction(consumer) &&
                   operand->get().hasOneUse();
          if (fuse) {
            keepGroups.producer = producer;
            keepGroups.consumer = consumer;
          }
          return fuse;
        });
    patterns.add<PadAsFilledBuffer>(&getContext());
    // Powers by small constant exponents become multiplications, square
    // roots and reciprocals (LayerNorm exported as Pow(x, 2)).
    populateMathAlgebraicSimplificationPatterns(patterns);
    GreedyRewriteConfig config;
    config.setListener(&keepGroups);
    return applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }

  void runOnOperation() override {
    if (failed(fuse()))
      return signalPassFailure();
    // A chain of cheap ops before reductions (a scale, then a mask) fuses
    // one op per round; a few rounds take short chains whole.
    for (int round = 0; intoReductions && round < 4 && cloneIntoReductions();
         ++round)
      if (failed(fuse()))
        return signalPassFailure();
  }
};
} // namespace
