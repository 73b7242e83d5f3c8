//===- ContractionUtils.cpp - Building blocks of contractions -------------===//
//
// What the shared matmul, convolution and pooling patterns and the
// targets' contraction strategies build with (TileToLinalg.h declares
// them).
//
//===----------------------------------------------------------------------===//

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::tile_to_linalg {

using utils::IteratorType;

namespace {
/// `x` widened to `type` (a scalar), as an integer contraction does.
Value widen(OpBuilder &b, Location loc, Value x, Type type, bool isUnsigned) {
  if (x.getType() == type)
    return x;
  if (isa<FloatType>(type))
    return arith::ExtFOp::create(b, loc, type, x);
  return isUnsigned ? Value(arith::ExtUIOp::create(b, loc, type, x))
                    : Value(arith::ExtSIOp::create(b, loc, type, x));
}
} // namespace

Value filled(OpBuilder &b, Location loc, RankedTensorType type, Value value,
             ValueRange like) {
  Value empty = emptyTensor(b, loc, type, like);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

/// acc + a * b with widening, for float and integer contractions.
Value multiplyAccumulate(OpBuilder &b, Location loc, Value x, Value y,
                         Value acc, bool xUnsigned, bool yUnsigned) {
  Type type = acc.getType();
  x = widen(b, loc, x, type, xUnsigned);
  y = widen(b, loc, y, type, yUnsigned);
  if (isa<FloatType>(type))
    return arith::AddFOp::create(b, loc, acc,
                                 arith::MulFOp::create(b, loc, x, y));
  return arith::AddIOp::create(b, loc, acc,
                               arith::MulIOp::create(b, loc, x, y));
}

/// A linalg.generic that copies `source` into `target`: the loops run over
/// `read`'s dimensions, reading the source through `read` and writing the
/// target through `write`.
Value copyThrough(OpBuilder &b, Location loc, Value source, Value target,
                  AffineMap read, AffineMap write) {
  return linalg::GenericOp::create(
             b, loc, target.getType(), ValueRange{source}, ValueRange{target},
             ArrayRef<AffineMap>{read, write},
             SmallVector<IteratorType>(read.getNumDims(),
                                       IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

SmallVector<int64_t> tapIndex(int64_t t, ArrayRef<int64_t> kernel) {
  SmallVector<int64_t> index(kernel.size());
  for (int64_t s = kernel.size() - 1, rest = t; s >= 0; --s) {
    index[s] = rest % kernel[s];
    rest /= kernel[s];
  }
  return index;
}

/// Pads `x` (N x C x spatial) by `low`/`high` per spatial dimension with
/// `value`.
Value padSpatial(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
                 ArrayRef<int64_t> high, Value value, bool channelsLast) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  // N x C x D... or N x D... x C.
  SmallVector<int64_t> lo(channelsLast ? 1 : 2, 0), hi(lo);
  llvm::append_range(lo, low);
  llvm::append_range(hi, high);
  if (channelsLast) {
    lo.push_back(0);
    hi.push_back(0);
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    shape.push_back(type.isDynamicDim(d) ? ShapedType::kDynamic
                                         : type.getDimSize(d) + lo[d] + hi[d]);
  auto padded = RankedTensorType::get(shape, type.getElementType());
  return tensor::PadOp::create(
      b, loc, padded, x, getAsIndexOpFoldResult(b.getContext(), lo),
      getAsIndexOpFoldResult(b.getContext(), hi), value);
}

/// `type` with dimension `dim` split into (groups, size / groups), and the
/// reassociation that merges it back.
ConvolutionSizes convolutionSizes(RankedTensorType inputType,
                                  RankedTensorType filterType,
                                  RankedTensorType resultType, int64_t groups) {
  ConvolutionSizes sizes;
  sizes.batch = resultType.getDimSize(0);
  sizes.channels = inputType.getDimSize(1) / groups;
  sizes.outChannels = resultType.getDimSize(1) / groups;
  sizes.kernel = filterType.getShape().drop_front(2);
  sizes.outSpatial = resultType.getShape().drop_front(2);
  sizes.taps = computeProduct(sizes.kernel);
  sizes.positions = computeProduct(sizes.outSpatial);
  sizes.reduction = sizes.channels * sizes.taps;
  return sizes;
}

RankedTensorType splitGroupsType(RankedTensorType type, int64_t dim,
                                 int64_t groups,
                                 SmallVector<ReassociationIndices> &merge) {
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t next = shape.size();
    if (d == dim) {
      shape.push_back(groups);
      shape.push_back(type.getDimSize(d) / groups);
      merge.push_back({next, next + 1});
    } else {
      shape.push_back(type.getDimSize(d));
      merge.push_back({next});
    }
  }
  return RankedTensorType::get(shape, type.getElementType());
}

/// Splits dimension `dim` of `x` into (groups, size / groups).
Value splitGroups(OpBuilder &b, Location loc, Value x, int64_t dim,
                  int64_t groups) {
  SmallVector<ReassociationIndices> reassociation;
  RankedTensorType type = splitGroupsType(cast<RankedTensorType>(x.getType()),
                                          dim, groups, reassociation);
  return tensor::ExpandShapeOp::create(b, loc, type, x, reassociation);
}

/// The element-wise sum over `taps` taps of tap input t times tap weight t
/// (`operands`: the tap inputs, then the weights, read through `maps`, the
/// output's last), floats: a depthwise convolution unrolled over its
/// window.
Value sumOfTapProducts(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange operands, ArrayRef<AffineMap> maps,
                       int64_t taps) {
  return linalg::GenericOp::create(
             b, loc, resultType, operands,
             ValueRange{emptyTensor(b, loc, resultType, {})}, maps,
             SmallVector<IteratorType>(resultType.getRank(),
                                       IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value sum = arith::MulFOp::create(nb, l, args[0], args[taps]);
               for (int64_t t = 1; t < taps; ++t)
                 sum = multiplyAccumulate(nb, l, args[t], args[taps + t], sum,
                                          false, false);
               linalg::YieldOp::create(nb, l, sum);
             })
      .getResult(0);
}

/// A generic that copies `source` into `target`, whose shape is the
/// source's with unit dimensions inserted at `unitDims`. Its output map is
/// not the identity, so that canonicalization keeps it as a linalg op that
/// the CPU target distributes among threads and vectorizes.
Value copyIntoUnitExpanded(OpBuilder &b, Location loc, Value source,
                           Value target, ArrayRef<int64_t> unitDims) {
  MLIRContext *context = b.getContext();
  auto targetType = cast<RankedTensorType>(target.getType());
  int64_t rank = cast<RankedTensorType>(source.getType()).getRank();
  SmallVector<AffineExpr> results;
  for (int64_t d = 0, next = 0; d < targetType.getRank(); ++d)
    results.push_back(llvm::is_contained(unitDims, d)
                          ? getAffineConstantExpr(0, context)
                          : getAffineDimExpr(next++, context));
  return copyThrough(b, loc, source, target,
                     AffineMap::getMultiDimIdentityMap(rank, context),
                     AffineMap::get(rank, 0, results, context));
}

/// Static slice helpers.
Value sliceOf(OpBuilder &b, Location loc, Value source,
              ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
              ArrayRef<int64_t> strides) {
  MLIRContext *context = b.getContext();
  SmallVector<int64_t> unit(offsets.size(), 1);
  auto sourceType = cast<RankedTensorType>(source.getType());
  auto type = RankedTensorType::get(sizes, sourceType.getElementType());
  return tensor::ExtractSliceOp::create(
      b, loc, type, source, getAsIndexOpFoldResult(context, offsets),
      getAsIndexOpFoldResult(context, sizes),
      getAsIndexOpFoldResult(context, strides.empty() ? unit : strides));
}

Value insertInto(OpBuilder &b, Location loc, Value source, Value dest,
                 ArrayRef<int64_t> offsets) {
  MLIRContext *context = b.getContext();
  SmallVector<int64_t> unit(offsets.size(), 1);
  auto sizes = cast<RankedTensorType>(source.getType()).getShape();
  return tensor::InsertSliceOp::create(b, loc, source, dest,
                                       getAsIndexOpFoldResult(context, offsets),
                                       getAsIndexOpFoldResult(context, sizes),
                                       getAsIndexOpFoldResult(context, unit));
}

ContractionStrategy::~ContractionStrategy() = default;

Value ContractionStrategy::product(OpBuilder &, Location, Value, Value,
                                   RankedTensorType, bool, bool, bool) const {
  return {};
}

Value ContractionStrategy::convolution(OpBuilder &, Location,
                                       const Convolution &) const {
  return {};
}

} // namespace aicc::tile_to_linalg
