//===- Pooling.cpp - Pooling to linalg ------------------------------------===//

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::tile_to_linalg {
namespace {

using utils::IteratorType;

/// Max pooling of an already padded channels-last input (N x D... x C):
/// the element-wise maximum of one strided slice of it per window tap,
/// so that a kernel reads each tap along the channels, contiguously.
Value maximumOverTaps(OpBuilder &b, Location loc, Value padded,
                      RankedTensorType resultType, ArrayRef<int64_t> kernel,
                      ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                      bool unsignedType) {
  int64_t spatial = kernel.size(), rank = resultType.getRank();
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps *= k;
  SmallVector<Value> operands;
  for (int64_t t = 0; t < taps; ++t) {
    SmallVector<int64_t> tap = tapIndex(t, kernel);
    SmallVector<int64_t> offsets = {0}, steps = {1};
    for (int64_t s = 0; s < spatial; ++s) {
      offsets.push_back(tap[s] * dilations[s]);
      steps.push_back(strides[s]);
    }
    offsets.push_back(0);
    steps.push_back(1);
    operands.push_back(
        sliceOf(b, loc, padded, offsets, resultType.getShape(), steps));
  }
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  return linalg::GenericOp::create(
             b, loc, resultType, operands,
             ValueRange{emptyTensor(b, loc, resultType, {})},
             SmallVector<AffineMap>(taps + 1, identity),
             SmallVector<IteratorType>(rank, IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               ScalarBuilder sb{nb, l};
               Value result = args[0];
               for (int64_t t = 1; t < taps; ++t)
                 result = sb.maximum(result, args[t], unsignedType);
               linalg::YieldOp::create(nb, l, result);
             })
      .getResult(0);
}

struct ConvertPool : OpConversionPattern<PoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    if (!type.hasStaticShape() || !inputType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(),
                      dilations = op.getDilations(), padding = op.getPadding();
    int64_t spatial = kernel.size();
    Type element = inputType.getElementType();
    bool unsignedType = isUnsigned(op.getInput().getType().getElementType());
    PoolKind kind = op.getKind();
    ScalarBuilder scalar{rewriter, loc};
    // N x C x D... or, channels last, N x D... x C.
    bool last = op.getChannelsLast();
    int64_t first = last ? 1 : 2;

    // Pad; ceil mode may need more at the end for the last window.
    SmallVector<int64_t> low(padding.take_front(spatial)),
        high(padding.drop_front(spatial));
    for (int64_t s = 0; s < spatial; ++s) {
      int64_t needed = (type.getDimSize(s + first) - 1) * strides[s] +
                       (kernel[s] - 1) * dilations[s] + 1;
      int64_t have = inputType.getDimSize(s + first) + low[s] + high[s];
      if (needed > have)
        high[s] += needed - have;
    }
    Value init =
        kind == PoolKind::max
            ? scalar.reductionIdentity(ReduceKind::max, element, unsignedType)
            : scalar.constant(element, 0);
    Value padded =
        padSpatial(rewriter, loc, adaptor.getInput(), low, high, init, last);
    int64_t taps = 1;
    for (int64_t k : kernel)
      taps *= k;
    if (last && kind == PoolKind::max && taps <= kMaxTaps) {
      rewriter.replaceOp(op,
                         maximumOverTaps(rewriter, loc, padded, type, kernel,
                                         strides, dilations, unsignedType));
      return success();
    }

    // Loops n, c, o..., k... or, channels last, n, o..., c, k... (the
    // channels innermost of the parallel loops, as they lie in memory).
    int64_t dims = 2 + 2 * spatial;
    int64_t channel = last ? 1 + spatial : 1;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
    SmallVector<AffineExpr> inputExprs = {d(0)}, outputExprs = {d(0)};
    if (!last) {
      inputExprs.push_back(d(channel));
      outputExprs.push_back(d(channel));
    }
    for (int64_t s = 0; s < spatial; ++s) {
      int64_t o = last ? 1 + s : 2 + s;
      inputExprs.push_back(d(o) * strides[s] +
                           d(2 + spatial + s) * dilations[s]);
      outputExprs.push_back(d(o));
    }
    if (last) {
      inputExprs.push_back(d(channel));
      outputExprs.push_back(d(channel));
    }
    // The kernel window as a loop-only operand (an empty tensor of its shape).
    Value window = tensor::EmptyOp::create(rewriter, loc, kernel, element);
    SmallVector<AffineExpr> windowExprs;
    for (int64_t s = 0; s < spatial; ++s)
      windowExprs.push_back(d(2 + spatial + s));
    SmallVector<AffineMap> maps = {
        AffineMap::get(dims, 0, inputExprs, context),
        AffineMap::get(dims, 0, windowExprs, context),
        AffineMap::get(dims, 0, outputExprs, context)};
    SmallVector<IteratorType> iterators(2 + spatial, IteratorType::parallel);
    iterators.append(spatial, IteratorType::reduction);
    double p = double(op.getP().value_or(2));
    Value accInit = filled(rewriter, loc, type, init);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{padded, window}, accInit, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          ScalarBuilder sb{b, l};
          Value x = args[0], acc = args[2], next;
          if (kind == PoolKind::max) {
            next = sb.maximum(acc, x, unsignedType);
          } else if (kind == PoolKind::avg) {
            next = sb.binary(BinaryKind::add, acc, x, element);
          } else {
            Value magnitude = math::AbsFOp::create(b, l, x);
            Value powered =
                p == 2.0
                    ? Value(arith::MulFOp::create(b, l, magnitude, magnitude))
                    : Value(math::PowFOp::create(b, l, magnitude,
                                                 sb.constant(element, p)));
            next = arith::AddFOp::create(b, l, acc, powered);
          }
          linalg::YieldOp::create(b, l, next);
        });
    Value result = generic.getResult(0);

    if (kind == PoolKind::avg) {
      // Divide by the number of elements each window covers: inside the
      // input, or inside input and explicit padding with count_include_pad.
      bool includePad = op.getCountIncludePad();
      SmallVector<SmallVector<double>> perDim(spatial);
      SmallVector<int64_t> countShape(first, 1);
      for (int64_t s = 0; s < spatial; ++s) {
        int64_t size = inputType.getDimSize(s + first);
        int64_t from = includePad ? -padding[s] : 0;
        int64_t to = includePad ? size + padding[s + spatial] : size;
        for (int64_t o = 0; o < type.getDimSize(s + first); ++o) {
          int64_t count = 0;
          for (int64_t k = 0; k < kernel[s]; ++k) {
            int64_t position = o * strides[s] + k * dilations[s] - padding[s];
            count += position >= from && position < to;
          }
          perDim[s].push_back(std::max<int64_t>(count, 1));
        }
        countShape.push_back(type.getDimSize(s + first));
      }
      if (last)
        countShape.push_back(1);
      SmallVector<double> counts(1, 1.0);
      for (int64_t s = 0; s < spatial; ++s) {
        SmallVector<double> next;
        for (double c : counts)
          for (double v : perDim[s])
            next.push_back(c * v);
        counts = std::move(next);
      }
      auto countType = RankedTensorType::get(countShape, element);
      SmallVector<APFloat> values;
      for (double c : counts) {
        APFloat v(c);
        bool lost;
        v.convert(cast<FloatType>(element).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &lost);
        values.push_back(v);
      }
      Value countTensor = arith::ConstantOp::create(
          rewriter, loc, countType, DenseElementsAttr::get(countType, values));
      result = buildElementwise(
          rewriter, loc, type, {result, countTensor},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            return arith::DivFOp::create(b, l, args[0], args[1]);
          });
    } else if (kind == PoolKind::lp) {
      result = buildElementwise(
          rewriter, loc, type, result,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            if (p == 2.0)
              return math::SqrtOp::create(b, l, args[0]);
            return math::PowFOp::create(
                b, l, args[0], ScalarBuilder{b, l}.constant(element, 1.0 / p));
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populatePoolingPatterns(TypeConverter &converter,
                             RewritePatternSet &patterns) {
  patterns.add<ConvertPool>(converter, patterns.getContext());
}

} // namespace aicc::tile_to_linalg
