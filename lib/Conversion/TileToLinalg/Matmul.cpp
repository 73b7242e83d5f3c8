//===- Matmul.cpp - Matrix products to linalg -----------------------------===//

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

#include "Tile/Transforms/Groups.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::tile_to_linalg {
namespace {

using utils::IteratorType;

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

/// Matrix products, for static shapes: a transposed operand is transposed
/// once into a contiguous copy (each of its elements is read M or N times
/// by the product), and a batch of products against one matrix is one
/// taller product, in the strategy's form where it has one.
struct ConvertMatmul : OpConversionPattern<MatmulOp> {
  ConvertMatmul(TypeConverter &converter, MLIRContext *context,
                const ContractionStrategy *strategy)
      : OpConversionPattern(converter, context), strategy(strategy) {}
  const ContractionStrategy *strategy;

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
    // The target's form first (the CPU's packed panels), else the plain
    // one.
    Value product;
    if (productType.getRank() == 2 && strategy)
      product =
          strategy->product(rewriter, loc, lhsMatrix, rhsMatrix, productType,
                            transposeRhs, lhsUnsigned, rhsUnsigned);
    if (!product) {
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

/// A product by a 4-bit packed weight as one generic over the result's
/// dimensions, n, and k split as (group, byte of the group, nibble of the
/// byte), so that every operand is read through a projected permutation:
/// `lhs` viewed as [..., K/g, g/2, 2], `packed` as [N, K/g, g/2], the
/// scales and zero points as they are. The nibble is the last loop's index
/// times four bits; the weight is dequantized in f32, multiplied and added
/// in f32 and stored in the result's type (tile.matmul_int4).
struct ConvertMatmulInt4 : OpConversionPattern<MatmulInt4Op> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatmulInt4Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value lhs = adaptor.getLhs(), packed = adaptor.getPacked();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto packedType = cast<RankedTensorType>(packed.getType());
    int64_t group = op.getGroupSize();
    int64_t outer = lhsType.getRank() - 1, k = lhsType.getShape().back();
    int64_t n = packedType.getDimSize(0), groups = k / group;
    bool zeroUnsigned =
        isUnsigned(op.getZeroPoints().getType().getElementType());

    SmallVector<int64_t> lhsShape(lhsType.getShape().drop_back());
    lhsShape.append({groups, group / 2, 2});
    SmallVector<ReassociationIndices> lhsGroups;
    for (int64_t i = 0; i < outer; ++i)
      lhsGroups.push_back({i});
    lhsGroups.push_back({outer, outer + 1, outer + 2});
    Value lhsView = tensor::ExpandShapeOp::create(
        rewriter, loc, lhsType.clone(lhsShape), lhs, lhsGroups);
    Value packedView = tensor::ExpandShapeOp::create(
        rewriter, loc, packedType.clone({n, groups, group / 2}), packed,
        SmallVector<ReassociationIndices>{{0}, {1, 2}});

    // Loops: the result's outer dimensions, n, then the group, the byte and
    // the nibble.
    int64_t hLoop = outer + 3;
    SmallVector<AffineMap> maps = int4ProductMaps(context, outer);
    SmallVector<IteratorType> iterators(outer + 1, IteratorType::parallel);
    iterators.append(3, IteratorType::reduction);

    ScalarBuilder scalar{rewriter, loc};
    Value init =
        filled(rewriter, loc, type, scalar.constant(type.getElementType(), 0));
    Value product =
        linalg::GenericOp::create(
            rewriter, loc, type,
            ValueRange{lhsView, packedView, adaptor.getScales(),
                       adaptor.getZeroPoints()},
            init, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Type f32 = b.getF32Type(), i8 = b.getI8Type();
              auto widen = [&](Value v) -> Value {
                unsigned width = v.getType().getIntOrFloatBitWidth();
                return width < 32   ? arith::ExtFOp::create(b, l, f32, v)
                       : width > 32 ? arith::TruncFOp::create(b, l, f32, v)
                                    : v;
              };
              Value nibble = linalg::IndexOp::create(b, l, hLoop);
              Value shift = arith::MulIOp::create(
                  b, l, arith::IndexCastUIOp::create(b, l, i8, nibble),
                  arith::ConstantIntOp::create(b, l, i8, 4));
              Value q = arith::AndIOp::create(
                  b, l, arith::ShRUIOp::create(b, l, args[1], shift),
                  arith::ConstantIntOp::create(b, l, i8, 15));
              Value zero =
                  zeroUnsigned
                      ? Value(arith::UIToFPOp::create(b, l, f32, args[3]))
                      : Value(arith::SIToFPOp::create(b, l, f32, args[3]));
              Value w = arith::MulFOp::create(
                  b, l,
                  arith::SubFOp::create(
                      b, l, arith::UIToFPOp::create(b, l, f32, q), zero),
                  widen(args[2]));
              Value sum = arith::AddFOp::create(
                  b, l, widen(args[4]),
                  arith::MulFOp::create(b, l, widen(args[0]), w));
              Type out = args[4].getType();
              linalg::YieldOp::create(
                  b, l,
                  out == f32 ? sum
                  : out.getIntOrFloatBitWidth() < 32
                      ? Value(arith::TruncFOp::create(b, l, out, sum))
                      : Value(arith::ExtFOp::create(b, l, out, sum)));
            })
            .getResult(0);
    product.getDefiningOp()->setAttr(kOwnKernelAttr, rewriter.getUnitAttr());
    rewriter.replaceOp(op, product);
    return success();
  }
};

} // namespace

SmallVector<AffineMap> int4ProductMaps(MLIRContext *context, int64_t outer) {
  int64_t nLoop = outer, gLoop = outer + 1, jLoop = outer + 2,
          hLoop = outer + 3, dims = outer + 4;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  SmallVector<AffineExpr> lhsExprs, outExprs;
  for (int64_t i = 0; i < outer; ++i) {
    lhsExprs.push_back(d(i));
    outExprs.push_back(d(i));
  }
  lhsExprs.append({d(gLoop), d(jLoop), d(hLoop)});
  outExprs.push_back(d(nLoop));
  auto map = [&](ArrayRef<AffineExpr> exprs) {
    return AffineMap::get(dims, 0, exprs, context);
  };
  return {map(lhsExprs), map({d(nLoop), d(gLoop), d(jLoop)}),
          map({d(nLoop), d(gLoop)}), map({d(nLoop), d(gLoop)}), map(outExprs)};
}

void populateMatmulPatterns(TypeConverter &converter,
                            RewritePatternSet &patterns,
                            const ContractionStrategy *strategy) {
  patterns.add<ConvertMatmul>(converter, patterns.getContext(), strategy);
  patterns.add<ConvertMatmulInt4>(converter, patterns.getContext());
}

} // namespace aicc::tile_to_linalg
