//===- Reduction.cpp - Reductions, arg-reductions, cumsum, top-k ----------===//

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

#include <cmath>

using namespace mlir;
using namespace aicc::tile;

namespace aicc::tile_to_linalg {
namespace {

using utils::IteratorType;

/// The shape of `type` without `axes`.
SmallVector<int64_t> withoutAxes(RankedTensorType type,
                                 ArrayRef<int64_t> axes) {
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!llvm::is_contained(axes, d))
      shape.push_back(type.getDimSize(d));
  return shape;
}

/// The map from the full iteration space to the kept dimensions.
AffineMap keptMap(MLIRContext *context, int64_t rank, ArrayRef<int64_t> axes) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      exprs.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(rank, 0, exprs, context);
}

SmallVector<IteratorType> reductionIterators(int64_t rank,
                                             ArrayRef<int64_t> axes) {
  SmallVector<IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d)
    iterators.push_back(llvm::is_contained(axes, d) ? IteratorType::reduction
                                                    : IteratorType::parallel);
  return iterators;
}

/// Reduces `x` over `axes` (keeping no dimension) with `kind`, accumulating
/// in `accType`. `shift`, when set, is subtracted from each element first (it
/// has the reduced shape): the stable log-sum-exp.
Value reduceTensor(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> axes,
                   ReduceKind kind, Type accType, bool unsignedType,
                   Value shift = Value()) {
  MLIRContext *context = b.getContext();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  auto outType = RankedTensorType::get(withoutAxes(type, axes), accType);
  ScalarBuilder scalar{b, loc};
  Value init = emptyTensor(b, loc, outType, {});
  init =
      linalg::FillOp::create(
          b, loc, scalar.reductionIdentity(kind, accType, unsignedType), init)
          .getResult(0);
  SmallVector<Value> inputs = {x};
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, context)};
  if (shift) {
    inputs.push_back(shift);
    maps.push_back(keptMap(context, rank, axes));
  }
  maps.push_back(keptMap(context, rank, axes));
  auto generic = linalg::GenericOp::create(
      b, loc, outType, inputs, init, maps, reductionIterators(rank, axes),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        ScalarBuilder sb{nb, l};
        Value element = args[0];
        if (element.getType() != accType)
          element = arith::ExtFOp::create(nb, l, accType, element);
        if (shift)
          element = arith::SubFOp::create(nb, l, element, args[1]);
        linalg::YieldOp::create(
            nb, l, sb.accumulate(kind, args.back(), element, unsignedType));
      });
  return generic.getResult(0);
}

struct ConvertReduce : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    ArrayRef<int64_t> axes = op.getAxes();
    Type element = inputType.getElementType();
    bool isFloat = isa<FloatType>(element);
    bool unsignedType = isUnsigned(op.getInput().getType().getElementType());
    Type accType = isFloat && element.getIntOrFloatBitWidth() < 32
                       ? rewriter.getF32Type()
                       : element;
    ReduceKind kind = op.getKind();
    Value x = adaptor.getInput();

    Value maxima;
    if (kind == ReduceKind::log_sum_exp)
      maxima =
          reduceTensor(rewriter, loc, x, axes, ReduceKind::max, accType, false);
    Value reduced = reduceTensor(rewriter, loc, x, axes, kind, accType,
                                 unsignedType, maxima);
    auto reducedType = cast<RankedTensorType>(reduced.getType());

    // Dynamic when any reduced size is (kDynamic is not a number to
    // multiply).
    int64_t count = 1;
    for (int64_t axis : axes) {
      int64_t size = inputType.getDimSize(axis);
      if (ShapedType::isDynamic(size)) {
        count = ShapedType::kDynamic;
        break;
      }
      count *= size;
    }
    bool finish = kind == ReduceKind::mean || kind == ReduceKind::l2 ||
                  kind == ReduceKind::log_sum ||
                  kind == ReduceKind::log_sum_exp || accType != element;
    if (finish) {
      if (kind == ReduceKind::mean && ShapedType::isDynamic(count))
        return rewriter.notifyMatchFailure(op, "mean over a dynamic size");
      SmallVector<Value> inputs = {reduced};
      if (maxima)
        inputs.push_back(maxima);
      reduced = buildElementwise(
          rewriter, loc, reducedType.clone(element), inputs,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            ScalarBuilder sb{b, l};
            Value v = args[0];
            switch (kind) {
            case ReduceKind::mean:
              v = isFloat ? Value(arith::DivFOp::create(
                                b, l, v, sb.constant(accType, double(count))))
                  : unsignedType
                      ? Value(arith::DivUIOp::create(
                            b, l, v, sb.constant(accType, double(count))))
                      : Value(arith::DivSIOp::create(
                            b, l, v, sb.constant(accType, double(count))));
              break;
            case ReduceKind::l2:
              v = math::SqrtOp::create(b, l, v);
              break;
            case ReduceKind::log_sum:
              v = math::LogOp::create(b, l, v);
              break;
            case ReduceKind::log_sum_exp:
              v = arith::AddFOp::create(b, l, math::LogOp::create(b, l, v),
                                        args[1]);
              break;
            default:
              break;
            }
            if (v.getType() != element)
              v = arith::TruncFOp::create(b, l, element, v);
            return v;
          });
    }
    rewriter.replaceOp(op, reshapeTensor(rewriter, loc, reduced, type));
    return success();
  }
};

