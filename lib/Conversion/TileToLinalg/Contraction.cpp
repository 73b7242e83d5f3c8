//===- Contraction.cpp - Matmul, convolution and pooling to linalg --------===//

#include "TileToLinalg.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::tile_to_linalg {
namespace {

using utils::IteratorType;

/// A tensor of `type` filled with `value`.
Value filled(OpBuilder &b, Location loc, RankedTensorType type, Value value,
             ValueRange like = {}) {
  Value empty = emptyTensor(b, loc, type, like);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

/// `x` widened to `type` (a scalar), as an integer contraction does.
Value widen(OpBuilder &b, Location loc, Value x, Type type, bool isUnsigned) {
  if (x.getType() == type)
    return x;
  if (isa<FloatType>(type))
    return arith::ExtFOp::create(b, loc, type, x);
  return isUnsigned ? Value(arith::ExtUIOp::create(b, loc, type, x))
                    : Value(arith::ExtSIOp::create(b, loc, type, x));
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

/// The matrix product generic: `type` is the result, the operands' batch
/// dimensions broadcast numpy-style against it.
Value buildMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                  RankedTensorType type, bool transposeLhs, bool transposeRhs,
                  bool lhsUnsigned, bool rhsUnsigned) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  MLIRContext *context = b.getContext();
  int64_t batch = type.getRank() - 2;
  int64_t m = batch, n = batch + 1, k = batch + 2, dims = batch + 3;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  auto operandMap = [&](RankedTensorType t, bool transposed, bool isLhs) {
    SmallVector<AffineExpr> exprs;
    int64_t operandBatch = t.getRank() - 2;
    for (int64_t j = 0; j < operandBatch; ++j) {
      int64_t i = j + batch - operandBatch;
      bool broadcast = t.getDimSize(j) == 1 && type.getDimSize(i) != 1;
      exprs.push_back(broadcast ? getAffineConstantExpr(0, context) : d(i));
    }
    AffineExpr outer = d(isLhs ? m : n), contracted = d(k);
    if (isLhs == transposed) {
      exprs.push_back(contracted);
      exprs.push_back(outer);
    } else {
      exprs.push_back(outer);
      exprs.push_back(contracted);
    }
    return AffineMap::get(dims, 0, exprs, context);
  };
  SmallVector<AffineMap> maps = {
      operandMap(lhsType, transposeLhs, /*isLhs=*/true),
      operandMap(rhsType, transposeRhs, /*isLhs=*/false)};
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < batch + 2; ++i)
    outExprs.push_back(d(i));
  maps.push_back(AffineMap::get(dims, 0, outExprs, context));
  SmallVector<IteratorType> iterators(batch + 2, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);

  // The result's dynamic sizes: batch dimensions from whichever operand
  // has them unbroadcast, m and n from the operand that carries each.
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (!type.isDynamicDim(i))
      continue;
    auto sizeOf = [&](Value v, int64_t dim) -> Value {
      return tensor::DimOp::create(b, loc, v, dim);
    };
    if (i == m) {
      sizes.push_back(sizeOf(lhs, lhsType.getRank() - (transposeLhs ? 1 : 2)));
    } else if (i == n) {
      sizes.push_back(sizeOf(rhs, rhsType.getRank() - (transposeRhs ? 2 : 1)));
    } else {
      int64_t fromEnd = batch - i;
      auto carries = [&](RankedTensorType t) {
        int64_t j = t.getRank() - 2 - fromEnd;
        return j >= 0 && t.getDimSize(j) != 1 ? j : int64_t(-1);
      };
      int64_t j = carries(lhsType);
      sizes.push_back(j >= 0 ? sizeOf(lhs, j) : sizeOf(rhs, carries(rhsType)));
    }
  }
  ScalarBuilder scalar{b, loc};
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType(), sizes);
  Value init = linalg::FillOp::create(
                   b, loc, scalar.constant(type.getElementType(), 0), empty)
                   .getResult(0);
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{lhs, rhs}, init, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   nb, l,
                   multiplyAccumulate(nb, l, args[0], args[1], args[2],
                                      lhsUnsigned, rhsUnsigned));
             })
      .getResult(0);
}

