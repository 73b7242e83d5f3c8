//===- FoldQDQ.cpp - Integer ops from dequantized operands ----------------===//
//
// A QDQ model multiplies dequantized values: sum_k (a_k - za) sa (w_k - zw)
// sw. The same sum over the stored integers is exact in i32,
//
//   sum_k (a_k - za)(w_k - zw) = sum_k a_k w_k - zw sum_k a_k
//                                - za sum_k w_k + K za zw,
//
// so the product runs on 8-bit operands (what int8 kernels take), the
// weights' sums are constants, and the scales apply once to the result.
//
//===----------------------------------------------------------------------===//

#include "aicc/Support/StoredBytes.h"

#include "Tile/IR/Constants.h"
#include "Tile/IR/QuantArithmetic.h"
#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc::tile {
#define GEN_PASS_DEF_TILEFOLDQDQPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {

/// An operand that is the dequantization of 8-bit integers, with its
/// scheme's scales and zero points read out.
struct QuantOperand {
  Value stored;
  QuantAttr quant;
  SmallVector<double> scales;
  /// Empty when all zero points are zero.
  SmallVector<int64_t> zeroPoints;
};

/// The stored values of a dequantized 8-bit integer (or, with `float8`,
/// an fp8 value, whose zero points the verifier holds at 0), not blocked.
std::optional<QuantOperand> readOperand(Value value, bool float8 = false) {
  auto dequantize = value.getDefiningOp<DequantizeOp>();
  if (!dequantize)
    return std::nullopt;
  QuantAttr quant = dequantize.getQuant();
  Type stored = dequantize.getInput().getType().getElementType();
  auto integer = dyn_cast<IntegerType>(stored);
  if (!((integer && integer.getWidth() == 8) || (float8 && isFloat8(stored))) ||
      quant.isBlocked())
    return std::nullopt;
  QuantOperand operand{dequantize.getInput(), quant, {}, {}};
  for (const APFloat &scale : quant.getScales().getValues<APFloat>())
    operand.scales.push_back(scale.convertToDouble());
  if (integer && !quant.hasZeroZeroPoints())
    for (const APInt &zp : quant.getZeroPoints().getValues<APInt>())
      operand.zeroPoints.push_back(integer.isUnsigned() ? zp.getZExtValue()
                                                        : zp.getSExtValue());
  return operand;
}

/// The single zero point of a per-tensor operand (0 when none).
int64_t scalarZeroPoint(const QuantOperand &operand) {
  return operand.zeroPoints.empty() ? 0 : operand.zeroPoints.front();
}

/// The sums of the integers of a compile-time `value` (a constant or a
/// weight) over every dimension but `keep`, or none when its values are not
/// known here.
std::optional<SmallVector<int64_t>> constantSums(Value value, int64_t keep) {
  ElementsAttr attr = compileTimeValue(value);
  if (!attr)
    return std::nullopt;
  auto type = cast<RankedTensorType>(attr.getType());
  auto integer = dyn_cast<IntegerType>(type.getElementType());
  if (!integer || !type.hasStaticShape())
    return std::nullopt;
  int64_t extent = type.getDimSize(keep);
  int64_t inner = 1;
  for (int64_t dim = keep + 1; dim < type.getRank(); ++dim)
    inner *= type.getDimSize(dim);
  SmallVector<int64_t> sums(extent, 0);
  // Weights hold their bytes in a blob: 8-bit values read directly.
  std::optional<ArrayRef<char>> stored = aicc::storedBytes(attr);
  if (integer.getWidth() == 8 && stored &&
      int64_t(stored->size()) == type.getNumElements()) {
    for (auto [index, byte] : llvm::enumerate(*stored))
      sums[(index / inner) % extent] +=
          integer.isUnsigned() ? int64_t(uint8_t(byte)) : int64_t(int8_t(byte));
    return sums;
  }
  auto values = attr.tryGetValues<APInt>();
  if (!values)
    return std::nullopt;
  int64_t index = 0;
  for (const APInt &v : *values) {
    sums[(index++ / inner) % extent] +=
        integer.isUnsigned() ? v.getZExtValue() : v.getSExtValue();
  }
  return sums;
}

