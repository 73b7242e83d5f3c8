//===- LowerQuant.cpp - Quantize and dequantize as arithmetic -------------===//
//
// What tile-fold-qdq left of a quantized model: the quantize and dequantize
// ops at the edges of float islands and of the model, as element-wise tile
// arithmetic every target already compiles. And integer products written on
// widened 8-bit operands (MatMulInteger, ConvInteger) on the 8-bit operands
// themselves, as tile-fold-qdq writes them, which the targets' integer
// kernels take.
//
//===----------------------------------------------------------------------===//

#include "aicc/Support/StoredBytes.h"

#include "Tile/IR/Constants.h"
#include "Tile/IR/QuantArithmetic.h"
#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <limits>

namespace aicc::tile {
#define GEN_PASS_DEF_TILELOWERQUANTPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {

/// A quantize or dequantize as arithmetic: `build` is buildQuantize or
/// buildDequantize, given the scheme's parameters as constants.
template <typename OpTy> struct LowerQuantOp : OpRewritePattern<OpTy> {
  using Build = Value (*)(OpBuilder &, Location, Value, Value, Value, Type);
  LowerQuantOp(MLIRContext *context, Build build)
      : OpRewritePattern<OpTy>(context), build(build) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> shape = op.getInput().getType().getShape();
    Location loc = op.getLoc();
    Value scales = buildQuantScales(rewriter, loc, op.getQuant(), shape);
    Value zeroPoints =
        buildQuantZeroPoints(rewriter, loc, op.getQuant(), shape);
    Value result = build(rewriter, loc, op.getInput(), scales, zeroPoints,
                         op.getResult().getType().getElementType());
    if (!result)
      return rewriter.notifyMatchFailure(op, "the arithmetic is ill-typed");
    rewriter.replaceOp(op, result);
    return success();
  }

  Build build;
};

/// The value of stored element `bytes` (little-endian, `type`'s width) as a
/// double; none for types this does not read.
std::optional<double> storedValue(Type type, const char *bytes) {
  unsigned width = type.getIntOrFloatBitWidth();
  if (width % 8 != 0 || width > 64)
    return std::nullopt;
  uint64_t raw = 0;
  for (unsigned b = 0; b < width / 8; ++b)
    raw |= uint64_t(static_cast<uint8_t>(bytes[b])) << (8 * b);
  APInt bits(width, raw);
  if (auto integer = dyn_cast<IntegerType>(type))
    return double(integer.isUnsigned() ? int64_t(bits.getZExtValue())
                                       : bits.getSExtValue());
  if (auto real = dyn_cast<FloatType>(type))
    return APFloat(real.getFloatSemantics(), bits).convertToDouble();
  return std::nullopt;
}

/// The stored values of a dequantized weight and the scale and zero point
/// each element uses.
struct DequantizedWeight {
  WeightOp weight;
  Type storage;
  ArrayRef<char> stored;
  SmallVector<double> scales, zeroPoints;
  QuantAttr quant;
  ArrayRef<int64_t> shape;
  int64_t inner = 1, axisSize = 1, blocks = 0;

  /// `op`'s weight when its input is a `tile.weight` of whole-byte
  /// elements that storedValue reads.
  static std::optional<DequantizedWeight> of(DequantizeOp op) {
    DequantizedWeight d;
    d.weight = op.getInput().getDefiningOp<WeightOp>();
    RankedTensorType type = op.getInput().getType();
    if (!d.weight || !type.hasStaticShape())
      return std::nullopt;
    std::optional<ArrayRef<char>> stored =
        aicc::storedBytes(d.weight.getValue());
    d.storage = type.getElementType();
    unsigned width = d.storage.getIntOrFloatBitWidth();
    if (!stored || width % 8 != 0 || width > 64 ||
        int64_t(stored->size()) != type.getNumElements() * (width / 8))
      return std::nullopt;
    d.stored = *stored;
    d.quant = op.getQuant();
    for (const APFloat &v : d.quant.getScales().getValues<APFloat>())
      d.scales.push_back(v.convertToDouble());
    if (DenseElementsAttr zps = d.quant.getZeroPoints()) {
      Type zpType = zps.getElementType();
      if (isa<IntegerType>(zpType))
        for (const APInt &v : zps.getValues<APInt>())
          d.zeroPoints.push_back(zpType.isUnsignedInteger()
                                     ? double(v.getZExtValue())
                                     : double(v.getSExtValue()));
      else
        for (const APFloat &v : zps.getValues<APFloat>())
          d.zeroPoints.push_back(v.convertToDouble());
    }
    d.shape = type.getShape();
    int64_t axis = d.quant.getAxis(), block = d.quant.getBlockSize();
    for (int64_t dim = axis + 1; dim < type.getRank(); ++dim)
      d.inner *= d.shape[dim];
    d.axisSize = type.getRank() ? d.shape[axis] : 1;
    d.blocks = block > 0 ? (d.axisSize + block - 1) / block : 0;
    return d;
  }