/// `x` with its last two dimensions swapped.
Value transposeInner(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(permutation[rank - 1], permutation[rank - 2]);
  SmallVector<int64_t> shape;
  for (int64_t i : permutation)
    shape.push_back(type.getDimSize(i));
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<AffineExpr> read;
  for (int64_t i : permutation)
    read.push_back(getAffineDimExpr(i, b.getContext()));
  return copyThrough(b, loc, x, emptyTensor(b, loc, resultType, {}),
                     AffineMap::get(rank, 0, read, b.getContext()),
                     AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
}

/// The most window taps a depthwise convolution or a channels-last max
/// pooling is unrolled into (one operand per tap: 7x7).
constexpr int64_t kMaxTaps = 49;

/// The index along each spatial dimension of kernel tap `t` (row-major
/// over the kernel's extents).
SmallVector<int64_t> tapIndex(int64_t t, ArrayRef<int64_t> kernel) {
  SmallVector<int64_t> index(kernel.size());
  for (int64_t s = kernel.size() - 1, rest = t; s >= 0; --s) {
    index[s] = rest % kernel[s];
    rest /= kernel[s];
  }
  return index;
}

Value packPanels(OpBuilder &b, Location loc, Value matrix, int64_t panel);
Value sliceOf(OpBuilder &b, Location loc, Value source,
              ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
              ArrayRef<int64_t> strides = {});
Value panelProduct(OpBuilder &b, Location loc, Value weights, Value packed,
                   Type resultElement, bool packedUnsigned,
                   bool weightsUnsigned);

/// Matrix products in the form the CPU micro-kernel runs fastest, for
/// static shapes: a transposed operand is transposed once into a contiguous
/// copy (each of its elements is read M or N times by the product), and a
/// batch of products against one matrix is one taller product.
struct ConvertMatmul : OpConversionPattern<MatmulOp> {
  ConvertMatmul(TypeConverter &converter, MLIRContext *context, int64_t panel)
      : OpConversionPattern(converter, context), panel(panel) {}
  int64_t panel;

  /// [m, k] x [k, n]: the right-hand side packed into contiguous k x W
  /// panels, as convolutions do. Where n is not a multiple of W (a short
  /// product, see usePanels), the right-hand side is first padded with
  /// zero columns to one, and the product's extra columns are dropped.
  Value panelMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                    RankedTensorType type, bool rhsTransposed, bool lhsUnsigned,
                    bool rhsUnsigned) const {
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    Type element = rhsType.getElementType();
    int64_t rows = lhsType.getDimSize(0), inner = lhsType.getDimSize(1),
            wanted = type.getDimSize(1);
    int64_t columns = llvm::alignTo(wanted, panel);
    if (columns != wanted) {
      SmallVector<int64_t> high = {0, 0};
      high[rhsTransposed ? 0 : 1] = columns - wanted;
      SmallVector<int64_t> paddedShape(rhsType.getShape());
      paddedShape[rhsTransposed ? 0 : 1] = columns;
      Value zero = ScalarBuilder{b, loc}.constant(element, 0);
      rhs = tensor::PadOp::create(
          b, loc, RankedTensorType::get(paddedShape, element), rhs,
          getAsIndexOpFoldResult(b.getContext(), ArrayRef<int64_t>{0, 0}),
          getAsIndexOpFoldResult(b.getContext(), high), zero);
    }
    Value packed;
    if (rhsTransposed) {
      // [n, k] viewed as [1, 1, n / W, W, k], permuted to [.., k, W].
      MLIRContext *context = b.getContext();
      auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
      Value split = tensor::ExpandShapeOp::create(
          b, loc,
          RankedTensorType::get({1, 1, columns / panel, panel, inner}, element),
          rhs, SmallVector<ReassociationIndices>{{0, 1, 2, 3}, {4}});
      auto packedType =
          RankedTensorType::get({1, 1, columns / panel, inner, panel}, element);
      packed = copyThrough(
          b, loc, split, emptyTensor(b, loc, packedType, {}),
          AffineMap::get(5, 0, {d(0), d(1), d(2), d(4), d(3)}, context),
          AffineMap::getMultiDimIdentityMap(5, context));
    } else {
      Value rhs4 = tensor::ExpandShapeOp::create(
          b, loc, RankedTensorType::get({1, 1, inner, columns}, element), rhs,
          SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
      packed = packPanels(b, loc, rhs4, panel);
    }
    Value weights = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({1, rows, inner}, lhsType.getElementType()), lhs,
        SmallVector<ReassociationIndices>{{0, 1}, {2}});
    Value flat = panelProduct(b, loc, weights, packed, type.getElementType(),
                              rhsUnsigned, lhsUnsigned);
    Value product = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({rows, columns}, type.getElementType()),
        flat, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
    if (columns == wanted)
      return product;
    return sliceOf(b, loc, product, {0, 0}, {rows, wanted});
  }
  bool usePanels(RankedTensorType type) const {
    if (panel <= 0 || type.getRank() != 2 || !type.hasStaticShape() ||
        !isa<FloatType>(type.getElementType()))
      return false;
    int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
    // A short product (a matrix-vector product, say) streams its right-hand
    // side once: contiguous panels matter more there than the zero columns
    // that pad it to whole panels.
    constexpr int64_t kShortRows = 8;
    return (columns % panel == 0 || rows < kShortRows) &&
           columns >= 2 * panel && rows >= 1;
  }

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    bool transposeLhs = op.getTransposeLhs(),
         transposeRhs = op.getTransposeRhs();
    bool lhsUnsigned = isUnsigned(op.getLhs().getType().getElementType());
    bool rhsUnsigned = isUnsigned(op.getRhs().getType().getElementType());
    bool isStatic = type.hasStaticShape() && lhsType.hasStaticShape() &&
                    rhsType.hasStaticShape();
    if (!isStatic) {
      rewriter.replaceOp(op, buildMatmul(rewriter, loc, lhs, rhs, type,
                                         transposeLhs, transposeRhs,
                                         lhsUnsigned, rhsUnsigned));
      return success();
    }
    if (transposeLhs)
      lhs = transposeInner(rewriter, loc, lhs);
    lhsType = cast<RankedTensorType>(lhs.getType());
    int64_t batch = type.getRank() - 2;
    bool rhsIsMatrix = llvm::all_of(rhsType.getShape().drop_back(2),
                                    [](int64_t s) { return s == 1; });
    Value lhsMatrix = lhs, rhsMatrix = rhs;
    RankedTensorType productType = type;
    SmallVector<ReassociationIndices> toMatrix;
    if (batch > 0 && rhsIsMatrix && lhsType.getRank() == type.getRank()) {
      // [b..., m, k] x [k, n] = ([b... * m, k] x [k, n]) viewed as
      // [b..., m, n].
      int64_t rows = 1;
      for (int64_t s : type.getShape().drop_back())
        rows *= s;
      toMatrix = {llvm::to_vector(llvm::seq<int64_t>(0, batch + 1)),
                  {batch + 1}};
      lhsMatrix = tensor::CollapseShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({rows, lhsType.getShape().back()},
                                lhsType.getElementType()),
          lhs, toMatrix);
      if (rhsType.getRank() > 2)
        rhsMatrix = tensor::CollapseShapeOp::create(
            rewriter, loc, rhs,
            SmallVector<ReassociationIndices>{
                llvm::to_vector(llvm::seq<int64_t>(0, rhsType.getRank() - 1)),
                {rhsType.getRank() - 1}});
      productType = RankedTensorType::get({rows, type.getShape().back()},
                                          type.getElementType());
    }
    Value product;
    if (productType.getRank() == 2 && usePanels(productType)) {
      product = panelMatmul(rewriter, loc, lhsMatrix, rhsMatrix, productType,
                            transposeRhs, lhsUnsigned, rhsUnsigned);
    } else {
      if (transposeRhs)
        rhsMatrix = transposeInner(rewriter, loc, rhsMatrix);
      product = buildMatmul(rewriter, loc, lhsMatrix, rhsMatrix, productType,
                            false, false, lhsUnsigned, rhsUnsigned);
    }
    if (!toMatrix.empty())
      product =
          tensor::ExpandShapeOp::create(rewriter, loc, type, product, toMatrix);
    rewriter.replaceOp(op, product);
    return success();
  }
};

/// Pads `x` (N x C x spatial) by `low`/`high` per spatial dimension with
/// `value`.
Value padSpatial(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
                 ArrayRef<int64_t> high, Value value,
                 bool channelsLast = false) {
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

/// A grouped convolution as one multiply-accumulate generic (`maps`,
/// `iterators`): `input` split into groups along `inputChannels`, the
/// filter along its first dimension, into a zero-filled output whose
/// dimension `resultChannels` is split the same way and merged back into
/// `resultType`.
Value groupedConvolution(OpBuilder &b, Location loc, Value input, Value filter,
                         int64_t inputChannels, RankedTensorType resultType,
                         int64_t resultChannels, int64_t groups,
                         ArrayRef<AffineMap> maps,
                         ArrayRef<IteratorType> iterators, bool inputUnsigned,
                         bool filterUnsigned) {
  Value groupedInput = splitGroups(b, loc, input, inputChannels, groups);
  Value groupedFilter = splitGroups(b, loc, filter, 0, groups);
  SmallVector<ReassociationIndices> merge;
  RankedTensorType groupedType =
      splitGroupsType(resultType, resultChannels, groups, merge);
  ScalarBuilder scalar{b, loc};
  Value init = filled(b, loc, groupedType,
                      scalar.constant(resultType.getElementType(), 0));
  auto generic = linalg::GenericOp::create(
      b, loc, groupedType, ValueRange{groupedInput, groupedFilter}, init, maps,
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l,
                                multiplyAccumulate(nb, l, args[0], args[1],
                                                   args[2], inputUnsigned,
                                                   filterUnsigned));
      });
  return tensor::CollapseShapeOp::create(b, loc, resultType,
                                         generic.getResult(0), merge);
}