RankedTensorType typeOf(Value value) {
  return value ? cast<RankedTensorType>(value.getType()) : RankedTensorType();
}

/// A constant of `elementType` and `shape` from `values`.
Value constant(OpBuilder &b, Location loc, Type elementType,
               ArrayRef<double> values, ArrayRef<int64_t> shape) {
  return ConstantOp::create(
      b, loc,
      numericElements(RankedTensorType::get(shape, elementType), values));
}

/// `values` (one, or one per channel) as a constant broadcasting along
/// dimension `channelDim` of a tensor of `rank`.
Value perChannel(OpBuilder &b, Location loc, Type elementType,
                 ArrayRef<double> values, int64_t rank, int64_t channelDim) {
  if (values.size() == 1)
    return constant(b, loc, elementType, values, {});
  SmallVector<int64_t> shape(rank - channelDim, 1);
  shape[0] = values.size();
  return constant(b, loc, elementType, values, shape);
}

/// The i32 sum of `x` over `axes`.
Value sum(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> axes,
          bool keepDims) {
  RankedTensorType type = typeOf(x);
  Value wide = CastOp::create(b, loc, type.clone(b.getI32Type()), x);
  ReduceOp::Properties properties;
  properties.setKind(ReduceKindAttr::get(b.getContext(), ReduceKind::sum));
  properties.setAxes(b.getDenseI64ArrayAttr(axes));
  if (keepDims)
    properties.setKeepDims(b.getUnitAttr());
  FailureOr<ReduceOp> op = createInferred<ReduceOp>(b, loc, {wide}, properties);
  return succeeded(op) ? op->getResult() : Value();
}

/// The float result: `accumulator` (i32) times the combined scales.
Value rescale(OpBuilder &b, Location loc, Value accumulator, Type real,
              const QuantOperand &activation, const QuantOperand &weights,
              int64_t rank, int64_t channelDim) {
  SmallVector<double> multipliers;
  for (double scale : weights.scales)
    multipliers.push_back(activation.scales.front() * scale);
  Value wide =
      CastOp::create(b, loc, typeOf(accumulator).clone(real), accumulator);
  return buildBinary(b, loc, BinaryKind::mul, wide,
                     perChannel(b, loc, real, multipliers, rank, channelDim));
}

/// Replaces the product `op` by its sums `accumulator` times the combined
/// scales, per column.
LogicalResult replaceRescaled(PatternRewriter &rewriter, MatmulOp op,
                              Value accumulator, const QuantOperand &activation,
                              const QuantOperand &weights) {
  int64_t rank = typeOf(accumulator).getRank();
  Value result = rescale(rewriter, op.getLoc(), accumulator,
                         op.getResult().getType().getElementType(), activation,
                         weights, rank, rank - 1);
  if (!result)
    return rewriter.notifyMatchFailure(op, "rescaling ill-typed");
  rewriter.replaceOp(op, result);
  return success();
}

