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

/// A dequantized weight is a float weight: computed once at compile time
/// rather than on every run. Only large values are weights; small ones are
/// constants the arithmetic folds.
struct FoldDequantizedWeight : OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto weight = op.getInput().getDefiningOp<WeightOp>();
    RankedTensorType type = op.getInput().getType();
    auto real = dyn_cast<FloatType>(op.getResult().getType().getElementType());
    if (!weight || !real || real.getWidth() % 8 != 0 || real.getWidth() > 64 ||
        !type.hasStaticShape())
      return failure();
    std::optional<ArrayRef<char>> stored = aicc::storedBytes(weight.getValue());
    Type storage = type.getElementType();
    unsigned width = storage.getIntOrFloatBitWidth();
    int64_t count = type.getNumElements();
    if (!stored || width % 8 != 0 ||
        int64_t(stored->size()) != count * (width / 8))
      return failure();
    QuantAttr quant = op.getQuant();
    SmallVector<double> scales, zeroPoints;
    for (const APFloat &v : quant.getScales().getValues<APFloat>())
      scales.push_back(v.convertToDouble());
    if (DenseElementsAttr zps = quant.getZeroPoints()) {
      Type zpType = zps.getElementType();
      if (isa<IntegerType>(zpType))
        for (const APInt &v : zps.getValues<APInt>())
          zeroPoints.push_back(zpType.isUnsignedInteger()
                                   ? double(v.getZExtValue())
                                   : double(v.getSExtValue()));
      else
        for (const APFloat &v : zps.getValues<APFloat>())
          zeroPoints.push_back(v.convertToDouble());
    }
    // Which parameter each element uses: the index along the axis
    // (divided by the block size), through the parameters' own strides.
    ArrayRef<int64_t> shape = type.getShape();
    int64_t axis = quant.getAxis(), block = quant.getBlockSize();
    int64_t inner = 1;
    for (int64_t d = axis + 1; d < type.getRank(); ++d)
      inner *= shape[d];
    int64_t axisSize = type.getRank() ? shape[axis] : 1;
    int64_t blocks = block > 0 ? (axisSize + block - 1) / block : 0;
    auto parameter = [&](int64_t index) -> int64_t {
      if (quant.isPerTensor())
        return 0;
      int64_t along = (index / inner) % axisSize;
      if (block <= 0)
        return along;
      int64_t outer = index / (inner * axisSize);
      return (outer * blocks + along / block) * inner + index % inner;
    };
    unsigned realBytes = real.getWidth() / 8;
    std::vector<char> data;
    data.reserve(count * realBytes);
    for (int64_t i = 0; i < count; ++i) {
      std::optional<double> q =
          storedValue(storage, stored->data() + i * (width / 8));
      if (!q)
        return failure();
      int64_t p = parameter(i);
      double zp = zeroPoints.empty() ? 0.0 : zeroPoints[p];
      APFloat v(static_cast<float>((*q - zp) * scales[p]));
      bool lost;
      v.convert(real.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      uint64_t bits = v.bitcastToAPInt().getZExtValue();
      for (unsigned b = 0; b < realBytes; ++b)
        data.push_back(static_cast<char>(bits >> (8 * b)));
    }
    auto resultType = RankedTensorType::get(shape, real);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(weight);
    Value folded =
        createWeight(rewriter, op.getLoc(), resultType,
                     (weight.getName() + "_dequantized").str(), data);
    rewriter.replaceOp(op, folded);
    return success();
  }
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
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTileLowerQuantPatterns(patterns);
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

void aicc::tile::populateTileLowerQuantPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldDequantizedWeight>(patterns.getContext(),
                                      /*benefit=*/2);
  patterns.add<LowerQuantOp<QuantizeOp>>(patterns.getContext(), buildQuantize);
  patterns.add<NarrowIntegerProduct<MatmulOp>, NarrowIntegerProduct<ConvOp>>(
      patterns.getContext());
  patterns.add<LowerQuantOp<DequantizeOp>>(patterns.getContext(),
                                           buildDequantize);
}
