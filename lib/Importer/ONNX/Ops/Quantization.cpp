//===- Quantization.cpp - QuantizeLinear, DequantizeLinear, QLinear* ------===//
//
// QuantizeLinear and DequantizeLinear with compile-time scales become
// tile.quantize and tile.dequantize, which carry their scheme (per tensor,
// per axis or per block) for tile-fold-qdq; with run-time scales, and for
// the QLinear operators, they are arithmetic: y = saturate(round(x / scale)
// + zero_point), x = (q - zero_point) * scale, and integer contractions
// accumulated in i32 then requantized.
//
//===----------------------------------------------------------------------===//

#include "QuantizationCommon.h"

#include "Tile/IR/QuantArithmetic.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// Stores `real` into `target` (see tile::buildSaturatingStore).
Value saturate(NodeContext &c, Value real, Value zeroPoint, Type target) {
  if (!real)
    return c.fail();
  Value stored =
      buildSaturatingStore(c.builder(), c.loc, real, zeroPoint, target);
  return stored ? stored : c.fail();
}

/// The granularity attributes of a QuantizeLinear or DequantizeLinear node
/// applied to a tensor of `rank`: its axis in [0, rank) (0 when the scale is
/// per tensor) and its block size.

std::optional<Granularity> readGranularity(NodeContext &c, Value scale,
                                           int64_t rank) {
  RankedTensorType scaleType = NodeContext::typeOf(scale);
  if (!scaleType)
    return std::nullopt;
  Granularity g;
  g.blockSize = c.getInt("block_size", 0);
  if (g.blockSize < 0) {
    c.error() << "block_size must be non-negative, got " << g.blockSize;
    return std::nullopt;
  }
  bool perTensor = scaleType.getRank() == 0 ||
                   (g.blockSize == 0 && scaleType.hasStaticShape() &&
                    scaleType.getNumElements() == 1);
  if (perTensor)
    return g;
  std::optional<int64_t> axis = c.normalizeAxis(c.getInt("axis", 1), rank);
  if (!axis)
    return std::nullopt;
  g.axis = *axis;
  return g;
}

/// The scheme of `scale` and `zeroPoint` (may be null) when both are
/// compile-time constants, or null.
QuantAttr constantScheme(NodeContext &c, Value scale, Value zeroPoint,
                         Granularity g) {
  auto scales = dyn_cast_or_null<DenseElementsAttr>(c.constantValue(scale));
  if (!scales || !isa<FloatType>(scales.getElementType()))
    return nullptr;
  DenseElementsAttr zeroPoints;
  if (zeroPoint) {
    zeroPoints =
        dyn_cast_or_null<DenseElementsAttr>(c.constantValue(zeroPoint));
    if (!zeroPoints ||
        zeroPoints.getType().getShape() != scales.getType().getShape())
      return nullptr;
  }
  // A one-element scale without blocks is a per-tensor scale.
  if (g.blockSize == 0 && scales.getType().getRank() != 0 &&
      scales.getNumElements() == 1) {
    auto scalar = [](DenseElementsAttr attr) {
      return attr ? attr.reshape(RankedTensorType::get(
                        {}, attr.getType().getElementType()))
                  : attr;
    };
    scales = scalar(scales);
    zeroPoints = scalar(zeroPoints);
  }
  if (scales.getType().getRank() == 0)
    g = Granularity();
  return QuantAttr::get(c.getContext(), scales, zeroPoints, g.axis,
                        g.blockSize);
}

/// `x` quantized or dequantized into `element`: an OpTy carrying the scheme
/// when the parameters are constants, else `build`'s arithmetic
/// (buildQuantize or buildDequantize).
template <typename OpTy>
Value linear(NodeContext &c, Value x, Value scale, Value zeroPoint,
             Granularity g, Type element,
             Value (*build)(OpBuilder &, Location, Value, Value, Value, Type)) {
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type || !scale || !element)
    return c.fail();
  if (QuantAttr quant = constantScheme(c, scale, zeroPoint, g)) {
    typename OpTy::Properties properties;
    properties.setQuant(quant);
    return c.createTyped<OpTy>(type.clone(element), {x}, properties);
  }
  // Parameters known only at run time: arithmetic.
  auto expand = [&](Value parameter) {
    return parameter
               ? expandQuantParameter(c.builder(), c.loc, parameter,
                                      type.getShape(), g.axis, g.blockSize)
               : Value();
  };
  // Scale first, then zero point: one order, whatever the compiler's
  // order of evaluating arguments.
  Value expandedScale = expand(scale);
  Value expandedZeroPoint = expand(zeroPoint);
  Value y =
      build(c.builder(), c.loc, x, expandedScale, expandedZeroPoint, element);
  return y ? y : c.fail();
}

