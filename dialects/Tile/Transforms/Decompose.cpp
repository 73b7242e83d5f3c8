//===- Decompose.cpp - Composite tile ops as primitive ones ---------------===//

#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc::tile {
#define GEN_PASS_DEF_TILEDECOMPOSEPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {

/// Builds primitive tile ops at one location.
struct Builder {
  PatternRewriter &rewriter;
  Location loc;

  Value unary(UnaryKind kind, Value x) {
    return UnaryOp::create(rewriter, loc, kind, x, FloatAttr(), FloatAttr());
  }
  Value binary(BinaryKind kind, Value a, Value b) {
    return BinaryOp::create(rewriter, loc, kind, a, b);
  }
  Value reduce(ReduceKind kind, Value x, ArrayRef<int64_t> axes) {
    return ReduceOp::create(rewriter, loc, kind, x, axes, /*keep_dims=*/true);
  }
  Value scalar(Value like, double value) {
    Type element =
        llvm::cast<RankedTensorType>(like.getType()).getElementType();
    auto type = RankedTensorType::get({}, element);
    return ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(type, rewriter.getFloatAttr(element, value)));
  }
  Value castTo(Value x, Type element) {
    auto type = llvm::cast<RankedTensorType>(x.getType());
    if (type.getElementType() == element)
      return x;
    return CastOp::create(rewriter, loc, type.clone(element), x);
  }
  Value reshape(Value x, ArrayRef<int64_t> shape) {
    auto type = llvm::cast<RankedTensorType>(x.getType());
    auto target = RankedTensorType::get(shape, type.getElementType());
    if (target == type)
      return x;
    return ReshapeOp::create(rewriter, loc, target, x);
  }
  /// A per-channel parameter ([C]) shaped to broadcast along dimension 1 of a
  /// tensor of `rank`.
  Value perChannel(Value parameter, int64_t rank) {
    auto type = llvm::cast<RankedTensorType>(parameter.getType());
    SmallVector<int64_t> shape(rank - 1, 1);
    shape[0] = type.getDimSize(0);
    return reshape(parameter, shape);
  }
  /// The element type statistics are computed in: f32 for narrower floats.
  Type statisticsType(Value x) {
    Type element = llvm::cast<RankedTensorType>(x.getType()).getElementType();
    return element.getIntOrFloatBitWidth() < 32 ? rewriter.getF32Type()
                                                : element;
  }
  /// (x - mean) / sqrt(variance + epsilon) over `axes`.
  Value normalize(Value x, ArrayRef<int64_t> axes, double epsilon) {
    Value mean = reduce(ReduceKind::mean, x, axes);
    Value centered = binary(BinaryKind::sub, x, mean);
    Value variance = reduce(ReduceKind::mean,
                            binary(BinaryKind::mul, centered, centered), axes);
    Value inverse = unary(UnaryKind::rsqrt, binary(BinaryKind::add, variance,
                                                   scalar(variance, epsilon)));
    return binary(BinaryKind::mul, centered, inverse);
  }
};

struct DecomposeSoftmax : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Builder b{rewriter, op.getLoc()};
    int64_t axis = op.getAxis();
    Value shifted = b.binary(BinaryKind::sub, op.getInput(),
                             b.reduce(ReduceKind::max, op.getInput(), {axis}));
    Value e = b.unary(UnaryKind::exp, shifted);
    rewriter.replaceOp(
        op, b.binary(BinaryKind::div, e, b.reduce(ReduceKind::sum, e, {axis})));
    return success();
  }
};

struct DecomposeLogSoftmax : OpRewritePattern<LogSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LogSoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Builder b{rewriter, op.getLoc()};
    int64_t axis = op.getAxis();
    Value shifted = b.binary(BinaryKind::sub, op.getInput(),
                             b.reduce(ReduceKind::max, op.getInput(), {axis}));
    Value sum =
        b.reduce(ReduceKind::sum, b.unary(UnaryKind::exp, shifted), {axis});
    rewriter.replaceOp(
        op, b.binary(BinaryKind::sub, shifted, b.unary(UnaryKind::log, sum)));
    return success();
  }
};

struct DecomposeLayerNorm : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    Builder b{rewriter, op.getLoc()};
    Type element = op.getType().getElementType();
    Value x = b.castTo(op.getInput(), b.statisticsType(op.getInput()));
    SmallVector<int64_t> axes = llvm::to_vector(
        llvm::seq<int64_t>(op.getAxis(), op.getType().getRank()));
    Value y = b.castTo(b.normalize(x, axes, op.getEpsilon().convertToDouble()),
                       element);
    y = b.binary(BinaryKind::mul, y, op.getScale());
    if (Value bias = op.getBias())
      y = b.binary(BinaryKind::add, y, bias);
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct DecomposeBatchNorm : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    Builder b{rewriter, op.getLoc()};
    int64_t rank = op.getType().getRank();
    // scale / sqrt(variance + epsilon), folded when the parameters are
    // constants.
    Value factor = b.binary(
        BinaryKind::mul, op.getScale(),
        b.unary(UnaryKind::rsqrt,
                b.binary(BinaryKind::add, op.getVariance(),
                         b.scalar(op.getVariance(),
                                  op.getEpsilon().convertToDouble()))));
    Value centered = b.binary(BinaryKind::sub, op.getInput(),
                              b.perChannel(op.getMean(), rank));
    Value y = b.binary(BinaryKind::mul, centered, b.perChannel(factor, rank));
    rewriter.replaceOp(
        op, b.binary(BinaryKind::add, y, b.perChannel(op.getBias(), rank)));
    return success();
  }
};