  int64_t count() const {
    return int64_t(stored.size()) / (storage.getIntOrFloatBitWidth() / 8);
  }
  /// The stored value of element `index` (row-major).
  std::optional<double> value(int64_t index) const {
    return storedValue(
        storage, stored.data() + index * (storage.getIntOrFloatBitWidth() / 8));
  }
  /// Which scale and zero point element `index` uses: its index along the
  /// axis (divided by the block size), through the parameters' own strides.
  int64_t parameter(int64_t index) const {
    if (quant.isPerTensor())
      return 0;
    int64_t along = (index / inner) % axisSize;
    int64_t block = quant.getBlockSize();
    if (block <= 0)
      return along;
    int64_t outer = index / (inner * axisSize);
    return (outer * blocks + along / block) * inner + index % inner;
  }
  double zeroPoint(int64_t p) const {
    return zeroPoints.empty() ? 0.0 : zeroPoints[p];
  }
};

/// A dequantized weight is a float weight: computed once at compile time
/// rather than on every run. Only large values are weights; small ones are
/// constants the arithmetic folds.
struct FoldDequantizedWeight : OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto real = dyn_cast<FloatType>(op.getResult().getType().getElementType());
    std::optional<DequantizedWeight> d = DequantizedWeight::of(op);
    if (!d || !real || real.getWidth() % 8 != 0 || real.getWidth() > 64)
      return failure();
    unsigned realBytes = real.getWidth() / 8;
    int64_t count = d->count();
    std::vector<char> data;
    data.reserve(count * realBytes);
    for (int64_t i = 0; i < count; ++i) {
      std::optional<double> q = d->value(i);
      if (!q)
        return failure();
      int64_t p = d->parameter(i);
      APFloat v(static_cast<float>((*q - d->zeroPoint(p)) * d->scales[p]));
      bool lost;
      v.convert(real.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      uint64_t bits = v.bitcastToAPInt().getZExtValue();
      for (unsigned b = 0; b < realBytes; ++b)
        data.push_back(static_cast<char>(bits >> (8 * b)));
    }
    auto resultType = RankedTensorType::get(d->shape, real);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(d->weight);
    Value folded =
        createWeight(rewriter, op.getLoc(), resultType,
                     (d->weight.getName() + "_dequantized").str(), data);
    rewriter.replaceOp(op, folded);
    return success();
  }
};