/// The granularity of node input 0's scale (input 1), or null on error.
std::optional<Granularity> nodeGranularity(NodeContext &c) {
  RankedTensorType type = NodeContext::typeOf(c.input(0));
  if (!type)
    return std::nullopt;
  return readGranularity(c, c.input(1), type.getRank());
}

LogicalResult convertQuantizeLinear(NodeContext &c) {
  std::optional<Granularity> g = nodeGranularity(c);
  if (!g)
    return failure();
  Value zeroPoint = c.optionalInput(2);
  return c.setOutputs({quantizeValue(c, c.input(0), c.input(1), zeroPoint,
                                     quantizedType(c, zeroPoint), *g)});
}

LogicalResult convertDequantizeLinear(NodeContext &c) {
  std::optional<Granularity> g = nodeGranularity(c);
  if (!g)
    return failure();
  return c.setOutputs(
      {dequantizeValue(c, c.input(0), c.input(1), c.optionalInput(2), *g)});
}

LogicalResult convertDynamicQuantizeLinear(NodeContext &c) {
  DynamicQuantized q = dynamicQuantize(c, c.input(0));
  return c.setOutputs({q.values, q.scale, q.zeroPoint});
}

/// Requantizes an i32 accumulator with `multiplier` (a float tensor) into the
/// type of `zp`.
Value requantize(NodeContext &c, Value accumulator, Value multiplier,
                 Value zp) {
  Type f32 = c.builder().getF32Type();
  Value real = c.binary(BinaryKind::mul, c.cast(accumulator, f32),
                        c.cast(multiplier, f32));
  return saturate(c, real, zp, quantizedType(c, zp));
}

LogicalResult convertQLinearMatMul(NodeContext &c) {
  Value a = c.input(0), aScale = c.input(1), aZp = c.input(2);
  Value b = c.input(3), bScale = c.input(4), bZp = c.input(5);
  Value yScale = c.input(6), yZp = c.input(7);
  RankedTensorType aType = NodeContext::typeOf(a);
  if (!aType)
    return failure();
  // Per-row parameters of A broadcast along its rows.
  auto perRow = [&](Value v) {
    RankedTensorType t = NodeContext::typeOf(v);
    if (t && t.getRank() == 1 && t.getDimSize(0) != 1 && aType.getRank() >= 2)
      return c.reshape(v, {t.getDimSize(0), 1});
    return v;
  };
  auto same = [](Value v) { return v; };
  Value product =
      c.matmul(centered(c, a, aZp, perRow), centered(c, b, bZp, same));
  Type f32 = c.builder().getF32Type();
  Value multiplier =
      c.binary(BinaryKind::div,
               c.binary(BinaryKind::mul, perRow(c.cast(aScale, f32)),
                        c.cast(bScale, f32)),
               c.cast(yScale, f32));
  return c.setOutputs({requantize(c, product, multiplier, yZp)});
}

LogicalResult convertQLinearConv(NodeContext &c) {
  Value x = c.input(0), xScale = c.input(1), xZp = c.input(2);
  Value w = c.input(3), wScale = c.input(4), wZp = c.input(5);
  Value yScale = c.input(6), yZp = c.input(7);
  RankedTensorType wType = NodeContext::typeOf(w);
  if (!wType)
    return failure();
  int64_t rank = wType.getRank();
  // Per-output-channel parameters of W broadcast along its first dimension,
  // and along dimension 1 of the result.
  auto perFilter = [&](Value v) {
    RankedTensorType t = NodeContext::typeOf(v);
    if (t && t.getRank() == 1 && t.getDimSize(0) != 1) {
      SmallVector<int64_t> shape(rank, 1);
      shape[0] = t.getDimSize(0);
      return c.reshape(v, shape);
    }
    return v;
  };
  auto perChannel = [&](Value v) {
    RankedTensorType t = NodeContext::typeOf(v);
    if (t && t.getRank() == 1 && t.getDimSize(0) != 1) {
      SmallVector<int64_t> shape(rank, 1);
      shape[1] = t.getDimSize(0);
      return c.reshape(v, shape);
    }
    return v;
  };
  auto same = [](Value v) { return v; };
  Value xi = centered(c, x, xZp, same);
  Value wi = centered(c, w, wZp, perFilter);

  // The convolution itself is the Conv converter's job; reuse its reading of
  // the window attributes by converting through a ConvOp built here.
  std::optional<SmallVector<int64_t>> kernel = c.getInts("kernel_shape");
  if (!kernel)
    kernel = SmallVector<int64_t>(wType.getShape().drop_front(2));
  size_t spatial = kernel->size();
  ConvOp::Properties properties;
  OpBuilder &b = c.builder();
  std::string autoPad = c.getString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID") {
    c.error() << "auto_pad " << autoPad << " is not supported here";
    return failure();
  }
  properties.setStrides(b.getDenseI64ArrayAttr(
      c.getInts("strides").value_or(SmallVector<int64_t>(spatial, 1))));
  properties.setDilations(b.getDenseI64ArrayAttr(
      c.getInts("dilations").value_or(SmallVector<int64_t>(spatial, 1))));
  properties.setPadding(b.getDenseI64ArrayAttr(
      autoPad == "VALID"
          ? SmallVector<int64_t>(2 * spatial, 0)
          : c.getInts("pads").value_or(SmallVector<int64_t>(2 * spatial, 0))));
  properties.setGroups(b.getI64IntegerAttr(c.getInt("group", 1)));
  SmallVector<Value> operands = {xi, wi};
  if (Value bias = c.optionalInput(8))
    operands.push_back(c.cast(bias, b.getI32Type()));
  Value accumulator = c.create<ConvOp>(operands, properties);
  Type f32 = b.getF32Type();
  Value multiplier = c.binary(BinaryKind::div,
                              c.binary(BinaryKind::mul, c.cast(xScale, f32),
                                       perChannel(c.cast(wScale, f32))),
                              c.cast(yScale, f32));
  return c.setOutputs({requantize(c, accumulator, multiplier, yZp)});
}

} // namespace