/// Grouped N-d convolution of an already padded input, no bias, as one
/// generic over (n, g, m, o..., c, k..., o_last): the reductions come before
/// the innermost output dimension, so that the innermost loop walks an
/// output row and vectorizes. The form for depthwise and other small-channel
/// convolutions, where a matrix product would be degenerate.
Value convolveDirect(OpBuilder &b, Location loc, Value input, Value filter,
                     RankedTensorType resultType, ArrayRef<int64_t> strides,
                     ArrayRef<int64_t> dilations, int64_t groups,
                     bool inputUnsigned, bool filterUnsigned) {
  MLIRContext *context = b.getContext();
  int64_t spatial = strides.size();
  int64_t dims = 3 + spatial + 1 + spatial;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  // Positions: n 0, g 1, m 2, o_0..o_{s-2} at 3.., c, k_0..k_{s-1}, o_{s-1}.
  auto outDim = [&](int64_t s) { return s + 1 < spatial ? 3 + s : dims - 1; };
  int64_t c = 3 + spatial - 1;
  auto kDim = [&](int64_t s) { return c + 1 + s; };
  SmallVector<AffineExpr> inputExprs = {d(0), d(1), d(c)};
  SmallVector<AffineExpr> filterExprs = {d(1), d(2), d(c)};
  SmallVector<AffineExpr> outputExprs = {d(0), d(1), d(2)};
  for (int64_t s = 0; s < spatial; ++s) {
    AffineExpr o = d(outDim(s)), k = d(kDim(s));
    inputExprs.push_back(o * strides[s] + k * dilations[s]);
    filterExprs.push_back(k);
    outputExprs.push_back(o);
  }
  SmallVector<AffineMap> maps = {AffineMap::get(dims, 0, inputExprs, context),
                                 AffineMap::get(dims, 0, filterExprs, context),
                                 AffineMap::get(dims, 0, outputExprs, context)};
  SmallVector<IteratorType> iterators(dims, IteratorType::reduction);
  for (int64_t i = 0; i < 3; ++i)
    iterators[i] = IteratorType::parallel;
  for (int64_t s = 0; s < spatial; ++s)
    iterators[outDim(s)] = IteratorType::parallel;

  return groupedConvolution(b, loc, input, filter, 1, resultType, 1, groups,
                            maps, iterators, inputUnsigned, filterUnsigned);
}