/// A product of few rows by a dequantized weight whose stored values span
/// at most 16 consecutive integers, in blocks along k of an even size that
/// divides k: a tile.matmul_int4 that keeps the weight at half a byte a
/// value (the values less the lowest, packed two to a byte along k; the
/// zero points moved by the same amount) and dequantizes it as it is read.
/// Products of `maxRows` rows or more keep the float weight
/// (FoldDequantizedWeight): their time is arithmetic, not the weight's
/// reading.
struct PackInt4WeightProduct : OpRewritePattern<MatmulOp> {
  PackInt4WeightProduct(MLIRContext *context, int64_t maxRows)
      : OpRewritePattern<MatmulOp>(context, /*benefit=*/3), maxRows(maxRows) {}

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto dq = op.getRhs().getDefiningOp<DequantizeOp>();
    RankedTensorType lhsType = op.getLhs().getType();
    if (!dq || op.getTransposeLhs() || !lhsType.hasStaticShape() ||
        lhsType.getRank() < 2 || dq.getInput().getType().getRank() != 2 ||
        op.getResult().getType().getElementType() != lhsType.getElementType())
      return rewriter.notifyMatchFailure(op, "not a product by a 2-D weight");
    int64_t rows = lhsType.getNumElements() / lhsType.getShape().back();
    if (rows >= maxRows)
      return rewriter.notifyMatchFailure(op, "too many rows");
    std::optional<DequantizedWeight> d = DequantizedWeight::of(dq);
    if (!d || !isa<IntegerType>(d->storage))
      return rewriter.notifyMatchFailure(op, "not a stored integer weight");
    // k runs along the weight's dimension 0, or 1 when transposed.
    unsigned kAxis = op.getTransposeRhs() ? 1 : 0;
    int64_t k = d->shape[kAxis], n = d->shape[1 - kAxis];
    int64_t group = d->quant.getBlockSize();
    if (d->quant.isPerTensor() || d->quant.getAxis() != kAxis || group <= 0 ||
        group % 2 != 0 || k % group != 0)
      return rewriter.notifyMatchFailure(op, "not blocked along k");
    int64_t count = d->count();
    SmallVector<int64_t> codes(count);
    int64_t low = std::numeric_limits<int64_t>::max();
    int64_t high = std::numeric_limits<int64_t>::min();
    for (int64_t i = 0; i < count; ++i) {
      std::optional<double> q = d->value(i);
      if (!q)
        return failure();
      codes[i] = int64_t(*q);
      low = std::min(low, codes[i]);
      high = std::max(high, codes[i]);
    }
    if (high - low > 15)
      return rewriter.notifyMatchFailure(op, "values wider than 4 bits");
    // The element (kk, nn) of the weight, row-major in its own layout.
    auto element = [&](int64_t kk, int64_t nn) {
      return kAxis == 0 ? kk * n + nn : nn * k + kk;
    };
    int64_t groups = k / group;
    std::vector<char> packed(n * k / 2), zeroPoints(n * groups);
    for (int64_t nn = 0; nn < n; ++nn)
      for (int64_t j = 0; j < k / 2; ++j)
        packed[nn * k / 2 + j] =
            static_cast<char>((codes[element(2 * j, nn)] - low) |
                              ((codes[element(2 * j + 1, nn)] - low) << 4));
    Type real = dq.getResult().getType().getElementType();
    auto realType = cast<FloatType>(real);
    unsigned realBytes = realType.getWidth() / 8;
    std::vector<char> scales;
    scales.reserve(n * groups * realBytes);
    for (int64_t nn = 0; nn < n; ++nn)
      for (int64_t g = 0; g < groups; ++g) {
        int64_t p = d->parameter(element(g * group, nn));
        double zp = d->zeroPoint(p) - double(low);
        // Zero points that are not whole or leave a byte keep the float
        // weight.
        if (zp != std::floor(zp) || zp < 0 || zp > 255)
          return rewriter.notifyMatchFailure(op, "zero points off a byte");
        zeroPoints[nn * groups + g] = static_cast<char>(int64_t(zp));
        APFloat v(d->scales[p]);
        bool lost;
        v.convert(realType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lost);
        uint64_t bits = v.bitcastToAPInt().getZExtValue();
        for (unsigned b = 0; b < realBytes; ++b)
          scales.push_back(static_cast<char>(bits >> (8 * b)));
      }
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto u8 = IntegerType::get(context, 8, IntegerType::Unsigned);
    std::string name = d->weight.getName().str();
    Value packedWeight, scaleWeight, zeroWeight;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(d->weight);
      packedWeight =
          createWeight(rewriter, loc, RankedTensorType::get({n, k / 2}, u8),
                       name + "_int4", packed);
      scaleWeight =
          createWeight(rewriter, loc, RankedTensorType::get({n, groups}, real),
                       name + "_int4_scales", scales);
      zeroWeight =
          createWeight(rewriter, loc, RankedTensorType::get({n, groups}, u8),
                       name + "_int4_zero_points", zeroPoints);
    }
    rewriter.replaceOpWithNewOp<MatmulInt4Op>(
        op, op.getResult().getType(), op.getLhs(), packedWeight, scaleWeight,
        zeroWeight, rewriter.getI64IntegerAttr(group));
    return success();
  }

  int64_t maxRows;
};

/// The 8-bit integer `value` is widened from by a tile.cast to i32, if it
/// is one.
Value widenedByte(Value value) {
  auto cast = value.getDefiningOp<CastOp>();
  if (!cast ||
      !cast.getResult().getType().getElementType().isSignlessInteger(32))
    return {};
  auto from = dyn_cast<IntegerType>(cast.getInput().getType().getElementType());
  return from && from.getWidth() == 8 ? cast.getInput() : Value();
}

