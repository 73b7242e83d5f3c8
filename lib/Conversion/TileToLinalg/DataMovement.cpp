//===- DataMovement.cpp - Gather, scatter, slicing, shapes, resize --------===//

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace aicc::tile;

namespace aicc::tile_to_linalg {
namespace {

using utils::IteratorType;

RankedTensorType converted(const TypeConverter *converter, Type type) {
  return cast<RankedTensorType>(converter->convertType(type));
}

/// An index element (any integer type) as an `index` position into a
/// dimension of `size`: negative positions count from the end, and the
/// result is clamped into [0, size) so that bad data cannot read out of
/// bounds.
Value normalizeIndex(OpBuilder &b, Location loc, Value raw, Value size,
                     bool unsignedIndex) {
  Value i =
      unsignedIndex
          ? Value(arith::IndexCastUIOp::create(b, loc, b.getIndexType(), raw))
          : Value(arith::IndexCastOp::create(b, loc, b.getIndexType(), raw));
  Value zero = indexConstant(b, loc, 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
  i = arith::SelectOp::create(b, loc, negative,
                              arith::AddIOp::create(b, loc, i, size), i);
  Value last = arith::SubIOp::create(b, loc, size, indexConstant(b, loc, 1));
  i = arith::MaxSIOp::create(b, loc, i, zero);
  return arith::MinSIOp::create(b, loc, i, last);
}

Value dimSize(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return indexConstant(b, loc, type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim);
}

/// linalg.generic over `resultType` with no tensor inputs but `inputs`
/// read through `maps`; the body gets the loop indices and the inputs.
Value generate(
    OpBuilder &b, Location loc, RankedTensorType resultType, ValueRange inputs,
    ArrayRef<AffineMap> inputMaps,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>, ValueRange)>
        body,
    ValueRange like = {}) {
  MLIRContext *context = b.getContext();
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, emptyTensor(b, loc, resultType, like), maps,
      SmallVector<IteratorType>(rank, IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> indices;
        for (int64_t d = 0; d < rank; ++d)
          indices.push_back(linalg::IndexOp::create(nb, l, d));
        linalg::YieldOp::create(nb, l, body(nb, l, indices, args.drop_back()));
      });
  return generic.getResult(0);
}

//===----------------------------------------------------------------------===//
// Gathers
//===----------------------------------------------------------------------===//

struct ConvertGather : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t axis = op.getAxis(), indexRank = indicesType.getRank();
    bool unsignedIndex = isUnsigned(op.getIndices().getType().getElementType());
    // One constant position (a split of stacked tensors, as attention's
    // unbind of q, k and v): the slice there, which bufferizes to a view
    // of `data` rather than a copy. Normalized and clamped as below.
    auto dataType = cast<RankedTensorType>(data.getType());
    DenseIntElementsAttr constant;
    if (indexRank == 0 && !dataType.isDynamicDim(axis) &&
        dataType.getDimSize(axis) > 0 &&
        matchPattern(op.getIndices(), m_Constant(&constant))) {
      int64_t extent = dataType.getDimSize(axis);
      APInt raw = *constant.getValues<APInt>().begin();
      int64_t at = unsignedIndex ? static_cast<int64_t>(raw.getZExtValue())
                                 : raw.getSExtValue();
      if (at < 0)
        at += extent;
      at = std::clamp<int64_t>(at, 0, extent - 1);
      SmallVector<OpFoldResult> offsets(dataType.getRank(),
                                        rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, data);
      SmallVector<OpFoldResult> strides(dataType.getRank(),
                                        rewriter.getIndexAttr(1));
      offsets[axis] = rewriter.getIndexAttr(at);
      sizes[axis] = rewriter.getIndexAttr(1);
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          op, type, data, offsets, sizes, strides);
      return success();
    }
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < indexRank; ++d)
      exprs.push_back(getAffineDimExpr(axis + d, context));
    AffineMap map = AffineMap::get(type.getRank(), 0, exprs, context);
    Value size = dimSize(rewriter, loc, data, axis);
    rewriter.replaceOp(
        op, generate(rewriter, loc, type, indices, map,
                     [&](OpBuilder &b, Location l, ArrayRef<Value> ivs,
                         ValueRange args) -> Value {
                       SmallVector<Value> at(ivs.take_front(axis));
                       at.push_back(
                           normalizeIndex(b, l, args[0], size, unsignedIndex));
                       llvm::append_range(at, ivs.drop_front(axis + indexRank));
                       return tensor::ExtractOp::create(b, l, data, at);
                     }));
    return success();
  }
};