struct FoldQuantizedMatmul : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<QuantOperand> a = readOperand(op.getLhs());
    std::optional<QuantOperand> w = readOperand(op.getRhs());
    if (!a || !w)
      return rewriter.notifyMatchFailure(op, "operands are not dequantized "
                                             "8-bit integers");
    if (!a->quant.isPerTensor())
      return rewriter.notifyMatchFailure(op, "activation not per tensor");
    int64_t aRank = typeOf(a->stored).getRank();
    int64_t wRank = typeOf(w->stored).getRank();
    int64_t columns = op.getTransposeRhs() ? wRank - 2 : wRank - 1;
    if (!w->quant.isPerTensor() && w->quant.getAxis() != columns)
      return rewriter.notifyMatchFailure(op, "weights quantized along a "
                                             "dimension other than columns");
    int64_t za = scalarZeroPoint(*a);
    // Signed activations times signed weights: the activations shifted to
    // unsigned (+128, and the zero point with them), the form of the byte
    // dot products CPUs have (unsigned by signed).
    if (typeOf(a->stored).getElementType().isSignlessInteger(8) &&
        typeOf(w->stored).getElementType().isSignlessInteger(8)) {
      Location loc = op.getLoc();
      RankedTensorType type = typeOf(a->stored);
      Value wide = CastOp::create(rewriter, loc,
                                  type.clone(rewriter.getI32Type()), a->stored);
      Value shifted = buildBinary(
          rewriter, loc, BinaryKind::add, wide,
          constant(rewriter, loc, rewriter.getI32Type(), {128.0}, {}));
      if (!shifted)
        return rewriter.notifyMatchFailure(op, "shift ill-typed");
      a->stored = CastOp::create(
          rewriter, loc,
          type.clone(IntegerType::get(getContext(), 8, IntegerType::Unsigned)),
          shifted);
      za += 128;
    }
    bool asymmetricWeights = !w->zeroPoints.empty();
    if (asymmetricWeights && op.getTransposeLhs())
      return rewriter.notifyMatchFailure(op, "asymmetric weights with a "
                                             "transposed activation");
    int64_t depth = typeOf(a->stored).getDimSize(
        op.getTransposeLhs() ? aRank - 2 : aRank - 1);
    if (za != 0 && asymmetricWeights && ShapedType::isDynamic(depth))
      return rewriter.notifyMatchFailure(op, "dynamic depth");

    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    MatmulOp::Properties properties = op.getProperties();
    FailureOr<MatmulOp> product = createInferred<MatmulOp>(
        rewriter, loc, {a->stored, w->stored}, properties);
    if (failed(product))
      return rewriter.notifyMatchFailure(op, "integer product ill-typed");
    Value accumulator = product->getResult();
    int64_t rank = typeOf(accumulator).getRank();

    SmallVector<double> zw(w->zeroPoints.begin(), w->zeroPoints.end());
    if (asymmetricWeights) {
      // zw[n] * sum_k a[m, k]
      Value rows = sum(rewriter, loc, a->stored, {aRank - 1}, true);
      Value term =
          buildBinary(rewriter, loc, BinaryKind::mul, rows,
                      perChannel(rewriter, loc, i32, zw, rank, rank - 1));
      accumulator =
          buildBinary(rewriter, loc, BinaryKind::sub, accumulator, term);
    }
    std::optional<SmallVector<int64_t>> knownSums;
    if (za != 0 && wRank == 2)
      knownSums = constantSums(w->stored, columns);
    if (knownSums) {
      // za * sum_k w[k, n], computed here.
      SmallVector<double> term;
      for (int64_t s : *knownSums)
        term.push_back(double(za) * s);
      accumulator = buildBinary(
          rewriter, loc, BinaryKind::sub, accumulator,
          constant(rewriter, loc, i32, term, {int64_t(term.size())}));
    } else if (za != 0) {
      // za * sum_k w[k, n], a row of column sums.
      int64_t depthDim = op.getTransposeRhs() ? wRank - 1 : wRank - 2;
      Value columnSums = sum(rewriter, loc, w->stored, {depthDim}, false);
      SmallVector<int64_t> shape(typeOf(columnSums).getShape());
      shape.insert(shape.end() - 1, 1);
      columnSums = ReshapeOp::create(
          rewriter, loc, typeOf(columnSums).clone(shape), columnSums);
      Value term = buildBinary(rewriter, loc, BinaryKind::mul, columnSums,
                               constant(rewriter, loc, i32, {double(za)}, {}));
      accumulator =
          buildBinary(rewriter, loc, BinaryKind::sub, accumulator, term);
    }
    if (za != 0 && asymmetricWeights) {
      SmallVector<double> both;
      for (double zp : zw)
        both.push_back(double(depth) * za * zp);
      accumulator =
          buildBinary(rewriter, loc, BinaryKind::add, accumulator,
                      perChannel(rewriter, loc, i32, both, rank, rank - 1));
    }
    if (!accumulator)
      return rewriter.notifyMatchFailure(op, "corrections ill-typed");
    return replaceRescaled(rewriter, op, accumulator, *a, *w);
  }
};