/// The value of an i32 constant whose elements all fit 8 bits (a widened
/// weight that the importer folded) as 8-bit elements: signed where they
/// fit, else unsigned; null otherwise.
DenseElementsAttr narrowedConstant(Value value) {
  auto known = dyn_cast_or_null<DenseElementsAttr>(compileTimeValue(value));
  if (!known || !known.getElementType().isSignlessInteger(32))
    return {};
  int64_t low = 0, high = 0;
  SmallVector<int64_t> values;
  for (const APInt &v : known.getValues<APInt>()) {
    values.push_back(v.getSExtValue());
    low = std::min(low, values.back());
    high = std::max(high, values.back());
  }
  bool isSigned = low >= -128 && high <= 127;
  if (!isSigned && (low < 0 || high > 255))
    return {};
  auto type = IntegerType::get(value.getContext(), 8,
                               isSigned ? IntegerType::Signless
                                        : IntegerType::Unsigned);
  SmallVector<APInt> bytes;
  for (int64_t v : values)
    bytes.push_back(APInt(8, static_cast<uint64_t>(v), /*isSigned=*/true,
                          /*implicitTrunc=*/true));
  return DenseElementsAttr::get(known.getType().clone(type), bytes);
}

/// An i32 matrix product or convolution of two widened 8-bit operands (and
/// no bias) computed on the 8-bit operands: the same sums, which the
/// integer kernels take. An operand may also be an i32 constant of 8-bit
/// values (a widened weight folded at import).
template <typename OpTy> struct NarrowIntegerProduct : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.getResult().getType().getElementType().isSignlessInteger(32))
      return rewriter.notifyMatchFailure(op, "not an i32 product");
    if constexpr (std::is_same_v<OpTy, ConvOp>)
      if (op.getBias())
        return rewriter.notifyMatchFailure(op, "a convolution with a bias");
    SmallVector<Value, 2> narrow;
    SmallVector<DenseElementsAttr, 2> constants(2);
    for (unsigned i = 0; i < 2; ++i) {
      narrow.push_back(widenedByte(op->getOperand(i)));
      if (!narrow.back())
        constants[i] = narrowedConstant(op->getOperand(i));
      if (!narrow.back() && !constants[i])
        return rewriter.notifyMatchFailure(op, "operands not widened bytes");
    }
    if (constants[0] && constants[1])
      return rewriter.notifyMatchFailure(op, "both operands constant");
    for (unsigned i = 0; i < 2; ++i)
      if (constants[i])
        narrow[i] = ConstantOp::create(rewriter, op.getLoc(), constants[i]);
    FailureOr<OpTy> product =
        createInferred<OpTy>(rewriter, op.getLoc(), narrow, op.getProperties());
    assert(succeeded(product) &&
           product->getResult().getType() == op.getType() &&
           "8-bit operands infer the i32 product");
    rewriter.replaceOp(op, product->getResult());
    return success();
  }
};

struct TileLowerQuantPass
    : aicc::tile::impl::TileLowerQuantPassBase<TileLowerQuantPass> {
  using TileLowerQuantPassBase::TileLowerQuantPassBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTileLowerQuantPatterns(patterns, int4ProductRows);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation()->walk([](Operation *op) {
      if (!isa<QuantizeOp, DequantizeOp>(op))
        return WalkResult::advance();
      op->emitOpError() << "could not be lowered to arithmetic";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void aicc::tile::populateTileLowerQuantPatterns(RewritePatternSet &patterns,
                                                int64_t int4ProductRows) {
  if (int4ProductRows > 0)
    patterns.add<PackInt4WeightProduct>(patterns.getContext(), int4ProductRows);
  patterns.add<FoldDequantizedWeight>(patterns.getContext(),
                                      /*benefit=*/2);
  patterns.add<LowerQuantOp<QuantizeOp>>(patterns.getContext(), buildQuantize);
  patterns.add<NarrowIntegerProduct<MatmulOp>, NarrowIntegerProduct<ConvOp>>(
      patterns.getContext());
  patterns.add<LowerQuantOp<DequantizeOp>>(patterns.getContext(),
                                           buildDequantize);
}