/// Grouped N-d convolution of an already padded channels-last input
/// (N x D... x C, filter M x K... x C/g), no bias, as one generic over
/// (n, o..., g, m, k..., c): the output's channels innermost among the
/// parallel loops, the input's channels innermost among the reductions, so
/// that both inputs are read along their last dimension (a product of
/// pixels and filters over (k..., c) on tensor cores; a depthwise
/// convolution's threads walk the channels).
Value convolveChannelsLast(OpBuilder &b, Location loc, Value input,
                           Value filter, RankedTensorType resultType,
                           ArrayRef<int64_t> strides,
                           ArrayRef<int64_t> dilations, int64_t groups,
                           bool inputUnsigned, bool filterUnsigned) {
  MLIRContext *context = b.getContext();
  int64_t spatial = strides.size();
  int64_t dims = 3 + 2 * spatial + 1;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  // Positions: n 0, o_s at 1 + s, g, m, k_s, c.
  int64_t g = 1 + spatial, m = g + 1, c = dims - 1;
  auto kDim = [&](int64_t s) { return m + 1 + s; };
  SmallVector<AffineExpr> inputExprs = {d(0)};
  SmallVector<AffineExpr> filterExprs = {d(g), d(m)};
  SmallVector<AffineExpr> outputExprs = {d(0)};
  for (int64_t s = 0; s < spatial; ++s) {
    AffineExpr o = d(1 + s), k = d(kDim(s));
    inputExprs.push_back(o * strides[s] + k * dilations[s]);
    filterExprs.push_back(k);
    outputExprs.push_back(o);
  }
  inputExprs.append({d(g), d(c)});
  filterExprs.push_back(d(c));
  outputExprs.append({d(g), d(m)});
  SmallVector<AffineMap> maps = {AffineMap::get(dims, 0, inputExprs, context),
                                 AffineMap::get(dims, 0, filterExprs, context),
                                 AffineMap::get(dims, 0, outputExprs, context)};
  SmallVector<IteratorType> iterators(dims, IteratorType::reduction);
  for (int64_t i = 0; i <= m; ++i)
    iterators[i] = IteratorType::parallel;

  int64_t last = resultType.getRank() - 1;
  return groupedConvolution(b, loc, input, filter, last, resultType, last,
                            groups, maps, iterators, inputUnsigned,
                            filterUnsigned);
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

/// Depthwise convolution (one input and one output channel per group) of
/// an already padded channels-last input as one element-wise op:
/// out[n, o..., c] = sum over taps t of x[n, o * s + t * d..., c] * w[c, t].
/// The input is read once per tap through a strided slice at the tap's
/// offsets, and the filter (C x K... x 1) through a map of the tap's
/// constants: no
/// reduction loop and no accumulator in memory, so that the ops after it
/// (bias, activation, cast) fuse into it like into any element-wise op.
Value convolveDepthwiseChannelsLast(OpBuilder &b, Location loc, Value padded,
                                    Value filter, RankedTensorType resultType,
                                    ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> dilations) {
  MLIRContext *context = b.getContext();
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t spatial = strides.size(), rank = resultType.getRank();
  ArrayRef<int64_t> kernel = filterType.getShape().slice(1, spatial);
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps *= k;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  auto constant = [&](int64_t v) { return getAffineConstantExpr(v, context); };
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<AffineMap> maps(taps, identity);
  SmallVector<Value> operands;
  for (int64_t t = 0; t < taps; ++t) {
    SmallVector<int64_t> tap = tapIndex(t, kernel);
    SmallVector<int64_t> offsets = {0}, steps = {1};
    SmallVector<AffineExpr> w = {d(rank - 1)};
    for (int64_t s = 0; s < spatial; ++s) {
      offsets.push_back(tap[s] * dilations[s]);
      steps.push_back(strides[s]);
      w.push_back(constant(tap[s]));
    }
    offsets.push_back(0);
    steps.push_back(1);
    w.push_back(constant(0));
    operands.push_back(
        sliceOf(b, loc, padded, offsets, resultType.getShape(), steps));
    maps.push_back(AffineMap::get(rank, 0, w, context));
  }
  maps.push_back(identity);
  operands.append(taps, filter);
  return sumOfTapProducts(b, loc, resultType, operands, maps, taps);
}

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

/// Grouped N-d convolution of an already padded input, no bias, as a
/// matrix product per image and group: the filter is an M x K matrix
/// (K = channels x kernel window) and the input is unfolded into K x P
/// patches (P = output positions; a 1x1 convolution with unit strides needs
/// no unfolding, its input already is that matrix). The product's output is
/// the convolution's, row-major, and the CPU target tiles it into its
/// micro-kernel.
/// The patches of a convolution as a [n, g, K, P] matrix: K runs over
/// (channel, kernel window), P over output positions. A 1x1 convolution with
/// unit strides is its input, reshaped; others unfold the input.
Value convolutionPatches(OpBuilder &b, Location loc, Value input,
                         RankedTensorType filterType,
                         RankedTensorType resultType, ArrayRef<int64_t> strides,
                         ArrayRef<int64_t> dilations, int64_t groups) {
  MLIRContext *context = b.getContext();
  int64_t spatial = strides.size();
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t batch = resultType.getDimSize(0);
  int64_t channels = inputType.getDimSize(1) / groups;
  ArrayRef<int64_t> kernel = filterType.getShape().drop_front(2);
  ArrayRef<int64_t> outSpatial = resultType.getShape().drop_front(2);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  Type inputElement = inputType.getElementType();

  // The patches: [batch, groups, channels, k..., o...], then [.., K, P].
  Value groupedInput = splitGroups(b, loc, input, 1, groups);
  bool pointwise = llvm::all_of(kernel, [](int64_t k) { return k == 1; }) &&
                   llvm::all_of(strides, [](int64_t s) { return s == 1; }) &&
                   llvm::equal(inputType.getShape().drop_front(2), outSpatial);
  Value patches;
  if (pointwise) {
    SmallVector<ReassociationIndices> merge = {{0}, {1}, {2}, {}};
    for (int64_t s = 0; s < spatial; ++s)
      merge.back().push_back(3 + s);
    patches = tensor::CollapseShapeOp::create(b, loc, groupedInput, merge);
  } else {
    // One copy per kernel tap: the input positions a tap reads are a
    // strided slice of the input, so each copy is a plain (vectorizable)
    // element-wise op into its rows of the [n, g, c, k..., o...] patches.
    SmallVector<int64_t> unfoldedShape = {batch, groups, channels};
    llvm::append_range(unfoldedShape, kernel);
    llvm::append_range(unfoldedShape, outSpatial);
    auto unfoldedType = RankedTensorType::get(unfoldedShape, inputElement);
    Value unfolded = emptyTensor(b, loc, unfoldedType, {});
    int64_t taps = 1;
    for (int64_t k : kernel)
      taps *= k;
    int64_t rank = unfoldedType.getRank();
    SmallVector<int64_t> tapShape = {batch, groups, channels};
    llvm::append_range(tapShape, outSpatial);
    auto tapType = RankedTensorType::get(tapShape, inputElement);
    for (int64_t t = 0; t < taps; ++t) {
      SmallVector<int64_t> tap = tapIndex(t, kernel);
      // The input positions o * stride + tap * dilation.
      SmallVector<OpFoldResult> offsets(3, b.getIndexAttr(0)), sizes,
          steps(3, b.getIndexAttr(1));
      sizes = {b.getIndexAttr(batch), b.getIndexAttr(groups),
               b.getIndexAttr(channels)};
      for (int64_t s = 0; s < spatial; ++s) {
        offsets.push_back(b.getIndexAttr(tap[s] * dilations[s]));
        sizes.push_back(b.getIndexAttr(outSpatial[s]));
        steps.push_back(b.getIndexAttr(strides[s]));
      }
      Value source = tensor::ExtractSliceOp::create(
          b, loc, tapType, groupedInput, offsets, sizes, steps);
      // Its place in the patches: [n, g, c, tap..., o...].
      SmallVector<OpFoldResult> at(rank, b.getIndexAttr(0)),
          extent(rank, b.getIndexAttr(1)), unit(rank, b.getIndexAttr(1));
      for (int64_t i = 0; i < 3; ++i)
        extent[i] = b.getIndexAttr(unfoldedShape[i]);
      for (int64_t s = 0; s < spatial; ++s) {
        at[3 + s] = b.getIndexAttr(tap[s]);
        extent[3 + spatial + s] = b.getIndexAttr(outSpatial[s]);
      }
      Value target = tensor::ExtractSliceOp::create(b, loc, tapType, unfolded,
                                                    at, extent, unit);
      AffineMap identity =
          AffineMap::getMultiDimIdentityMap(tapType.getRank(), context);
      Value copy = copyThrough(b, loc, source, target, identity, identity);
      unfolded = tensor::InsertSliceOp::create(b, loc, copy, unfolded, at,
                                               extent, unit);
    }
    SmallVector<ReassociationIndices> merge = {{0}, {1}, {}, {}};
    for (int64_t i = 0; i <= spatial; ++i)
      merge[2].push_back(2 + i);
    for (int64_t s = 0; s < spatial; ++s)
      merge[3].push_back(3 + spatial + s);
    patches = tensor::CollapseShapeOp::create(b, loc, unfolded, merge);
  }
  return patches;
}

Value convolveAsMatmul(OpBuilder &b, Location loc, Value input, Value filter,
                       RankedTensorType resultType, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> dilations, int64_t groups,
                       bool inputUnsigned, bool filterUnsigned) {
  MLIRContext *context = b.getContext();
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t batch = resultType.getDimSize(0);
  int64_t channels = inputType.getDimSize(1) / groups;
  int64_t outChannels = resultType.getDimSize(1) / groups;
  ArrayRef<int64_t> kernel = filterType.getShape().drop_front(2);
  ArrayRef<int64_t> outSpatial = resultType.getShape().drop_front(2);
  int64_t window = 1, positions = 1;
  for (int64_t k : kernel)
    window *= k;
  for (int64_t o : outSpatial)
    positions *= o;
  int64_t reduction = channels * window;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  Type inputElement = inputType.getElementType();

  Value patches = convolutionPatches(b, loc, input, filterType, resultType,
                                     strides, dilations, groups);

  // The filter as [groups, M, K].
  Value matrix =
      reshapeTensor(b, loc, filter,
                    RankedTensorType::get({groups, outChannels, reduction},
                                          filterType.getElementType()));

  // out[n, g, m, p] += filter[g, m, k] * patches[n, g, k, p]
  auto productType = RankedTensorType::get(
      {batch, groups, outChannels, positions}, resultType.getElementType());
  SmallVector<AffineMap> maps = {
      AffineMap::get(5, 0, {d(1), d(2), d(4)}, context),
      AffineMap::get(5, 0, {d(0), d(1), d(4), d(3)}, context),
      AffineMap::get(5, 0, {d(0), d(1), d(2), d(3)}, context)};
  SmallVector<IteratorType> iterators(4, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  ScalarBuilder scalar{b, loc};
  Value init = filled(b, loc, productType,
                      scalar.constant(resultType.getElementType(), 0));
  auto product = linalg::GenericOp::create(
      b, loc, productType, ValueRange{matrix, patches}, init, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l,
                                multiplyAccumulate(nb, l, args[1], args[0],
                                                   args[2], inputUnsigned,
                                                   filterUnsigned));
      });
  return reshapeTensor(b, loc, product.getResult(0), resultType);
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

/// Per kernel tap: its index along each spatial dimension, and the output
/// positions (first, count) whose input position
/// o * stride + tap * dilation - padding lies inside the input.
struct Tap {
  SmallVector<int64_t> index, first, count;
};
struct TapRanges {
  SmallVector<Tap> taps;
  /// Some tap misses some output position: the patches need zeros there.
  bool needsFill = false;
  /// One tap reading the input as it is (1x1, unit stride, no padding).
  bool identity = false;
};
TapRanges tapRangesOf(ArrayRef<int64_t> inSpatial, ArrayRef<int64_t> kernel,
                      ArrayRef<int64_t> outSpatial, ArrayRef<int64_t> strides,
                      ArrayRef<int64_t> dilations, ArrayRef<int64_t> padding) {
  int64_t spatial = strides.size();
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps *= k;
  TapRanges ranges;
  ranges.identity = taps == 1;
  for (int64_t t = 0; t < taps; ++t) {
    Tap tap;
    tap.index = tapIndex(t, kernel);
    for (int64_t s = 0; s < spatial; ++s) {
      int64_t shift = tap.index[s] * dilations[s] - padding[s];
      int64_t lo = shift >= 0 ? 0 : (-shift + strides[s] - 1) / strides[s];
      int64_t last = inSpatial[s] - 1 - shift;
      int64_t hi =
          last >= 0 ? std::min(last / strides[s], outSpatial[s] - 1) : -1;
      tap.first.push_back(lo);
      tap.count.push_back(std::max<int64_t>(hi - lo + 1, 0));
      ranges.needsFill |= tap.count.back() != outSpatial[s];
      ranges.identity &=
          strides[s] == 1 && shift == 0 && inSpatial[s] == outSpatial[s];
    }
    ranges.taps.push_back(std::move(tap));
  }
  return ranges;
}

/// The patches of a grouped N-d convolution as a matrix [n, g, c * taps, P]
/// (P output positions): zero-filled where padding needs it, then written
/// by one copy per kernel tap from the strided slice of the unpadded input
/// that the tap reads, so that the padded input is never built. Every
/// value in the chain is a slice of one buffer, so bufferization writes the
/// patches in place. A 1x1 unit-stride convolution's patches are its input.
Value panelPatches(OpBuilder &b, Location loc, Value groupedInput,
                   ArrayRef<int64_t> kernel, ArrayRef<int64_t> outSpatial,
                   ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                   ArrayRef<int64_t> padding) {
  auto inputType = cast<RankedTensorType>(groupedInput.getType());
  Type element = inputType.getElementType();
  int64_t spatial = strides.size();
  int64_t batch = inputType.getDimSize(0), groups = inputType.getDimSize(1),
          channels = inputType.getDimSize(2);
  ArrayRef<int64_t> inSpatial = inputType.getShape().drop_front(3);
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps *= k;
  SmallVector<ReassociationIndices> toMatrix = {{0}, {1}, {2, 3}, {}};
  for (int64_t s = 0; s < spatial; ++s)
    toMatrix[3].push_back(4 + s);

  TapRanges ranges =
      tapRangesOf(inSpatial, kernel, outSpatial, strides, dilations, padding);
  ArrayRef<Tap> tapRanges = ranges.taps;
  bool needsFill = ranges.needsFill;
  if (ranges.identity) {
    SmallVector<ReassociationIndices> flat = {{0}, {1}, {2}, {}};
    for (int64_t s = 0; s < spatial; ++s)
      flat[3].push_back(3 + s);
    return tensor::CollapseShapeOp::create(b, loc, groupedInput, flat);
  }

  SmallVector<int64_t> patchShape = {batch, groups, channels, taps};
  llvm::append_range(patchShape, outSpatial);
  Value patches =
      emptyTensor(b, loc, RankedTensorType::get(patchShape, element), {});
  if (!needsFill) {
    // Every tap reads inside the input: one copy over [n, g, c, k..., o...]
    // reading input[n, g, c, o * stride + k * dilation - padding].
    MLIRContext *context = b.getContext();
    int64_t loops = 3 + 2 * spatial;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
    SmallVector<AffineExpr> read = {d(0), d(1), d(2)};
    for (int64_t s = 0; s < spatial; ++s)
      read.push_back(d(3 + spatial + s) * strides[s] + d(3 + s) * dilations[s] -
                     padding[s]);
    SmallVector<int64_t> unfolded = {batch, groups, channels};
    llvm::append_range(unfolded, kernel);
    llvm::append_range(unfolded, outSpatial);
    auto unfoldedType = RankedTensorType::get(unfolded, element);
    SmallVector<ReassociationIndices> tapDims = {{0}, {1}, {2}, {}};
    for (int64_t s = 0; s < spatial; ++s)
      tapDims[3].push_back(3 + s);
    for (int64_t s = 0; s < spatial; ++s)
      tapDims.push_back({3 + spatial + s});
    Value target =
        tensor::ExpandShapeOp::create(b, loc, unfoldedType, patches, tapDims);
    Value unfoldedPatches = copyThrough(
        b, loc, groupedInput, target, AffineMap::get(loops, 0, read, context),
        AffineMap::getMultiDimIdentityMap(loops, context));
    patches = tensor::CollapseShapeOp::create(b, loc, patches.getType(),
                                              unfoldedPatches, tapDims);
    return tensor::CollapseShapeOp::create(b, loc, patches, toMatrix);
  }
  if (needsFill)
    patches = linalg::FillOp::create(
                  b, loc, ScalarBuilder{b, loc}.constant(element, 0), patches)
                  .getResult(0);
  for (int64_t t = 0; t < taps; ++t) {
    const Tap &tap = tapRanges[t];
    if (llvm::is_contained(tap.count, 0))
      continue;
    SmallVector<int64_t> srcOffsets = {0, 0, 0},
                         sizes = {batch, groups, channels}, steps = {1, 1, 1};
    SmallVector<int64_t> dstOffsets = {0, 0, 0, t},
                         dstSizes = {batch, groups, channels, 1};
    for (int64_t s = 0; s < spatial; ++s) {
      srcOffsets.push_back(tap.first[s] * strides[s] +
                           tap.index[s] * dilations[s] - padding[s]);
      sizes.push_back(tap.count[s]);
      steps.push_back(strides[s]);
      dstOffsets.push_back(tap.first[s]);
      dstSizes.push_back(tap.count[s]);
    }
    Value source = sliceOf(b, loc, groupedInput, srcOffsets, sizes, steps);
    Value target = sliceOf(b, loc, patches, dstOffsets, dstSizes);
    Value copied = copyIntoUnitExpanded(b, loc, source, target, {3});
    patches = insertInto(b, loc, copied, patches, dstOffsets);
  }
  return tensor::CollapseShapeOp::create(b, loc, patches, toMatrix);
}

/// Packs the patch matrix [n, g, K, P] into panels [n, g, P'/W, K, W] (P'
/// = P rounded up to whole panels of W): the whole panels by one transposing
/// copy, the partial last panel, zero-padded, by another.
Value packPanels(OpBuilder &b, Location loc, Value matrix, int64_t panel) {
  MLIRContext *context = b.getContext();
  auto type = cast<RankedTensorType>(matrix.getType());
  Type element = type.getElementType();
  int64_t batch = type.getDimSize(0), groups = type.getDimSize(1),
          reduction = type.getDimSize(2), positions = type.getDimSize(3);
  int64_t full = positions / panel, rest = positions % panel;
  int64_t panels = full + (rest != 0);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  Value packed = emptyTensor(
      b, loc,
      RankedTensorType::get({batch, groups, panels, reduction, panel}, element),
      {});
  if (full > 0) {
    Value whole = rest == 0 ? matrix
                            : sliceOf(b, loc, matrix, {0, 0, 0, 0},
                                      {batch, groups, reduction, full * panel});
    Value split = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({batch, groups, reduction, full, panel}, element),
        whole, SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
    Value target = rest == 0 ? packed
                             : sliceOf(b, loc, packed, {0, 0, 0, 0, 0},
                                       {batch, groups, full, reduction, panel});
    Value moved = copyThrough(
        b, loc, split, target,
        AffineMap::get(5, 0, {d(0), d(1), d(3), d(2), d(4)}, context),
        AffineMap::getMultiDimIdentityMap(5, context));
    packed =
        rest == 0 ? moved : insertInto(b, loc, moved, packed, {0, 0, 0, 0, 0});
  }
  if (rest != 0) {
    SmallVector<int64_t> tailOffsets = {0, 0, full, 0, 0};
    Value tail = sliceOf(b, loc, packed, tailOffsets,
                         {batch, groups, 1, reduction, panel});
    tail = linalg::FillOp::create(
               b, loc, ScalarBuilder{b, loc}.constant(element, 0), tail)
               .getResult(0);
    Value source = sliceOf(b, loc, matrix, {0, 0, 0, full * panel},
                           {batch, groups, reduction, rest});
    Value target = sliceOf(b, loc, tail, {0, 0, 0, 0, 0},
                           {batch, groups, 1, reduction, rest});
    Value copied = copyIntoUnitExpanded(b, loc, source, target, {2});
    tail = insertInto(b, loc, copied, tail, {0, 0, 0, 0, 0});
    packed = insertInto(b, loc, tail, packed, tailOffsets);
  }
  return packed;
}

/// out[n, g, m, q * W + w] = sum_k weights[g, m, k] * packed[n, g, q, k, w]:
/// the product the CPU micro-kernel computes one contiguous K x W panel of
/// `packed` at a time, as [n, g, M, Q * W].
Value panelProduct(OpBuilder &b, Location loc, Value weights, Value packed,
                   Type resultElement, bool packedUnsigned,
                   bool weightsUnsigned) {
  MLIRContext *context = b.getContext();
  auto weightsType = cast<RankedTensorType>(weights.getType());
  auto packedType = cast<RankedTensorType>(packed.getType());
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  int64_t batch = packedType.getDimSize(0), groups = packedType.getDimSize(1),
          panels = packedType.getDimSize(2), panel = packedType.getDimSize(4);
  int64_t rows = weightsType.getDimSize(1);
  auto productType = RankedTensorType::get({batch, groups, rows, panels, panel},
                                           resultElement);
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0, {d(1), d(2), d(5)}, context),
      AffineMap::get(6, 0, {d(0), d(1), d(3), d(5), d(4)}, context),
      AffineMap::get(6, 0, {d(0), d(1), d(2), d(3), d(4)}, context)};
  SmallVector<IteratorType> iterators(5, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  ScalarBuilder scalar{b, loc};
  Value init = filled(b, loc, productType, scalar.constant(resultElement, 0));
  auto product = linalg::GenericOp::create(
      b, loc, productType, ValueRange{weights, packed}, init, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l,
                                multiplyAccumulate(nb, l, args[1], args[0],
                                                   args[2], packedUnsigned,
                                                   weightsUnsigned));
      });
  return tensor::CollapseShapeOp::create(
      b, loc, product.getResult(0),
      SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
}

