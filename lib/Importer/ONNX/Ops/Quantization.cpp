//===- Quantization.cpp - QuantizeLinear, DequantizeLinear, QLinear* ------===//
//
// The ONNX quantization operators as integer and float arithmetic on tile
// ops: y = saturate(round(x / scale) + zero_point), x = (q - zero_point) *
// scale, and integer contractions accumulated in i32 then requantized.
// tile-quantize later recognizes these patterns for quantized kernels.
//
//===----------------------------------------------------------------------===//

#include "../ImporterInternal.h"

#include <cmath>

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// A per-axis parameter (scale or zero point) shaped to broadcast along
/// `axis` (ONNX numbering) of a tensor of `rank`; scalars and 1-element
/// tensors stay scalars, and only per-axis parameters check the axis.
Value alongAxis(NodeContext &c, Value parameter, int64_t onnxAxis,
                int64_t rank) {
  RankedTensorType type = NodeContext::typeOf(parameter);
  if (!type)
    return c.fail();
  if (type.getRank() == 0 ||
      (type.hasStaticShape() && type.getNumElements() == 1))
    return c.reshape(parameter, {});
  if (type.getRank() != 1) {
    c.error() << "quantization parameters must be scalars or 1-D";
    return Value();
  }
  std::optional<int64_t> axis = c.normalizeAxis(onnxAxis, rank);
  if (!axis)
    return Value();
  SmallVector<int64_t> shape(rank, 1);
  shape[*axis] = type.getDimSize(0);
  return c.reshape(parameter, shape);
}

/// Rounds `real` (a float tensor) half to even, adds the zero point and
/// saturates into `target`, the integer type of the result.
Value saturate(NodeContext &c, Value real, Value zeroPoint, Type target) {
  Type floatType = NodeContext::typeOf(real)
                       ? NodeContext::typeOf(real).getElementType()
                       : Type();
  if (!floatType)
    return c.fail();
  if (isa<FloatType>(target)) // fp8: convert (saturating) with no rounding.
    return c.cast(real, target);
  Value q = c.unary(UnaryKind::round, real);
  if (zeroPoint)
    q = c.binary(BinaryKind::add, q, c.cast(zeroPoint, floatType));
  auto integer = cast<IntegerType>(target);
  int width = integer.getWidth();
  bool isUnsigned = integer.isUnsigned();
  double low = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
  double high =
      isUnsigned ? std::ldexp(1.0, width) - 1 : std::ldexp(1.0, width - 1) - 1;
  q = c.binary(BinaryKind::max, q, c.scalarLike(q, low));
  q = c.binary(BinaryKind::min, q, c.scalarLike(q, high));
  return c.cast(q, target);
}

/// The element type of a quantized output: the zero point's, else the
/// output_dtype attribute (opset 21), else uint8.
Type quantizedType(NodeContext &c, Value zeroPoint) {
  if (RankedTensorType type = NodeContext::typeOf(zeroPoint))
    return type.getElementType();
  if (std::optional<int64_t> dtype = c.getOptionalInt("output_dtype"))
    if (*dtype != 0)
      return convertElementType(c.getContext(), *dtype);
  return IntegerType::get(c.getContext(), 8, IntegerType::Unsigned);
}

LogicalResult convertQuantizeLinear(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  if (c.getInt("block_size", 0) != 0) {
    c.error() << "blocked quantization is not supported";
    return failure();
  }
  int64_t axis = c.getInt("axis", 1);
  Value zeroPoint = c.optionalInput(2);
  Value scale = alongAxis(c, c.cast(c.input(1), type.getElementType()), axis,
                          type.getRank());
  Value zp =
      zeroPoint ? alongAxis(c, zeroPoint, axis, type.getRank()) : Value();
  Value real = c.binary(BinaryKind::div, x, scale);
  return c.setOutputs({saturate(c, real, zp, quantizedType(c, zeroPoint))});
}

LogicalResult convertDequantizeLinear(NodeContext &c) {
  Value x = c.input(0), scale = c.input(1);
  RankedTensorType type = NodeContext::typeOf(x);
  RankedTensorType scaleType = NodeContext::typeOf(scale);
  if (!type || !scaleType)
    return failure();
  int64_t axis = c.getInt("axis", 1);
  Type real = scaleType.getElementType();
  Value value = c.cast(x, real);
  if (Value zp = c.optionalInput(2))
    value = c.binary(BinaryKind::sub, value,
                     c.cast(alongAxis(c, zp, axis, type.getRank()), real));
  return c.setOutputs({c.binary(BinaryKind::mul, value,
                                alongAxis(c, scale, axis, type.getRank()))});
}

LogicalResult convertDynamicQuantizeLinear(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
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
  return c.setOutputs({y, scale, zp});
}

/// `q` as i32 minus its zero point, the zero point shaped by `shapeZp`.
Value centered(NodeContext &c, Value q, Value zp,
               function_ref<Value(Value)> shapeZp) {
  Type i32 = c.builder().getI32Type();
  Value wide = c.cast(q, i32);
  return zp ? c.binary(BinaryKind::sub, wide, shapeZp(c.cast(zp, i32))) : wide;
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

void registerQuantizationOps(OpTable &t) {
  t.add("QuantizeLinear", 10, convertQuantizeLinear);
  t.add("DequantizeLinear", 10, convertDequantizeLinear);
  t.add("DynamicQuantizeLinear", 11, convertDynamicQuantizeLinear);
  t.add("QLinearMatMul", 10, convertQLinearMatMul);
  t.add("QLinearConv", 10, convertQLinearConv);
}

} // namespace aicc::onnx_importer