struct DecomposeInstanceNorm : OpRewritePattern<InstanceNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(InstanceNormOp op,
                                PatternRewriter &rewriter) const override {
    Builder b{rewriter, op.getLoc()};
    int64_t rank = op.getType().getRank();
    Type element = op.getType().getElementType();
    Value x = b.castTo(op.getInput(), b.statisticsType(op.getInput()));
    SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(2, rank));
    Value y = b.castTo(b.normalize(x, axes, op.getEpsilon().convertToDouble()),
                       element);
    y = b.binary(BinaryKind::mul, y, b.perChannel(op.getScale(), rank));
    rewriter.replaceOp(
        op, b.binary(BinaryKind::add, y, b.perChannel(op.getBias(), rank)));
    return success();
  }
};

struct DecomposeGroupNorm : OpRewritePattern<GroupNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GroupNormOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    Builder b{rewriter, op.getLoc()};
    ArrayRef<int64_t> shape = type.getShape();
    int64_t groups = op.getNumGroups();
    int64_t rest = type.getNumElements() / (shape[0] * groups);
    Value x = b.castTo(op.getInput(), b.statisticsType(op.getInput()));
    Value grouped = b.reshape(x, {shape[0], groups, rest});
    Value y = b.normalize(grouped, {2}, op.getEpsilon().convertToDouble());
    y = b.castTo(b.reshape(y, shape), type.getElementType());
    y = b.binary(BinaryKind::mul, y, b.perChannel(op.getScale(), shape.size()));
    rewriter.replaceOp(op, b.binary(BinaryKind::add, y,
                                    b.perChannel(op.getBias(), shape.size())));
    return success();
  }
};

struct DecomposeLrn : OpRewritePattern<LrnOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LrnOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    Builder b{rewriter, op.getLoc()};
    ArrayRef<int64_t> shape = type.getShape();
    int64_t size = op.getSize();
    int64_t channels = shape[1];
    int64_t rest = type.getNumElements() / (shape[0] * channels);
    // The sum of squares over `size` channels centred on each channel is an
    // average pool over the channel axis that counts the padding, times size.
    Value x = op.getInput();
    Value squares = b.reshape(b.binary(BinaryKind::mul, x, x),
                              {shape[0], 1, channels, rest});
    int64_t before = (size - 1) / 2, after = size - 1 - before;
    auto poolType = RankedTensorType::get({shape[0], 1, channels, rest},
                                          type.getElementType());
    Value average = PoolOp::create(
        rewriter, b.loc, poolType,
        PoolKindAttr::get(rewriter.getContext(), PoolKind::avg), squares,
        rewriter.getDenseI64ArrayAttr({size, 1}),
        rewriter.getDenseI64ArrayAttr({1, 1}),
        rewriter.getDenseI64ArrayAttr({1, 1}),
        rewriter.getDenseI64ArrayAttr({before, 0, after, 0}),
        /*ceil_mode=*/UnitAttr(), rewriter.getUnitAttr(), IntegerAttr(),
        /*channels_last=*/UnitAttr());
    // bias + alpha/size * sum = bias + alpha * average.
    Value base = b.binary(
        BinaryKind::add, b.scalar(x, op.getBias().convertToDouble()),
        b.binary(BinaryKind::mul, b.scalar(x, op.getAlpha().convertToDouble()),
                 b.reshape(average, shape)));
    Value denominator = b.binary(BinaryKind::pow, base,
                                 b.scalar(x, op.getBeta().convertToDouble()));
    rewriter.replaceOp(op, b.binary(BinaryKind::div, x, denominator));
    return success();
  }
};

struct DecomposeGlobalPool : OpRewritePattern<GlobalPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GlobalPoolOp op,
                                PatternRewriter &rewriter) const override {
    Builder b{rewriter, op.getLoc()};
    int64_t rank = op.getType().getRank();
    SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(2, rank));
    Value x = op.getInput();
    switch (op.getKind()) {
    case PoolKind::max:
      rewriter.replaceOp(op, b.reduce(ReduceKind::max, x, axes));
      return success();
    case PoolKind::avg:
      rewriter.replaceOp(op, b.reduce(ReduceKind::mean, x, axes));
      return success();
    case PoolKind::lp: {
      int64_t p = op.getP().value_or(2);
      if (p == 1 || p == 2) {
        rewriter.replaceOp(
            op, b.reduce(p == 1 ? ReduceKind::l1 : ReduceKind::l2, x, axes));
        return success();
      }
      Value powered = b.binary(BinaryKind::pow, b.unary(UnaryKind::abs, x),
                               b.scalar(x, double(p)));
      rewriter.replaceOp(op, b.binary(BinaryKind::pow,
                                      b.reduce(ReduceKind::sum, powered, axes),
                                      b.scalar(x, 1.0 / double(p))));
      return success();
    }
    }
    return failure();
  }
};

struct TileDecomposePass
    : aicc::tile::impl::TileDecomposePassBase<TileDecomposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeSoftmax, DecomposeLogSoftmax, DecomposeLayerNorm,
                 DecomposeBatchNorm, DecomposeInstanceNorm, DecomposeGroupNorm,
                 DecomposeLrn, DecomposeGlobalPool>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