/// Grouped N-d convolution, no bias, as a matrix product whose right-hand
/// side is packed into panels of `panel` output positions:
///
/// 1. the patch matrix [n, g, K, P] (K = c * taps), see panelPatches;
/// 2. packed into panels [n, g, P'/W, K, W], see packPanels;
/// 3. the product [n, g, M, P'/W, W] is computed by the CPU micro-kernel
///    one contiguous K x W panel at a time; its first P positions, viewed
///    as [n, g * M, o...], are the result (a view: no copy).
Value convolveAsPanels(OpBuilder &b, Location loc, Value input, Value filter,
                       RankedTensorType resultType, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> dilations, ArrayRef<int64_t> padding,
                       int64_t groups, int64_t panel, bool inputUnsigned,
                       bool filterUnsigned) {
  MLIRContext *context = b.getContext();
  int64_t spatial = strides.size();
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t batch = resultType.getDimSize(0);
  int64_t channels = inputType.getDimSize(1) / groups;
  int64_t outChannels = resultType.getDimSize(1) / groups;
  ArrayRef<int64_t> kernel = filterType.getShape().drop_front(2);
  ArrayRef<int64_t> outSpatial = resultType.getShape().drop_front(2);
  int64_t taps = 1, positions = 1;
  for (int64_t k : kernel)
    taps *= k;
  for (int64_t o : outSpatial)
    positions *= o;
  int64_t reduction = channels * taps;
  int64_t panels = (positions + panel - 1) / panel;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };

  Value groupedInput = splitGroups(b, loc, input, 1, groups);
  Value matrix = panelPatches(b, loc, groupedInput, kernel, outSpatial, strides,
                              dilations, padding);
  Value packed = packPanels(b, loc, matrix, panel);

  Value weights =
      reshapeTensor(b, loc, filter,
                    RankedTensorType::get({groups, outChannels, reduction},
                                          filterType.getElementType()));
  Value flat =
      panelProduct(b, loc, weights, packed, resultType.getElementType(),
                   inputUnsigned, filterUnsigned);
  if (panels * panel != positions)
    flat = sliceOf(b, loc, flat, {0, 0, 0, 0},
                   {batch, groups, outChannels, positions});
  // [n, g, m, P] -> [n, g, m, o...] -> [n, g * m, o...]: both views of a
  // buffer whose positions are contiguous.
  SmallVector<int64_t> unflatShape = {batch, groups, outChannels};
  llvm::append_range(unflatShape, outSpatial);
  SmallVector<ReassociationIndices> unflat = {{0}, {1}, {2}, {}};
  SmallVector<ReassociationIndices> merge = {{0}, {1, 2}};
  for (int64_t s = 0; s < spatial; ++s) {
    unflat[3].push_back(3 + s);
    merge.push_back({3 + s});
  }
  Value spatialResult = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(unflatShape, resultType.getElementType()),
      flat, unflat);
  return tensor::CollapseShapeOp::create(b, loc, resultType, spatialResult,
                                         merge);
}