struct ConvertGatherElements : OpConversionPattern<GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    int64_t axis = op.getAxis();
    bool unsignedIndex = isUnsigned(op.getIndices().getType().getElementType());
    Value size = dimSize(rewriter, loc, data, axis);
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(type.getRank(), getContext());
    rewriter.replaceOp(
        op, generate(
                rewriter, loc, type, indices, identity,
                [&](OpBuilder &b, Location l, ArrayRef<Value> ivs,
                    ValueRange args) -> Value {
                  SmallVector<Value> at(ivs);
                  at[axis] = normalizeIndex(b, l, args[0], size, unsignedIndex);
                  return tensor::ExtractOp::create(b, l, data, at);
                },
                indices));
    return success();
  }
};

struct ConvertGatherNd : OpConversionPattern<GatherNdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t batch = op.getBatchDims();
    int64_t outer = indicesType.getRank() - 1;
    int64_t tuple = indicesType.getShape().back();
    bool unsignedIndex = isUnsigned(op.getIndices().getType().getElementType());
    rewriter.replaceOp(
        op, generate(rewriter, loc, type, {}, {},
                     [&](OpBuilder &b, Location l, ArrayRef<Value> ivs,
                         ValueRange) -> Value {
                       SmallVector<Value> at(ivs.take_front(batch));
                       SmallVector<Value> where(ivs.take_front(outer));
                       where.push_back(Value());
                       for (int64_t q = 0; q < tuple; ++q) {
                         where.back() = indexConstant(b, l, q);
                         Value raw =
                             tensor::ExtractOp::create(b, l, indices, where);
                         at.push_back(normalizeIndex(
                             b, l, raw, dimSize(b, l, data, batch + q),
                             unsignedIndex));
                       }
                       llvm::append_range(at, ivs.drop_front(outer));
                       return tensor::ExtractOp::create(b, l, data, at);
                     }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Scatters: sequential loops, so later updates win on duplicate positions
//===----------------------------------------------------------------------===//

/// Builds `scf.for` loops over `shape`, threading `state` through them;
/// `body` gets the indices and the current state and returns the new one.
Value loopNest(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Value state,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>, Value)> body) {
  SmallVector<Value> ivs;
  std::function<Value(OpBuilder &, Location, size_t, Value)> build =
      [&](OpBuilder &nb, Location l, size_t d, Value current) -> Value {
    if (d == shape.size())
      return body(nb, l, ivs, current);
    auto loop = scf::ForOp::create(
        nb, l, indexConstant(nb, l, 0), indexConstant(nb, l, shape[d]),
        indexConstant(nb, l, 1), ValueRange{current},
        [&](OpBuilder &lb, Location ll, Value iv, ValueRange args) {
          ivs.push_back(iv);
          Value next = build(lb, ll, d + 1, args[0]);
          ivs.pop_back();
          scf::YieldOp::create(lb, ll, next);
        });
    return loop.getResult(0);
  };
  return build(b, loc, 0, state);
}

Value combine(OpBuilder &b, Location loc, ScatterReduction reduction,
              Value current, Value update, Type original) {
  ScalarBuilder sb{b, loc};
  switch (reduction) {
  case ScatterReduction::none:
    return update;
  case ScatterReduction::add:
    return sb.binary(BinaryKind::add, current, update, original);
  case ScatterReduction::mul:
    return sb.binary(BinaryKind::mul, current, update, original);
  case ScatterReduction::max:
    return sb.binary(BinaryKind::max, current, update, original);
  case ScatterReduction::min:
    return sb.binary(BinaryKind::min, current, update, original);
  }
  return update;
}

struct ConvertScatterElements : OpConversionPattern<ScatterElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto updatesType = cast<RankedTensorType>(adaptor.getUpdates().getType());
    if (!updatesType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static updates");
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    Type original = op.getType().getElementType();
    bool unsignedIndex = isUnsigned(op.getIndices().getType().getElementType());
    Value size = dimSize(rewriter, loc, adaptor.getData(), axis);
    Value result = loopNest(
        rewriter, loc, updatesType.getShape(), adaptor.getData(),
        [&](OpBuilder &b, Location l, ArrayRef<Value> ivs, Value current) {
          Value raw =
              tensor::ExtractOp::create(b, l, adaptor.getIndices(), ivs);
          SmallVector<Value> at(ivs);
          at[axis] = normalizeIndex(b, l, raw, size, unsignedIndex);
          Value update =
              tensor::ExtractOp::create(b, l, adaptor.getUpdates(), ivs);
          Value old = tensor::ExtractOp::create(b, l, current, at);
          Value value = combine(b, l, op.getReduction(), old, update, original);
          return Value(tensor::InsertOp::create(b, l, value, current, at));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertScatterNd : OpConversionPattern<ScatterNdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto updatesType = cast<RankedTensorType>(adaptor.getUpdates().getType());
    auto indicesType = cast<RankedTensorType>(adaptor.getIndices().getType());
    if (!updatesType.hasStaticShape() || !indicesType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Location loc = op.getLoc();
    Type original = op.getType().getElementType();
    int64_t outer = indicesType.getRank() - 1;
    int64_t tuple = indicesType.getShape().back();
    bool unsignedIndex = isUnsigned(op.getIndices().getType().getElementType());
    Value data = adaptor.getData();
    Value result = loopNest(
        rewriter, loc, updatesType.getShape(), data,
        [&](OpBuilder &b, Location l, ArrayRef<Value> ivs, Value current) {
          SmallVector<Value> where(ivs.take_front(outer)), at;
          where.push_back(Value());
          for (int64_t q = 0; q < tuple; ++q) {
            where.back() = indexConstant(b, l, q);
            Value raw =
                tensor::ExtractOp::create(b, l, adaptor.getIndices(), where);
            at.push_back(normalizeIndex(b, l, raw, dimSize(b, l, data, q),
                                        unsignedIndex));
          }
          llvm::append_range(at, ivs.drop_front(outer));
          Value update =
              tensor::ExtractOp::create(b, l, adaptor.getUpdates(), ivs);
          Value old = tensor::ExtractOp::create(b, l, current, at);
          Value value = combine(b, l, op.getReduction(), old, update, original);
          return Value(tensor::InsertOp::create(b, l, value, current, at));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Slicing and joining
//===----------------------------------------------------------------------===//

struct ConvertSlice : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    Location loc = op.getLoc();
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static result shape");
    ArrayRef<int64_t> starts = op.getStarts(), steps = op.getSteps();
    if (type.getNumElements() == 0) {
      rewriter.replaceOp(op, emptyTensor(rewriter, loc, type, {}));
      return success();
    }
    // Forward steps are a strided view of the input.
    if (llvm::all_of(steps, [](int64_t step) { return step > 0; })) {
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          op, type, adaptor.getInput(), ValueRange(), ValueRange(),
          ValueRange(), starts, type.getShape(), steps);
      return success();
    }
    // Backward steps read element by element.
    Value input = adaptor.getInput();
    rewriter.replaceOp(
        op, generate(rewriter, loc, type, {}, {},
                     [&](OpBuilder &b, Location l, ArrayRef<Value> indices,
                         ValueRange) {
                       SmallVector<Value> at;
                       for (auto [d, index] : llvm::enumerate(indices)) {
                         Value scaled = arith::MulIOp::create(
                             b, l, index, indexConstant(b, l, steps[d]));
                         at.push_back(arith::AddIOp::create(
                             b, l, scaled, indexConstant(b, l, starts[d])));
                       }
                       return Value(tensor::ExtractOp::create(b, l, input, at));
                     }));
    return success();
  }
};

struct ConvertConcat : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    int64_t axis = op.getAxis(), rank = type.getRank();
    // The dynamic result sizes: the axis sums the inputs' sizes, the other
    // dimensions come from the first input.
    SmallVector<Value> dynamic;
    for (int64_t d = 0; d < rank; ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (d != axis) {
        dynamic.push_back(dimSize(rewriter, loc, adaptor.getInputs()[0], d));
        continue;
      }
      Value total = indexConstant(rewriter, loc, 0);
      for (Value input : adaptor.getInputs())
        total = arith::AddIOp::create(rewriter, loc, total,
                                      dimSize(rewriter, loc, input, d));
      dynamic.push_back(total);
    }
    Value result = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                           type.getElementType(), dynamic);
    Value offset = indexConstant(rewriter, loc, 0);
    for (Value input : adaptor.getInputs()) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)), sizes,
          strides(rank, rewriter.getIndexAttr(1));
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(getAsOpFoldResult(dimSize(rewriter, loc, input, d)));
      offsets[axis] = offset;
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, sizes, strides);
      offset = arith::AddIOp::create(rewriter, loc, offset,
                                     dimSize(rewriter, loc, input, axis));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertSplit : OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    int64_t axis = op.getAxis();
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<Value> results;
    int64_t offset = 0;
    for (auto [result, size] :
         llvm::zip_equal(op.getResults(), op.getSizes())) {
      RankedTensorType type = converted(getTypeConverter(), result.getType());
      SmallVector<OpFoldResult> offsets(inputType.getRank(),
                                        rewriter.getIndexAttr(0)),
          sizes, strides(inputType.getRank(), rewriter.getIndexAttr(1));
      for (int64_t d = 0; d < inputType.getRank(); ++d)
        sizes.push_back(
            d == axis ? rewriter.getIndexAttr(size)
                      : getAsOpFoldResult(dimSize(rewriter, loc, input, d)));
      offsets[axis] = rewriter.getIndexAttr(offset);
      // An empty piece is a new empty tensor: slicing at the end of an
      // empty dimension is out of bounds for tensor.extract_slice.
      if (size == 0)
        results.push_back(emptyTensor(rewriter, loc, type, input));
      else
        results.push_back(tensor::ExtractSliceOp::create(
            rewriter, loc, type, input, offsets, sizes, strides));
      offset += size;
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ConvertPad : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank();
    ArrayRef<int64_t> padding = op.getPadding();
    Type element = type.getElementType();
    if (op.getMode() == PadMode::constant) {
      Value value;
      if (std::optional<TypedAttr> attr = op.getValue()) {
        Attribute raw = *attr;
        if (auto integer = dyn_cast<IntegerAttr>(raw))
          raw = rewriter.getIntegerAttr(element, integer.getValue());
        value = arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(raw));
      } else {
        value = ScalarBuilder{rewriter, loc}.constant(element, 0);
      }
      rewriter.replaceOpWithNewOp<tensor::PadOp>(
          op, type, input,
          getAsIndexOpFoldResult(getContext(), padding.take_front(rank)),
          getAsIndexOpFoldResult(getContext(), padding.drop_front(rank)),
          value);
      return success();
    }
    if (!inputType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    PadMode mode = op.getMode();
    rewriter.replaceOp(
        op,
        generate(rewriter, loc, type, {}, {},
                 [&](OpBuilder &b, Location l, ArrayRef<Value> ivs,
                     ValueRange) -> Value {
                   SmallVector<Value> at;
                   for (int64_t d = 0; d < rank; ++d) {
                     int64_t n = inputType.getDimSize(d);
                     Value i = arith::SubIOp::create(
                         b, l, ivs[d], indexConstant(b, l, padding[d]));
                     Value zero = indexConstant(b, l, 0);
                     Value last = indexConstant(b, l, n - 1);
                     if (mode == PadMode::edge || n == 1) {
                       i = arith::MinSIOp::create(
                           b, l, arith::MaxSIOp::create(b, l, i, zero), last);
                     } else if (mode == PadMode::wrap) {
                       // ((i mod n) + n) mod n
                       Value nn = indexConstant(b, l, n);
                       i = arith::RemSIOp::create(
                           b, l,
                           arith::AddIOp::create(
                               b, l, arith::RemSIOp::create(b, l, i, nn), nn),
                           nn);
                     } else { // reflect: period 2(n-1)
                       Value period = indexConstant(b, l, 2 * (n - 1));
                       Value m = arith::RemSIOp::create(
                           b, l,
                           arith::AddIOp::create(
                               b, l, arith::RemSIOp::create(b, l, i, period),
                               period),
                           period);
                       Value mirrored = arith::SubIOp::create(b, l, period, m);
                       Value inside = arith::CmpIOp::create(
                           b, l, arith::CmpIPredicate::slt, m,
                           indexConstant(b, l, n));
                       i = arith::SelectOp::create(b, l, inside, m, mirrored);
                     }
                     at.push_back(i);
                   }
                   return tensor::ExtractOp::create(b, l, input, at);
                 }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

struct ConvertTranspose : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    Location loc = op.getLoc();
    SmallVector<Value> dynamic;
    for (auto [d, source] : llvm::enumerate(op.getPermutation()))
      if (type.isDynamicDim(d))
        dynamic.push_back(dimSize(rewriter, loc, adaptor.getInput(), source));
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType(), dynamic);
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, loc,
                                                       adaptor.getInput(), init,
                                                       op.getPermutation())
                               .getResult());
    return success();
  }
};

