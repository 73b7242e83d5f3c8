//===- ChannelsLast.cpp - Convolutions on channels-last tensors -----------===//
//
// A convolution reading N x C x H x W walks no contiguous run along its
// reduction (c, kh, kw): a GPU's tensor-core kernel reads such an image
// element by element. On N x H x W x C with an O x KH x KW x I filter the
// channels are contiguous in both operands, 8 half values at a time (an
// image of 3 to 7 channels gets zero channels up to 8). This
// pass gives every convolution that gains from it the `channels_last`
// form, between transposes that keep the graph's meaning, and then moves
// the transposes back to channels first down the graph, through
// element-wise ops, reductions and pooling, until they meet the next
// convolution's transpose to channels last and cancel: what stays channels
// first is what a model reads or returns and the ops that only have that form.
//
//===----------------------------------------------------------------------===//

#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc::tile {
#define GEN_PASS_DEF_TILECHANNELSLASTPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {

/// Fewest channels per group read contiguously (one 16-byte half vector).
constexpr int64_t kVectorChannels = 8;

/// [0, 2, ..., rank - 1, 1]: channels first to channels last.
SmallVector<int64_t> toLast(int64_t rank) {
  SmallVector<int64_t> permutation{0};
  for (int64_t d = 2; d < rank; ++d)
    permutation.push_back(d);
  permutation.push_back(1);
  return permutation;
}

/// [0, rank - 1, 1, ..., rank - 2]: channels last to channels first.
SmallVector<int64_t> toFirst(int64_t rank) {
  SmallVector<int64_t> permutation{0, rank - 1};
  for (int64_t d = 1; d < rank - 1; ++d)
    permutation.push_back(d);
  return permutation;
}

RankedTensorType permuted(RankedTensorType type, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(type.getDimSize(d));
  return RankedTensorType::get(shape, type.getElementType());
}

Value transpose(PatternRewriter &rewriter, Location loc, Value x,
                ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(x.getType());
  return TransposeOp::create(rewriter, loc, permuted(type, perm), x, perm);
}

/// `v` as a transpose of a channels-last tensor back to channels first.
TransposeOp channelsFirst(Value v) {
  auto op = v.getDefiningOp<TransposeOp>();
  if (!op || op.getType().getRank() < 3 ||
      op.getPermutation() != ArrayRef(toFirst(op.getType().getRank())))
    return {};
  return op;
}

/// The channels an ungrouped convolution of 3 to 7 channels (an RGB
/// image) reads once its image and filter are padded with zero channels
/// to one vector: 8, at most 8/3 the product's work for 16-byte reads;
/// 0 for other convolutions.
int64_t paddedChannels(ConvOp op) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  int64_t channels = input.getDimSize(1);
  return op.getGroups() == 1 && channels >= 3 && channels < kVectorChannels
             ? kVectorChannels
             : 0;
}

/// `x` (channels last) padded with zeros: `low` and `high` along its
/// spatial dimensions, `channels` - C more channels at the end.
Value padChannelsLast(PatternRewriter &rewriter, Location loc, Value x,
                      ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                      int64_t channels) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> padding(2 * rank, 0), shape(type.getShape());
  for (size_t s = 0; s < low.size(); ++s) {
    padding[1 + s] = low[s];
    padding[rank + 1 + s] = high[s];
    shape[1 + s] += low[s] + high[s];
  }
  padding.back() = channels - shape.back();
  shape.back() = channels;
  return PadOp::create(
      rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
      PadModeAttr::get(rewriter.getContext(), PadMode::constant), x,
      rewriter.getDenseI64ArrayAttr(padding), TypedAttr());
}

/// Whether reading `op`'s image channels last lets a kernel read both
/// operands along their reduction 8 channels at a time: channels per group
/// a multiple of 8, or one channel in and out per group (depthwise) with
/// the groups a multiple of 8 (then contiguous along the output's
/// channels).
bool gainsFromChannelsLast(ConvOp op) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  auto filter = cast<RankedTensorType>(op.getFilter().getType());
  if (op.getChannelsLast() || input.getRank() < 3 || !input.hasStaticShape() ||
      !filter.hasStaticShape())
    return false;
  int64_t groups = op.getGroups();
  int64_t channels = input.getDimSize(1) / groups;
  int64_t filters = filter.getDimSize(0) / groups;
  if (channels % kVectorChannels == 0 || paddedChannels(op))
    return true;
  return channels == 1 && filters == 1 && groups % kVectorChannels == 0;
}

/// conv(x, w) -> T_first(conv_last(T_last(x), T_last(w))).
struct ConvToChannelsLast : OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvOp op,
                                PatternRewriter &rewriter) const override {
    if (!gainsFromChannelsLast(op))
      return rewriter.notifyMatchFailure(op, "gains nothing channels last");
    Location loc = op.getLoc();
    int64_t rank = op.getType().getRank();
    Value input = transpose(rewriter, loc, op.getInput(), toLast(rank));
    Value filter = transpose(rewriter, loc, op.getFilter(), toLast(rank));
    DenseI64ArrayAttr padding = op.getPaddingAttr();
    if (int64_t channels = paddedChannels(op)) {
      // The image's spatial padding joins its channels' in one copy.
      ArrayRef<int64_t> pads = padding.asArrayRef();
      int64_t spatial = rank - 2;
      input = padChannelsLast(rewriter, loc, input, pads.take_front(spatial),
                              pads.drop_front(spatial), channels);
      SmallVector<int64_t> none(spatial, 0);
      filter = padChannelsLast(rewriter, loc, filter, none, none, channels);
      padding =
          rewriter.getDenseI64ArrayAttr(SmallVector<int64_t>(pads.size(), 0));
    }
    auto conv = ConvOp::create(
        rewriter, loc, permuted(op.getType(), toLast(rank)), input, filter,
        op.getBias(), op.getStridesAttr(), op.getDilationsAttr(), padding,
        op.getGroupsAttr(), rewriter.getUnitAttr());
    rewriter.replaceOp(op, transpose(rewriter, loc, conv, toFirst(rank)));
    return success();
  }
};