/// Depthwise convolution (one input and one output channel per group) of
/// an already padded input as one element-wise op: out[n, c, o...] =
/// sum over taps t of x_t[n, c, o...] * w_t[c], where x_t is the strided
/// slice of the input that tap t reads and w_t the tap's column of the
/// filter. Every operand walks the output's innermost dimension, so the CPU
/// target vectorizes it along output rows like any element-wise op.
///
/// A stride s > 1 along the innermost dimension would make every tap read
/// every s-th element. The input is first split once into its s phases
/// (columns p, p + s, p + 2s, ... as one contiguous tensor each); a tap at
/// column offset k then reads phase k mod s from column k / s onwards,
/// contiguous again.
Value convolveDepthwiseTaps(OpBuilder &b, Location loc, Value padded,
                            Value filter, RankedTensorType resultType,
                            ArrayRef<int64_t> strides,
                            ArrayRef<int64_t> dilations) {
  auto filterType = cast<RankedTensorType>(filter.getType());
  auto paddedType = cast<RankedTensorType>(padded.getType());
  int64_t spatial = strides.size(), rank = resultType.getRank();
  int64_t batch = resultType.getDimSize(0), channels = resultType.getDimSize(1);
  ArrayRef<int64_t> kernel = filterType.getShape().drop_front(2);
  ArrayRef<int64_t> outSpatial = resultType.getShape().drop_front(2);
  int64_t step = strides.back();
  int64_t columns = paddedType.getShape().back();
  // The phases of the innermost dimension, built when a tap first needs
  // one; with unit stride the only phase is the input itself.
  SmallVector<Value> phases(step);
  if (step == 1)
    phases[0] = padded;
  auto phase = [&](int64_t p) {
    if (phases[p])
      return phases[p];
    // Read through (..., w) -> (..., w * step + p) rather than copy a
    // strided slice: an identity copy would fold back into the slice.
    SmallVector<int64_t> sizes(paddedType.getShape());
    sizes.back() = llvm::divideCeil(columns - p, step);
    auto type = RankedTensorType::get(sizes, paddedType.getElementType());
    MLIRContext *context = b.getContext();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
    AffineMap read = identity.replace(
        getAffineDimExpr(rank - 1, context),
        getAffineDimExpr(rank - 1, context) * step + p, rank, 0);
    phases[p] = copyThrough(b, loc, padded, emptyTensor(b, loc, type, {}), read,
                            identity);
    return phases[p];
  };
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps *= k;
  SmallVector<Value> operands;
  SmallVector<Value> weights;
  SmallVector<ReassociationIndices> toColumn = {{0, 1}};
  for (int64_t s = 0; s < spatial; ++s)
    toColumn[0].push_back(2 + s);
  for (int64_t t = 0; t < taps; ++t) {
    SmallVector<int64_t> tap = tapIndex(t, kernel);
    SmallVector<int64_t> offsets = {0, 0}, sizes = {batch, channels},
                         steps = {1, 1};
    SmallVector<int64_t> filterOffsets = {0, 0}, filterSizes = {channels, 1};
    for (int64_t s = 0; s < spatial; ++s) {
      offsets.push_back(tap[s] * dilations[s]);
      sizes.push_back(outSpatial[s]);
      steps.push_back(strides[s]);
      filterOffsets.push_back(tap[s]);
      filterSizes.push_back(1);
    }
    int64_t first = offsets.back();
    offsets.back() = first / step;
    steps.back() = 1;
    operands.push_back(
        sliceOf(b, loc, phase(first % step), offsets, sizes, steps));
    Value column = sliceOf(b, loc, filter, filterOffsets, filterSizes);
    weights.push_back(tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({channels}, filterType.getElementType()),
        column, toColumn));
  }
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps(taps,
                              AffineMap::getMultiDimIdentityMap(rank, context));
  maps.append(taps,
              AffineMap::get(rank, 0, {getAffineDimExpr(1, context)}, context));
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
  llvm::append_range(operands, weights);
  return sumOfTapProducts(b, loc, resultType, operands, maps, taps);
}