struct ConvertReshape : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    Location loc = op.getLoc();
    if (type.hasStaticShape()) {
      rewriter.replaceOp(
          op, reshapeTensor(rewriter, loc, adaptor.getInput(), type));
      return success();
    }
    // One dynamic result dimension: the element count over the static ones.
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    Value count = indexConstant(rewriter, loc, 1);
    for (int64_t d = 0; d < inputType.getRank(); ++d)
      count = arith::MulIOp::create(rewriter, loc, count,
                                    dimSize(rewriter, loc, input, d));
    int64_t known = 1;
    for (int64_t size : type.getShape())
      if (!ShapedType::isDynamic(size))
        known *= size;
    Value dynamic = arith::DivUIOp::create(rewriter, loc, count,
                                           indexConstant(rewriter, loc, known));
    SmallVector<Value> shape;
    for (int64_t size : type.getShape())
      shape.push_back(ShapedType::isDynamic(size)
                          ? dynamic
                          : indexConstant(rewriter, loc, size));
    Value shapeTensor = tensor::FromElementsOp::create(rewriter, loc, shape);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, type, input,
                                                   shapeTensor);
    return success();
  }
};

struct ConvertExpand : OpConversionPattern<ExpandOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    rewriter.replaceOp(
        op, buildElementwise(rewriter, op.getLoc(), type, adaptor.getInput(),
                             [](OpBuilder &, Location, ValueRange args) {
                               return args[0];
                             }));
    return success();
  }
};