/// The index and value of the best element along `axis` of `x` that `mask`
/// (an i1 tensor of x's shape, or null) does not exclude; ties go to the
/// first (or, with `last`, the last) position.
std::pair<Value, Value> argBest(OpBuilder &b, Location loc, Value x, Value mask,
                                int64_t axis, bool largest, bool last,
                                bool unsignedType) {
  MLIRContext *context = b.getContext();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  SmallVector<int64_t> shape = withoutAxes(type, {axis});
  auto valueType = RankedTensorType::get(shape, element);
  auto indexType = RankedTensorType::get(shape, b.getI64Type());
  ScalarBuilder scalar{b, loc};
  Value valueInit =
      linalg::FillOp::create(
          b, loc,
          scalar.reductionIdentity(largest ? ReduceKind::max : ReduceKind::min,
                                   element, unsignedType),
          emptyTensor(b, loc, valueType, {}))
          .getResult(0);
  Value indexInit =
      linalg::FillOp::create(b, loc, scalar.constant(b.getI64Type(), -1),
                             emptyTensor(b, loc, indexType, {}))
          .getResult(0);
  SmallVector<Value> inputs = {x};
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, context)};
  if (mask) {
    inputs.push_back(mask);
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
  }
  maps.push_back(keptMap(context, rank, {axis}));
  maps.push_back(keptMap(context, rank, {axis}));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{valueType, indexType}, inputs,
      ValueRange{valueInit, indexInit}, maps, reductionIterators(rank, {axis}),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        ScalarBuilder sb{nb, l};
        Value v = args[0];
        Value bestValue = args[mask ? 2 : 1], bestIndex = args[mask ? 3 : 2];
        Value position = arith::IndexCastOp::create(
            nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axis));
        ComparePredicate strict =
            largest ? ComparePredicate::gt : ComparePredicate::lt;
        ComparePredicate loose =
            largest ? ComparePredicate::ge : ComparePredicate::le;
        Type original =
            unsignedType
                ? Type(IntegerType::get(nb.getContext(),
                                        element.getIntOrFloatBitWidth(),
                                        IntegerType::Unsigned))
                : element;
        Value better =
            sb.compare(last ? loose : strict, v, bestValue, original);
        // The first candidate seen always wins (the identity may equal it).
        Value first =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, bestIndex,
                                  sb.constant(nb.getI64Type(), 0));
        Value take = arith::OrIOp::create(nb, l, better, first);
        if (mask)
          take = arith::AndIOp::create(
              nb, l, take,
              arith::XOrIOp::create(nb, l, args[1],
                                    sb.constant(nb.getI1Type(), -1)));
        linalg::YieldOp::create(
            nb, l,
            ValueRange{
                arith::SelectOp::create(nb, l, take, v, bestValue),
                arith::SelectOp::create(nb, l, take, position, bestIndex)});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

struct ConvertArgReduce : OpConversionPattern<ArgReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArgReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto [values, indices] = argBest(
        rewriter, op.getLoc(), adaptor.getInput(), Value(), op.getAxis(),
        op.getKind() == ArgKind::max, op.getSelectLastIndex(),
        isUnsigned(op.getInput().getType().getElementType()));
    (void)values;
    rewriter.replaceOp(op, reshapeTensor(rewriter, op.getLoc(), indices, type));
    return success();
  }
};

/// The slice of `x` at position `index` (a value) along `axis`, size 1.
Value sliceAt(OpBuilder &b, Location loc, Value x, int64_t axis, Value index) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(b.getIndexAttr(d == axis ? 1 : type.getDimSize(d)));
  offsets[axis] = index;
  return tensor::ExtractSliceOp::create(b, loc, x, offsets, sizes, strides);
}