struct FoldQuantizedConv : OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getChannelsLast())
      return rewriter.notifyMatchFailure(op, "channels-last convolution");
    std::optional<QuantOperand> x = readOperand(op.getInput());
    std::optional<QuantOperand> w = readOperand(op.getFilter());
    if (!x || !w)
      return rewriter.notifyMatchFailure(op, "operands are not dequantized "
                                             "8-bit integers");
    if (!x->quant.isPerTensor())
      return rewriter.notifyMatchFailure(op, "input not per tensor");
    if (!w->quant.isPerTensor() && w->quant.getAxis() != 0)
      return rewriter.notifyMatchFailure(op, "filter not per output channel");
    if (!w->zeroPoints.empty())
      return rewriter.notifyMatchFailure(op, "asymmetric filter");

    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    int64_t zx = scalarZeroPoint(*x);
    RankedTensorType inputType = typeOf(x->stored);
    int64_t rank = inputType.getRank();
    ConvOp::Properties properties = op.getProperties();
    Value input = x->stored;
    ArrayRef<int64_t> padding = op.getPadding();
    if (zx != 0 && llvm::any_of(padding, [](int64_t p) { return p != 0; })) {
      // Padding stands for real zeros: stored, they are the zero point.
      int64_t spatial = rank - 2;
      SmallVector<int64_t> pads(2 * rank, 0);
      for (int64_t i = 0; i < spatial; ++i) {
        pads[2 + i] = padding[i];
        pads[rank + 2 + i] = padding[spatial + i];
      }
      PadOp::Properties pad;
      pad.setMode(PadModeAttr::get(rewriter.getContext(), PadMode::constant));
      pad.setPadding(rewriter.getDenseI64ArrayAttr(pads));
      Type element = inputType.getElementType();
      pad.setValue(IntegerAttr::get(element, APInt(8, static_cast<uint64_t>(zx),
                                                   /*isSigned=*/true,
                                                   /*implicitTrunc=*/true)));
      FailureOr<PadOp> padded =
          createInferred<PadOp>(rewriter, loc, {input}, pad);
      if (failed(padded))
        return rewriter.notifyMatchFailure(op, "padding ill-typed");
      input = padded->getResult();
      properties.setPadding(
          rewriter.getDenseI64ArrayAttr(SmallVector<int64_t>(padding.size())));
    }
    FailureOr<ConvOp> conv =
        createInferred<ConvOp>(rewriter, loc, {input, w->stored}, properties);
    if (failed(conv))
      return rewriter.notifyMatchFailure(op, "integer convolution ill-typed");
    Value accumulator = conv->getResult();
    std::optional<SmallVector<int64_t>> knownSums;
    if (zx != 0)
      knownSums = constantSums(w->stored, 0);
    if (knownSums) {
      SmallVector<double> term;
      for (int64_t s : *knownSums)
        term.push_back(double(zx) * s);
      accumulator = buildBinary(rewriter, loc, BinaryKind::sub, accumulator,
                                perChannel(rewriter, loc, i32, term, rank, 1));
    } else if (zx != 0) {
      // zx * the sum of each filter, per output channel.
      SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(1, rank));
      Value filterSums = sum(rewriter, loc, w->stored, axes, false);
      SmallVector<int64_t> shape(rank - 1, 1);
      shape[0] = typeOf(filterSums).getDimSize(0);
      filterSums = ReshapeOp::create(
          rewriter, loc, typeOf(filterSums).clone(shape), filterSums);
      Value term = buildBinary(rewriter, loc, BinaryKind::mul, filterSums,
                               constant(rewriter, loc, i32, {double(zx)}, {}));
      accumulator =
          buildBinary(rewriter, loc, BinaryKind::sub, accumulator, term);
    }
    if (!accumulator)
      return rewriter.notifyMatchFailure(op, "corrections ill-typed");
    Type real = op.getResult().getType().getElementType();
    Value result = rescale(rewriter, loc, accumulator, real, *x, *w, rank, 1);
    if (Value bias = op.getBias()) {
      SmallVector<int64_t> shape(rank - 1, 1);
      shape[0] = typeOf(bias).getDimSize(0);
      Value shaped =
          ReshapeOp::create(rewriter, loc, typeOf(bias).clone(shape), bias);
      result = buildBinary(rewriter, loc, BinaryKind::add, result, shaped);
    }
    if (!result)
      return rewriter.notifyMatchFailure(op, "rescaling ill-typed");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A data movement op (reshape, transpose, slice, broadcast) of a tensor
