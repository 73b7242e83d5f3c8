//===- QuantArithmetic.cpp - Quantization as tile arithmetic --------------===//

#include "Tile/IR/QuantArithmetic.h"
#include "Tile/IR/Constants.h"
#include "Tile/IR/TileOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace aicc::tile;

namespace {

RankedTensorType typeOf(Value value) {
  return value ? dyn_cast<RankedTensorType>(value.getType())
               : RankedTensorType();
}

Value unary(OpBuilder &b, Location loc, UnaryKind kind, Value x) {
  if (!x)
    return Value();
  UnaryOp::Properties properties;
  properties.setKind(UnaryKindAttr::get(b.getContext(), kind));
  FailureOr<UnaryOp> op = createInferred<UnaryOp>(b, loc, {x}, properties);
  return succeeded(op) ? op->getResult() : Value();
}

Value cast(OpBuilder &b, Location loc, Value x, Type elementType) {
  RankedTensorType type = typeOf(x);
  if (!type)
    return Value();
  if (type.getElementType() == elementType)
    return x;
  return CastOp::create(b, loc, type.clone(elementType), x);
}

Value reshape(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> shape) {
  RankedTensorType type = typeOf(x);
  if (!type)
    return Value();
  auto target = RankedTensorType::get(shape, type.getElementType());
  if (target == type)
    return x;
  return ReshapeOp::create(b, loc, target, x);
}

} // namespace

Value aicc::tile::buildBinary(OpBuilder &b, Location loc, BinaryKind kind,
                              Value lhs, Value rhs) {
  if (!lhs || !rhs)
    return Value();
  BinaryOp::Properties properties;
  properties.setKind(BinaryKindAttr::get(b.getContext(), kind));
  FailureOr<BinaryOp> op =
      createInferred<BinaryOp>(b, loc, {lhs, rhs}, properties);
  return succeeded(op) ? op->getResult() : Value();
}

Value aicc::tile::buildScalar(OpBuilder &b, Location loc, Type elementType,
                              double value) {
  return ConstantOp::create(
      b, loc, numericElements(RankedTensorType::get({}, elementType), {value}));
}

Value aicc::tile::expandQuantParameter(OpBuilder &b, Location loc,
                                       Value parameter, ArrayRef<int64_t> shape,
                                       int64_t axis, int64_t blockSize) {
  RankedTensorType type = typeOf(parameter);
  if (!type)
    return Value();
  int64_t rank = shape.size();
  if (type.getRank() == 0 ||
      (blockSize == 0 && type.hasStaticShape() && type.getNumElements() == 1))
    return reshape(b, loc, parameter, {});
  if (axis < 0 || axis >= rank) {
    emitError(loc) << "quantization axis " << axis
                   << " is out of range for rank " << rank;
    return Value();
  }
  if (blockSize == 0) {
    if (type.getRank() != 1) {
      emitError(loc) << "per-axis quantization parameters must be 1-D";
      return Value();
    }
    SmallVector<int64_t> expanded(rank, 1);
    expanded[axis] = type.getDimSize(0);
    return reshape(b, loc, parameter, expanded);
  }

  // Blocked: [..., B, ...] -> [..., B, 1, ...] -> [..., B, block, ...] ->
  // [..., B * block, ...], then cut to the tensor's size along `axis`.
  if (type.getRank() != rank || !type.hasStaticShape() ||
      ShapedType::isDynamic(shape[axis])) {
    emitError(loc) << "blocked quantization needs parameters of the "
                      "tensor's rank and static sizes";
    return Value();
  }
  int64_t blocks = type.getDimSize(axis);
  if (blocks != (shape[axis] + blockSize - 1) / blockSize) {
    emitError(loc) << "blocked quantization: " << blocks
                   << " blocks along axis " << axis << " do not cover "
                   << shape[axis] << " elements in blocks of " << blockSize;
    return Value();
  }
  SmallVector<int64_t> split(type.getShape());
  split.insert(split.begin() + axis + 1, 1);
  Value value = reshape(b, loc, parameter, split);
  split[axis + 1] = blockSize;
  value = ExpandOp::create(b, loc, type.clone(split), value);
  SmallVector<int64_t> merged(type.getShape());
  merged[axis] = blocks * blockSize;
  value = reshape(b, loc, value, merged);
  if (merged[axis] == shape[axis])
    return value;
  SliceOp::Properties properties;
  SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
  SmallVector<int64_t> sizes(merged);
  sizes[axis] = shape[axis];
  properties.setStarts(b.getDenseI64ArrayAttr(starts));
  properties.setSizes(b.getDenseI64ArrayAttr(sizes));
  properties.setSteps(b.getDenseI64ArrayAttr(steps));
  FailureOr<SliceOp> slice =
      createInferred<SliceOp>(b, loc, {value}, properties);
  return succeeded(slice) ? slice->getResult() : Value();
}

Value aicc::tile::buildSaturatingStore(OpBuilder &b, Location loc, Value real,
                                       Value zeroPoint, Type storage) {
  RankedTensorType type = typeOf(real);
  if (!type)
    return Value();
  Type floatType = type.getElementType();
  if (isa<FloatType>(storage)) // fp8: a saturating conversion, no rounding.
    return cast(b, loc, real, storage);
  Value q = unary(b, loc, UnaryKind::round, real);
  if (zeroPoint)
    q = buildBinary(b, loc, BinaryKind::add, q,
                    cast(b, loc, zeroPoint, floatType));
  auto integer = cast<IntegerType>(storage);
  int width = integer.getWidth();
  bool isUnsigned = integer.isUnsigned();
  double low = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
  double high =
      isUnsigned ? std::ldexp(1.0, width) - 1 : std::ldexp(1.0, width - 1) - 1;
  q = buildBinary(b, loc, BinaryKind::max, q,
                  buildScalar(b, loc, floatType, low));
  q = buildBinary(b, loc, BinaryKind::min, q,
                  buildScalar(b, loc, floatType, high));
  return cast(b, loc, q, storage);
}

Value aicc::tile::buildQuantize(OpBuilder &b, Location loc, Value x,
                                Value scale, Value zeroPoint, Type storage) {
  RankedTensorType type = typeOf(x);
  if (!type || !scale)
    return Value();
  Value real = buildBinary(b, loc, BinaryKind::div, x,
                           cast(b, loc, scale, type.getElementType()));
  return buildSaturatingStore(b, loc, real, zeroPoint, storage);
}

Value aicc::tile::buildDequantize(OpBuilder &b, Location loc, Value q,
                                  Value scale, Value zeroPoint, Type real) {
  Value value = cast(b, loc, q, real);
  if (zeroPoint)
    value = buildBinary(b, loc, BinaryKind::sub, value,
                        cast(b, loc, zeroPoint, real));
  return buildBinary(b, loc, BinaryKind::mul, value, cast(b, loc, scale, real));
}

Value aicc::tile::buildQuantScales(OpBuilder &b, Location loc, QuantAttr quant,
                                   ArrayRef<int64_t> shape) {
  Value scales = ConstantOp::create(b, loc, quant.getScales());
  return expandQuantParameter(b, loc, scales, shape, quant.getAxis(),
                              quant.getBlockSize());
}

Value aicc::tile::buildQuantZeroPoints(OpBuilder &b, Location loc,
                                       QuantAttr quant,
                                       ArrayRef<int64_t> shape) {
  if (!quant.getZeroPoints())
    return Value();
  Value zeroPoints = ConstantOp::create(b, loc, quant.getZeroPoints());
  return expandQuantParameter(b, loc, zeroPoints, shape, quant.getAxis(),
                              quant.getBlockSize());
}