Type quantizedType(NodeContext &c, Value zeroPoint, Type fallback) {
  if (RankedTensorType type = NodeContext::typeOf(zeroPoint))
    return type.getElementType();
  if (std::optional<int64_t> dtype = c.getOptionalInt("output_dtype"))
    if (*dtype != 0)
      return convertElementType(c.getContext(), *dtype);
  return fallback ? fallback
                  : IntegerType::get(c.getContext(), 8, IntegerType::Unsigned);
}

Value dequantizeValue(NodeContext &c, Value q, Value scale, Value zeroPoint,
                      Granularity g) {
  RankedTensorType scaleType = NodeContext::typeOf(scale);
  return linear<DequantizeOp>(c, q, scale, zeroPoint, g,
                              scaleType ? scaleType.getElementType() : Type(),
                              buildDequantize);
}

Value quantizeValue(NodeContext &c, Value x, Value scale, Value zeroPoint,
                    Type storage, Granularity g) {
  return linear<QuantizeOp>(c, x, scale, zeroPoint, g, storage, buildQuantize);
}

DynamicQuantized dynamicQuantize(NodeContext &c, Value x) {
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return {c.fail(), Value(), Value()};
  SmallVector<int64_t> all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  Value zero = c.scalarLike(x, 0.0);
  Value low =
      c.binary(BinaryKind::min, zero,
               all.empty() ? x : c.reduce(ReduceKind::min, x, all, false));
  Value high =
      c.binary(BinaryKind::max, zero,
               all.empty() ? x : c.reduce(ReduceKind::max, x, all, false));
  Value scale = c.binary(BinaryKind::div, c.binary(BinaryKind::sub, high, low),
                         c.scalarLike(x, 255.0));
  Type u8 = IntegerType::get(c.getContext(), 8, IntegerType::Unsigned);
  Value zp = saturate(
      c, c.binary(BinaryKind::div, c.unary(UnaryKind::neg, low), scale),
      Value(), u8);
  Value y = saturate(c, c.binary(BinaryKind::div, x, scale), zp, u8);
  return {y, scale, zp};
}

Value centered(NodeContext &c, Value q, Value zp,
               function_ref<Value(Value)> shapeZp) {
  Type i32 = c.builder().getI32Type();
  Value wide = c.cast(q, i32);
  return zp ? c.binary(BinaryKind::sub, wide, shapeZp(c.cast(zp, i32))) : wide;
}

void registerQuantizationOps(OpTable &t) {
  t.add("QuantizeLinear", 10, convertQuantizeLinear);
  t.add("DequantizeLinear", 10, convertDequantizeLinear);
  t.add("DynamicQuantizeLinear", 11, convertDynamicQuantizeLinear);
  t.add("QLinearMatMul", 10, convertQLinearMatMul);
  t.add("QLinearConv", 10, convertQLinearConv);
  // com.microsoft's QuantizeLinear and DequantizeLinear (int16 and int4
  // before opset 21) mean what the default domain's do.
  t.add(kMicrosoftDomain, "QuantizeLinear", 1, convertQuantizeLinear);
  t.add(kMicrosoftDomain, "DequantizeLinear", 1, convertDequantizeLinear);
}

} // namespace aicc::onnx_importer