/// dequantized per tensor moves the stored values instead, and the
/// dequantization comes after it: exporters put reshapes between a
/// dequantized activation and its product.
template <typename OpTy> struct MoveDequantizeDown : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto dequantize = op->getOperand(0).template getDefiningOp<DequantizeOp>();
    if (!dequantize || !dequantize.getQuant().isPerTensor() ||
        op->getNumOperands() != 1)
      return rewriter.notifyMatchFailure(op, "not a per-tensor dequantize");
    Type stored = dequantize.getInput().getType().getElementType();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Operation *moved = rewriter.clone(*op);
    moved->setOperand(0, dequantize.getInput());
    moved->getResult(0).setType(resultType.clone(stored));
    rewriter.replaceOpWithNewOp<DequantizeOp>(
        op, resultType, moved->getResult(0), dequantize.getQuant());
    return success();
  }
};

/// Quantizing what was just dequantized with the same scheme gives the
/// stored values back.
struct FoldQuantizeOfDequantize : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto dequantize = op.getInput().getDefiningOp<DequantizeOp>();
    if (!dequantize || dequantize.getQuant() != op.getQuant() ||
        dequantize.getInput().getType() != op.getResult().getType())
      return rewriter.notifyMatchFailure(op, "not a round trip");
    rewriter.replaceOp(op, dequantize.getInput());
    return success();
  }
};

/// A product of two dequantized fp8 operands of one type (zero points 0),
/// the activation per tensor and the weights per tensor or per output
/// column: the fp8 values multiplied and summed in f32, then scaled.
struct FoldFloat8Matmul : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<QuantOperand> a = readOperand(op.getLhs(), true);
    std::optional<QuantOperand> w = readOperand(op.getRhs(), true);
    if (!a || !w || !isa<FloatType>(typeOf(a->stored).getElementType()))
      return rewriter.notifyMatchFailure(op, "operands are not dequantized "
                                             "fp8 values");
    if (typeOf(a->stored).getElementType() !=
        typeOf(w->stored).getElementType())
      return rewriter.notifyMatchFailure(op, "fp8 operands of two types");
    if (!a->quant.isPerTensor())
      return rewriter.notifyMatchFailure(op, "activation not per tensor");
    int64_t wRank = typeOf(w->stored).getRank();
    int64_t columns = op.getTransposeRhs() ? wRank - 2 : wRank - 1;
    if (!w->quant.isPerTensor() && w->quant.getAxis() != columns)
      return rewriter.notifyMatchFailure(op, "weights quantized along a "
                                             "dimension other than columns");
    Location loc = op.getLoc();
    FailureOr<MatmulOp> product = createInferred<MatmulOp>(
        rewriter, loc, {a->stored, w->stored}, op.getProperties());
    if (failed(product))
      return rewriter.notifyMatchFailure(op, "fp8 product ill-typed");
    return replaceRescaled(rewriter, op, product->getResult(), *a, *w);
  }
};

struct TileFoldQDQPass
    : aicc::tile::impl::TileFoldQDQPassBase<TileFoldQDQPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTileFoldQDQPatterns(patterns);
    if (float8)
      patterns.add<FoldFloat8Matmul>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void aicc::tile::populateTileFoldQDQPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldQuantizedMatmul, FoldQuantizedConv, FoldQuantizeOfDequantize,
               MoveDequantizeDown<ReshapeOp>, MoveDequantizeDown<TransposeOp>,
               MoveDequantizeDown<SliceOp>, MoveDequantizeDown<ExpandOp>>(
      patterns.getContext());
}