/// A convolution of an unpadded input in the form that suits it: packed
/// panels for the CPU micro-kernel (`panel` > 0), a plain matrix product
/// otherwise, and the direct form where each group has a single input or
/// output channel (depthwise), where a product would be degenerate.
/// `padding` holds the low then the high padding of each spatial dimension.
Value convolve(OpBuilder &b, Location loc, Value input, Value filter,
               RankedTensorType resultType, ArrayRef<int64_t> strides,
               ArrayRef<int64_t> dilations, ArrayRef<int64_t> padding,
               int64_t groups, const ConvLowering &lowering, bool inputUnsigned,
               bool filterUnsigned, bool channelsLast = false) {
  if (channelsLast) {
    int64_t spatial = strides.size();
    Value zero = ScalarBuilder{b, loc}.constant(
        cast<RankedTensorType>(input.getType()).getElementType(), 0);
    Value padded =
        padSpatial(b, loc, input, padding.take_front(spatial),
                   padding.drop_front(spatial), zero, /*channelsLast=*/true);
    auto filterType = cast<RankedTensorType>(filter.getType());
    int64_t taps = filterType.getNumElements() / filterType.getDimSize(0);
    bool depthwise = groups > 1 && filterType.getDimSize(0) == groups &&
                     filterType.getShape().back() == 1;
    Type element = resultType.getElementType();
    if (depthwise && taps <= kMaxTaps && isa<FloatType>(element) &&
        element == cast<RankedTensorType>(input.getType()).getElementType() &&
        element == filterType.getElementType())
      return convolveDepthwiseChannelsLast(b, loc, padded, filter, resultType,
                                           strides, dilations);
    return convolveChannelsLast(b, loc, padded, filter, resultType, strides,
                                dilations, groups, inputUnsigned,
                                filterUnsigned);
  }
  int64_t panel = lowering.panel;
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t spatial = strides.size();
  int64_t channels = inputType.getDimSize(1) / groups;
  int64_t outChannels = resultType.getDimSize(1) / groups;
  bool degenerate = channels == 1 || outChannels == 1;
  bool isStatic = resultType.hasStaticShape() && inputType.hasStaticShape();
  if (panel > 0 && !degenerate && isStatic)
    return convolveAsPanels(b, loc, input, filter, resultType, strides,
                            dilations, padding, groups, panel, inputUnsigned,
                            filterUnsigned);
  Value zero = ScalarBuilder{b, loc}.constant(inputType.getElementType(), 0);
  Value padded = padSpatial(b, loc, input, padding.take_front(spatial),
                            padding.drop_front(spatial), zero);
  bool depthwise = channels == 1 && outChannels == 1 && groups > 1;
  int64_t taps = 1;
  for (int64_t k :
       cast<RankedTensorType>(filter.getType()).getShape().drop_front(2))
    taps *= k;
  if (panel > 0 && depthwise && isStatic && taps <= kMaxTaps &&
      isa<FloatType>(resultType.getElementType()) &&
      resultType.getElementType() == inputType.getElementType() &&
      resultType.getElementType() ==
          cast<RankedTensorType>(filter.getType()).getElementType())
    return convolveDepthwiseTaps(b, loc, padded, filter, resultType, strides,
                                 dilations);
  if (lowering.direct || degenerate || !isStatic)
    return convolveDirect(b, loc, padded, filter, resultType, strides,
                          dilations, groups, inputUnsigned, filterUnsigned);
  return convolveAsMatmul(b, loc, padded, filter, resultType, strides,
                          dilations, groups, inputUnsigned, filterUnsigned);
}