Value insertAt(OpBuilder &b, Location loc, Value slice, Value into,
               int64_t axis, Value index) {
  auto type = cast<RankedTensorType>(into.getType());
  auto sliceType = cast<RankedTensorType>(slice.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(b.getIndexAttr(sliceType.getDimSize(d)));
  offsets[axis] = index;
  return tensor::InsertSliceOp::create(b, loc, slice, into, offsets, sizes,
                                       strides);
}

struct ConvertCumsum : OpConversionPattern<CumsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(adaptor.getInput().getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    int64_t axis = op.getAxis();
    int64_t n = type.getDimSize(axis);
    Type element = type.getElementType();
    Type original = op.getType().getElementType();
    SmallVector<int64_t> sliceShape(type.getShape());
    sliceShape[axis] = 1;
    auto sliceType = RankedTensorType::get(sliceShape, element);
    ScalarBuilder scalar{rewriter, loc};
    Value zero =
        linalg::FillOp::create(rewriter, loc, scalar.constant(element, 0),
                               emptyTensor(rewriter, loc, sliceType))
            .getResult(0);
    Value result = emptyTensor(rewriter, loc, type);
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value last = arith::ConstantIndexOp::create(rewriter, loc, n - 1);
    bool exclusive = op.getExclusive(), reverse = op.getReverse();
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, upper, one, ValueRange{zero, result},
        [&](OpBuilder &b, Location l, Value i, ValueRange state) {
          Value position =
              reverse ? Value(arith::SubIOp::create(b, l, last, i)) : i;
          Value slice = sliceAt(b, l, adaptor.getInput(), axis, position);
          Value sum = buildElementwise(
              b, l, sliceType, {state[0], slice},
              [&](OpBuilder &nb, Location nl, ValueRange args) {
                return ScalarBuilder{nb, nl}.binary(BinaryKind::add, args[0],
                                                    args[1], original);
              });
          Value written = insertAt(b, l, exclusive ? state[0] : sum, state[1],
                                   axis, position);
          scf::YieldOp::create(b, l, ValueRange{sum, written});
        });
    rewriter.replaceOp(op, loop.getResult(1));
    return success();
  }
};

struct ConvertTopK : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    if (!inputType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    int64_t axis = op.getAxis(), k = op.getK();
    bool largest = op.getLargest();
    bool unsignedType = isUnsigned(op.getInput().getType().getElementType());
    auto valuesType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getValues().getType()));
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    auto maskType = inputType.clone(rewriter.getI1Type());
    ScalarBuilder scalar{rewriter, loc};
    Value mask = linalg::FillOp::create(
                     rewriter, loc, scalar.constant(rewriter.getI1Type(), 0),
                     emptyTensor(rewriter, loc, maskType))
                     .getResult(0);
    Value values = emptyTensor(rewriter, loc, valuesType);
    Value indices = emptyTensor(rewriter, loc, indicesType);
    SmallVector<int64_t> oneShape(inputType.getShape());
    oneShape[axis] = 1;
    MLIRContext *context = rewriter.getContext();
    int64_t rank = inputType.getRank();
    // Repeatedly take the best element not taken yet: the order ONNX wants,
    // with lower positions first among equal values.
    auto loop = scf::ForOp::create(
        rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, 0),
        arith::ConstantIndexOp::create(rewriter, loc, k),
        arith::ConstantIndexOp::create(rewriter, loc, 1),
        ValueRange{mask, values, indices},
        [&](OpBuilder &b, Location l, Value i, ValueRange state) {
          auto [best, where] = argBest(b, l, adaptor.getInput(), state[0], axis,
                                       largest, false, unsignedType);
          auto bestType =
              RankedTensorType::get(oneShape, valuesType.getElementType());
          auto whereType = RankedTensorType::get(oneShape, b.getI64Type());
          Value bestSlice = reshapeTensor(b, l, best, bestType);
          Value whereSlice = reshapeTensor(b, l, where, whereType);
          Value newValues = insertAt(b, l, bestSlice, state[1], axis, i);
          Value newIndices = insertAt(b, l, whereSlice, state[2], axis, i);
          // Mark the taken positions.
          SmallVector<AffineExpr> exprs;
          for (int64_t d = 0; d < rank; ++d)
            exprs.push_back(d == axis ? getAffineConstantExpr(0, context)
                                      : getAffineDimExpr(d, context));
          SmallVector<AffineMap> maps = {
              AffineMap::getMultiDimIdentityMap(rank, context),
              AffineMap::get(rank, 0, exprs, context),
              AffineMap::getMultiDimIdentityMap(rank, context)};
          auto marked = linalg::GenericOp::create(
              b, l, maskType, ValueRange{state[0], whereSlice},
              emptyTensor(b, l, maskType), maps,
              SmallVector<IteratorType>(rank, IteratorType::parallel),
              [&](OpBuilder &nb, Location nl, ValueRange args) {
                Value position = arith::IndexCastOp::create(
                    nb, nl, nb.getI64Type(),
                    linalg::IndexOp::create(nb, nl, axis));
                Value hit = arith::CmpIOp::create(
                    nb, nl, arith::CmpIPredicate::eq, position, args[1]);
                linalg::YieldOp::create(
                    nb, nl, Value(arith::OrIOp::create(nb, nl, args[0], hit)));
              });
          scf::YieldOp::create(
              b, l, ValueRange{marked.getResult(0), newValues, newIndices});
        });
    rewriter.replaceOp(op, {loop.getResult(1), loop.getResult(2)});
    return success();
  }
};

} // namespace

void populateReductionPatterns(TypeConverter &converter,
                               RewritePatternSet &patterns) {
  patterns.add<ConvertReduce, ConvertArgReduce, ConvertCumsum, ConvertTopK>(
      converter, patterns.getContext());
}

} // namespace aicc::tile_to_linalg