/// An element-wise `op` (unary, cast, binary, select) with an operand that
/// is channels-last data transposed back: the op runs on the channels-last
/// data and its result is transposed back instead. The other operands are
/// read channels last too: transposes back lose theirs, operands that
/// broadcast along everything but one dimension... are reshaped to the
/// result's rank and transposed (a per-channel constant folds). An operand
/// of the result's size that is neither waits: moving the transpose would
/// add one.
struct SinkThroughElementwise : RewritePattern {
  SinkThroughElementwise(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<UnaryOp, CastOp, BinaryOp, SelectOp>(op) ||
        op->getNumResults() != 1)
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || type.getRank() < 3 || !type.hasStaticShape())
      return failure();
    int64_t rank = type.getRank();
    bool any = false;
    for (Value operand : op->getOperands()) {
      auto operandType = dyn_cast<RankedTensorType>(operand.getType());
      if (!operandType || !operandType.hasStaticShape())
        return failure();
      if (TransposeOp t = channelsFirst(operand);
          t && operandType.getShape() == type.getShape()) {
        any = true;
        continue;
      }
      // A full-size operand that is not a transposed back.
      if (operandType.getNumElements() == type.getNumElements() &&
          type.getNumElements() > 1)
        return rewriter.notifyMatchFailure(op, "a full-size operand waits");
    }
    if (!any)
      return failure();
    Location loc = op->getLoc();
    SmallVector<int64_t> last = toLast(rank);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto operandType = cast<RankedTensorType>(operand.getType());
      if (TransposeOp t = channelsFirst(operand);
          t && operandType.getShape() == type.getShape()) {
        operands.push_back(t.getInput());
        continue;
      }
      if (operandType.getNumElements() == 1 && operandType.getRank() <= rank) {
        operands.push_back(operand); // broadcasts in any layout
        continue;
      }
      Value shaped = operand;
      if (operandType.getRank() < rank) {
        SmallVector<int64_t> shape(rank - operandType.getRank(), 1);
        llvm::append_range(shape, operandType.getShape());
        shaped = ReshapeOp::create(
            rewriter, loc,
            RankedTensorType::get(shape, operandType.getElementType()),
            operand);
      }
      operands.push_back(transpose(rewriter, loc, shaped, last));
    }
    Operation *moved = rewriter.clone(*op);
    moved->setOperands(operands);
    moved->getResult(0).setType(permuted(type, last));
    rewriter.replaceOp(
        op, transpose(rewriter, loc, moved->getResult(0), toFirst(rank)));
    return success();
  }
};

/// reduce(T(x), axes) -> T'(reduce(x, axes')): the reduction runs over x's
/// dimensions; what remains is transposed as T orders it.
struct SinkThroughReduce : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    TransposeOp t = channelsFirst(op.getInput());
    if (!t)
      return rewriter.notifyMatchFailure(op, "input is not transposed back");
    ArrayRef<int64_t> perm = t.getPermutation();
    int64_t rank = perm.size();
    SmallVector<int64_t> axes;
    for (int64_t a : op.getAxes())
      axes.push_back(perm[a]);
    llvm::sort(axes);
    // The kept dimensions of x in the order T gives them.
    SmallVector<int64_t> kept;
    for (int64_t i = 0; i < rank; ++i)
      if (op.getKeepDims() || !llvm::is_contained(op.getAxes(), i))
        kept.push_back(perm[i]);
    SmallVector<int64_t> sorted(kept);
    llvm::sort(sorted);
    SmallVector<int64_t> order;
    for (int64_t d : kept)
      order.push_back(llvm::find(sorted, d) - sorted.begin());
    Location loc = op.getLoc();
    auto inner = ReduceOp::create(rewriter, loc, op.getKindAttr(), t.getInput(),
                                  rewriter.getDenseI64ArrayAttr(axes),
                                  op.getKeepDimsAttr());
    Value result = inner.getResult();
    if (!llvm::equal(order, llvm::seq<int64_t>(0, order.size())))
      result = transpose(rewriter, loc, result, order);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// pool(T_first(x)) -> T_first(pool_last(x)): pooling reads the
/// channels-last data as it is.
struct SinkThroughPool : OpRewritePattern<PoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PoolOp op,
                                PatternRewriter &rewriter) const override {
    TransposeOp t = channelsFirst(op.getInput());
    if (!t || op.getChannelsLast())
      return rewriter.notifyMatchFailure(op, "input is not transposed back");
    int64_t rank = op.getType().getRank();
    auto pool = cast<PoolOp>(rewriter.clone(*op));
    pool.getInputMutable().set(t.getInput());
    pool.setChannelsLast(true);
    pool.getResult().setType(permuted(op.getType(), toLast(rank)));
    rewriter.replaceOp(
        op, transpose(rewriter, op.getLoc(), pool.getResult(), toFirst(rank)));
    return success();
  }
};

struct TileChannelsLastPass
    : aicc::tile::impl::TileChannelsLastPassBase<TileChannelsLastPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<ConvToChannelsLast, SinkThroughElementwise, SinkThroughReduce,
                 SinkThroughPool>(context);
    TransposeOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