struct ConvertTile : OpConversionPattern<TileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    if (!inputType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static shape");
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < type.getRank(); ++d)
      exprs.push_back(getAffineDimExpr(d, context) % inputType.getDimSize(d));
    AffineMap map = AffineMap::get(type.getRank(), 0, exprs, context);
    rewriter.replaceOp(op, generate(rewriter, op.getLoc(), type,
                                    adaptor.getInput(), map,
                                    [](OpBuilder &, Location, ArrayRef<Value>,
                                       ValueRange args) { return args[0]; }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Resize
//===----------------------------------------------------------------------===//

struct ConvertResize : OpConversionPattern<ResizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (!type.hasStaticShape() || !inputType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    if (op.getAntialias())
      return rewriter.notifyMatchFailure(op, "antialias is not supported");
    Location loc = op.getLoc();
    int64_t rank = type.getRank();
    ArrayRef<double> staticScales = op.getScales();
    std::optional<ArrayRef<double>> roi = op.getRoi();
    Value dynamicScales = adaptor.getDynamicScales();
    ResizeMode mode = op.getMode();
    CoordinateTransform transform = op.getCoordinateTransform();
    NearestMode nearest = op.getNearestMode();
    double a = op.getCubicCoeffA().convertToDouble();
    bool excludeOutside = op.getExcludeOutside();
    double extrapolation = op.getExtrapolationValue().convertToDouble();
    Type element = type.getElementType();
    bool isFloat = isa<FloatType>(element);

    rewriter.replaceOp(
        op,
        generate(
            rewriter, loc, type, {}, {},
            [&](OpBuilder &b, Location l, ArrayRef<Value> ivs,
                ValueRange) -> Value {
              Type f32 = b.getF32Type();
              ScalarBuilder sb{b, l};
              auto c = [&](double v) { return sb.constant(f32, v); };
              auto toIndex = [&](Value f) -> Value {
                return arith::IndexCastOp::create(
                    b, l, b.getIndexType(),
                    arith::FPToSIOp::create(b, l, b.getI64Type(), f));
              };
              auto clampIndex = [&](Value i, int64_t n) -> Value {
                return arith::MinSIOp::create(
                    b, l,
                    arith::MaxSIOp::create(b, l, i, indexConstant(b, l, 0)),
                    indexConstant(b, l, n - 1));
              };
              // Per dimension: the source coordinate, and whether it falls
              // outside (tf_crop_and_resize extrapolates there).
              SmallVector<Value> coords(rank);
              Value outside = sb.constant(b.getI1Type(), 0);
              SmallVector<bool> resized(rank);
              for (int64_t d = 0; d < rank; ++d) {
                int64_t in = inputType.getDimSize(d), out = type.getDimSize(d);
                resized[d] = in != out || staticScales[d] != 1.0 || roi;
                Value x =
                    arith::IndexCastOp::create(b, l, b.getI64Type(), ivs[d]);
                x = arith::SIToFPOp::create(b, l, f32, x);
                Value scale = dynamicScales
                                  ? Value(tensor::ExtractOp::create(
                                        b, l, dynamicScales,
                                        ValueRange{indexConstant(b, l, d)}))
                                  : c(staticScales[d]);
                if (scale.getType() != f32)
                  scale = arith::ExtFOp::create(b, l, f32, scale);
                auto add = [&](Value p, Value q) -> Value {
                  return arith::AddFOp::create(b, l, p, q);
                };
                auto sub = [&](Value p, Value q) -> Value {
                  return arith::SubFOp::create(b, l, p, q);
                };
                auto mul = [&](Value p, Value q) -> Value {
                  return arith::MulFOp::create(b, l, p, q);
                };
                auto div = [&](Value p, Value q) -> Value {
                  return arith::DivFOp::create(b, l, p, q);
                };
                Value halfPixel = sub(div(add(x, c(0.5)), scale), c(0.5));
                Value coord;
                switch (transform) {
                case CoordinateTransform::half_pixel:
                  coord = halfPixel;
                  break;
                case CoordinateTransform::half_pixel_symmetric: {
                  // Centre the sampled window when the output size rounds.
                  Value adjustment =
                      div(c(double(out)), mul(scale, c(double(in))));
                  Value centre = c(double(in) / 2);
                  Value offset = mul(centre, sub(c(1), adjustment));
                  coord = add(offset, halfPixel);
                  break;
                }
                case CoordinateTransform::pytorch_half_pixel:
                  coord = out > 1 ? halfPixel : c(0);
                  break;
                case CoordinateTransform::align_corners:
                  // ONNX measures the resized length as input length times
                  // scale, unrounded: with scales that do not divide the
                  // input evenly it differs from the output's size.
                  coord =
                      out > 1
                          ? mul(x, div(c(double(in - 1)),
                                       sub(mul(c(double(in)), scale), c(1))))
                          : c(0);
                  break;
                case CoordinateTransform::asymmetric:
                  coord = div(x, scale);
                  break;
                case CoordinateTransform::tf_crop_and_resize: {
                  double start = (*roi)[d], end = (*roi)[d + rank];
                  coord =
                      out > 1
                          ? add(c(start * (in - 1)),
                                mul(x,
                                    div(c((end - start) * (in - 1)),
                                        sub(mul(c(double(in)), scale), c(1)))))
                          : c(0.5 * (start + end) * (in - 1));
                  Value below = arith::CmpFOp::create(
                      b, l, arith::CmpFPredicate::OLT, coord, c(0));
                  Value above =
                      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                            coord, c(double(in - 1)));
                  outside = arith::OrIOp::create(
                      b, l, outside, arith::OrIOp::create(b, l, below, above));
                  break;
                }
                }
                coords[d] = coord;
              }

              auto read = [&](ArrayRef<Value> at) -> Value {
                Value v = tensor::ExtractOp::create(b, l, input, at);
                if (!isFloat)
                  return v;
                return v.getType() == f32
                           ? v
                           : Value(arith::ExtFOp::create(b, l, f32, v));
              };
              Value result;
              if (mode == ResizeMode::nearest) {
                SmallVector<Value> at;
                for (int64_t d = 0; d < rank; ++d) {
                  if (!resized[d]) {
                    at.push_back(ivs[d]);
                    continue;
                  }
                  Value x = coords[d], r;
                  switch (nearest) {
                  case NearestMode::round_prefer_floor:
                    r = math::CeilOp::create(
                        b, l, arith::SubFOp::create(b, l, x, c(0.5)));
                    break;
                  case NearestMode::round_prefer_ceil:
                    r = math::FloorOp::create(
                        b, l, arith::AddFOp::create(b, l, x, c(0.5)));
                    break;
                  case NearestMode::floor:
                    r = math::FloorOp::create(b, l, x);
                    break;
                  case NearestMode::ceil:
                    r = math::CeilOp::create(b, l, x);
                    break;
                  }
                  at.push_back(clampIndex(toIndex(r), inputType.getDimSize(d)));
                }
                result = tensor::ExtractOp::create(b, l, input, at);
                if (isFloat &&
                    transform == CoordinateTransform::tf_crop_and_resize)
                  result = arith::SelectOp::create(
                      b, l, outside, sb.constant(element, extrapolation),
                      result);
                return result;
              }

              // Linear and cubic: a weighted sum over neighbours, dimension by
              // dimension (2 or 4 taps each).
              int64_t taps = mode == ResizeMode::linear ? 2 : 4;
              SmallVector<SmallVector<Value>> positions(rank), weights(rank);
              for (int64_t d = 0; d < rank; ++d) {
                int64_t n = inputType.getDimSize(d);
                if (!resized[d]) {
                  positions[d] = {ivs[d]};
                  weights[d] = {c(1)};
                  continue;
                }
                Value x = coords[d];
                Value base = math::FloorOp::create(b, l, x);
                Value t = arith::SubFOp::create(b, l, x, base);
                Value baseIndex = toIndex(base);
                SmallVector<Value> w;
                if (mode == ResizeMode::linear) {
                  w = {arith::SubFOp::create(b, l, c(1), t), t};
                } else {
                  // Keys' cubic kernel with coefficient a at distances
                  // 1 + t, t, 1 - t, 2 - t.
                  auto kernel = [&](Value s, bool near) -> Value {
                    Value s2 = arith::MulFOp::create(b, l, s, s);
                    Value s3 = arith::MulFOp::create(b, l, s2, s);
                    if (near) // (a + 2)|s|^3 - (a + 3)|s|^2 + 1
                      return arith::AddFOp::create(
                          b, l,
                          arith::SubFOp::create(
                              b, l, arith::MulFOp::create(b, l, c(a + 2), s3),
                              arith::MulFOp::create(b, l, c(a + 3), s2)),
                          c(1));
                    // a|s|^3 - 5a|s|^2 + 8a|s| - 4a
                    Value v = arith::MulFOp::create(b, l, c(a), s3);
                    v = arith::SubFOp::create(
                        b, l, v, arith::MulFOp::create(b, l, c(5 * a), s2));
                    v = arith::AddFOp::create(
                        b, l, v, arith::MulFOp::create(b, l, c(8 * a), s));
                    return arith::SubFOp::create(b, l, v, c(4 * a));
                  };
                  w = {kernel(arith::AddFOp::create(b, l, c(1), t), false),
                       kernel(t, true),
                       kernel(arith::SubFOp::create(b, l, c(1), t), true),
                       kernel(arith::SubFOp::create(b, l, c(2), t), false)};
                }
                int64_t first = mode == ResizeMode::linear ? 0 : -1;
                Value total = c(0);
                for (int64_t k = 0; k < taps; ++k) {
                  Value raw = arith::AddIOp::create(
                      b, l, baseIndex, indexConstant(b, l, first + k));
                  if (excludeOutside && mode == ResizeMode::cubic) {
                    Value inRange = arith::AndIOp::create(
                        b, l,
                        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge,
                                              raw, indexConstant(b, l, 0)),
                        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                              raw, indexConstant(b, l, n)));
                    w[k] = arith::SelectOp::create(b, l, inRange, w[k], c(0));
                    total = arith::AddFOp::create(b, l, total, w[k]);
                  }
                  positions[d].push_back(clampIndex(raw, n));
                }
                if (excludeOutside && mode == ResizeMode::cubic)
                  for (Value &weight : w)
                    weight = arith::DivFOp::create(b, l, weight, total);
                weights[d] = w;
              }
              // Sum over every combination of taps.
              Value sum = c(0);
              SmallVector<int64_t> choice(rank, 0);
              while (true) {
                SmallVector<Value> at;
                Value weight = c(1);
                for (int64_t d = 0; d < rank; ++d) {
                  at.push_back(positions[d][choice[d]]);
                  weight = arith::MulFOp::create(b, l, weight,
                                                 weights[d][choice[d]]);
                }
                sum = arith::AddFOp::create(
                    b, l, sum, arith::MulFOp::create(b, l, weight, read(at)));
                int64_t d = rank - 1;
                while (d >= 0 && ++choice[d] == int64_t(positions[d].size()))
                  choice[d--] = 0;
                if (d < 0)
                  break;
              }
              if (transform == CoordinateTransform::tf_crop_and_resize)
                sum = arith::SelectOp::create(b, l, outside, c(extrapolation),
                                              sum);
              return sum.getType() == element
                         ? sum
                         : Value(arith::TruncFOp::create(b, l, element, sum));
            }));
    return success();
  }
};

/// tile.weight has no lowering of its own: the pipeline turns weights into
/// function arguments first. A leftover one becomes a constant.
struct ConvertWeight : OpConversionPattern<WeightOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WeightOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return rewriter.notifyMatchFailure(op, "weights must be outlined first");
    RankedTensorType type = converted(getTypeConverter(), op.getType());
    if (dense.getElementType() != type.getElementType())
      dense = dense.bitcast(type.getElementType());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, dense);
    return success();
  }
};

} // namespace

void populateDataMovementPatterns(TypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<ConvertGather, ConvertGatherElements, ConvertGatherNd,
               ConvertScatterElements, ConvertScatterNd, ConvertSlice,
               ConvertConcat, ConvertSplit, ConvertPad, ConvertTranspose,
               ConvertReshape, ConvertExpand, ConvertTile, ConvertResize,
               ConvertWeight>(converter, patterns.getContext());
}

} // namespace aicc::tile_to_linalg