/// Adds a per-channel bias to an N x M x spatial result (or N x spatial x
/// M, `channelsLast`, where the bias broadcasts as it is).
Value addBias(OpBuilder &b, Location loc, Value result, Value bias,
              bool channelsLast = false) {
  if (!bias)
    return result;
  auto type = cast<RankedTensorType>(result.getType());
  Value shaped = bias;
  if (!channelsLast) {
    SmallVector<int64_t> shape(type.getRank() - 1, 1);
    shape[0] = type.getDimSize(1);
    shaped = reshapeTensor(b, loc, bias,
                           RankedTensorType::get(shape, type.getElementType()));
  }
  return buildElementwise(b, loc, type, {result, shaped},
                          [&](OpBuilder &nb, Location l, ValueRange args) {
                            return ScalarBuilder{nb, l}.binary(
                                BinaryKind::add, args[0], args[1],
                                type.getElementType());
                          });
}

struct ConvertConv : OpConversionPattern<ConvOp> {
  ConvertConv(TypeConverter &converter, MLIRContext *context,
              ConvLowering lowering)
      : OpConversionPattern(converter, context), lowering(lowering) {}
  ConvLowering lowering;
  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    if (!type.hasStaticShape() ||
        !cast<RankedTensorType>(adaptor.getInput().getType()).hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Location loc = op.getLoc();
    Value result = convolve(
        rewriter, loc, adaptor.getInput(), adaptor.getFilter(), type,
        op.getStrides(), op.getDilations(), op.getPadding(), op.getGroups(),
        lowering, isUnsigned(op.getInput().getType().getElementType()),
        isUnsigned(op.getFilter().getType().getElementType()),
        op.getChannelsLast());
    rewriter.replaceOp(op, addBias(rewriter, loc, result, adaptor.getBias(),
                                   op.getChannelsLast()));
    return success();
  }
};

struct ConvertConvTranspose : OpConversionPattern<ConvTransposeOp> {
  ConvertConvTranspose(TypeConverter &converter, MLIRContext *context,
                       ConvLowering lowering)
      : OpConversionPattern(converter, context), lowering(lowering) {}
  ConvLowering lowering;
  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto filterType = cast<RankedTensorType>(adaptor.getFilter().getType());
    if (!type.hasStaticShape() || !inputType.hasStaticShape() ||
        !filterType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    int64_t spatial = op.getStrides().size();
    int64_t groups = op.getGroups();
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> outputPadding = op.getOutputPadding();
    Type element = inputType.getElementType();
    ScalarBuilder scalar{rewriter, loc};
    Value zero = scalar.constant(element, 0);

    // 1. Insert stride - 1 zeros between input elements.
    Value x = adaptor.getInput();
    if (llvm::any_of(strides, [](int64_t s) { return s > 1; })) {
      SmallVector<int64_t> shape(inputType.getShape().take_front(2));
      for (int64_t s = 0; s < spatial; ++s)
        shape.push_back((inputType.getDimSize(s + 2) - 1) * strides[s] + 1);
      auto dilatedType = RankedTensorType::get(shape, element);
      Value base = filled(rewriter, loc, dilatedType, zero);
      SmallVector<int64_t> offsets(shape.size(), 0), steps = {1, 1};
      llvm::append_range(steps, strides);
      x = tensor::InsertSliceOp::create(
          rewriter, loc, x, base, getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, inputType.getShape()),
          getAsIndexOpFoldResult(context, steps));
    }
    // 2. Pad by dilation * (K - 1) minus the convolution's own padding, plus
    //    the output padding at the end; negative amounts crop.
    SmallVector<int64_t> low, high, cropLow, cropHigh;
    for (int64_t s = 0; s < spatial; ++s) {
      int64_t full = dilations[s] * (filterType.getDimSize(s + 2) - 1);
      int64_t lo = full - padding[s];
      int64_t hi = full - padding[s + spatial] + outputPadding[s];
      low.push_back(std::max<int64_t>(lo, 0));
      high.push_back(std::max<int64_t>(hi, 0));
      cropLow.push_back(std::max<int64_t>(-lo, 0));
      cropHigh.push_back(std::max<int64_t>(-hi, 0));
    }
    x = padSpatial(rewriter, loc, x, low, high, zero);
    if (llvm::any_of(cropLow, [](int64_t c) { return c > 0; }) ||
        llvm::any_of(cropHigh, [](int64_t c) { return c > 0; })) {
      auto paddedType = cast<RankedTensorType>(x.getType());
      SmallVector<int64_t> offsets = {0, 0}, sizes(paddedType.getShape()),
                           steps(paddedType.getRank(), 1);
      for (int64_t s = 0; s < spatial; ++s) {
        offsets.push_back(cropLow[s]);
        sizes[s + 2] -= cropLow[s] + cropHigh[s];
      }
      x = tensor::ExtractSliceOp::create(
          rewriter, loc, x, getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, sizes),
          getAsIndexOpFoldResult(context, steps));
    }
    // 3. The equivalent convolution's filter: C x M/G x K... becomes
    //    M x C/G x K..., spatially flipped, group by group.
    int64_t channels = filterType.getDimSize(0);
    int64_t perGroupOut = filterType.getDimSize(1);
    Value groupedW = splitGroups(rewriter, loc, adaptor.getFilter(), 0,
                                 groups); // G x C/G x M/G x K...
    SmallVector<int64_t> newShape = {groups, perGroupOut, channels / groups};
    llvm::append_range(newShape, filterType.getShape().drop_front(2));
    int64_t dims = 3 + spatial;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
    SmallVector<AffineExpr> readExprs = {d(0), d(2), d(1)};
    for (int64_t s = 0; s < spatial; ++s)
      readExprs.push_back(filterType.getDimSize(s + 2) - 1 - d(3 + s));
    Value flip =
        copyThrough(rewriter, loc, groupedW,
                    tensor::EmptyOp::create(rewriter, loc, newShape, element),
                    AffineMap::get(dims, 0, readExprs, context),
                    AffineMap::getMultiDimIdentityMap(dims, context));
    SmallVector<ReassociationIndices> merge = {{0, 1}, {2}};
    for (int64_t s = 0; s < spatial; ++s)
      merge.push_back({3 + s});
    SmallVector<int64_t> filterShape = {groups * perGroupOut,
                                        channels / groups};
    llvm::append_range(filterShape, filterType.getShape().drop_front(2));
    Value filter = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get(filterShape, element), flip,
        merge);
    // 4. A stride-1 convolution with the same dilation.
    SmallVector<int64_t> ones(spatial, 1);
    Value result =
        convolve(rewriter, loc, x, filter, type, ones, dilations,
                 SmallVector<int64_t>(2 * spatial, 0), groups, lowering,
                 isUnsigned(op.getInput().getType().getElementType()),
                 isUnsigned(op.getFilter().getType().getElementType()));
    rewriter.replaceOp(op, addBias(rewriter, loc, result, adaptor.getBias()));
    return success();
  }
};

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

void populateContractionPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 ConvLowering conv) {
  patterns.add<ConvertPool>(converter, patterns.getContext());
  patterns.add<ConvertMatmul>(converter, patterns.getContext(), conv.panel);
  patterns.add<ConvertConv, ConvertConvTranspose>(converter,
                                                  patterns.getContext(), conv);
}

} // namespace aicc::tile_to_linalg
