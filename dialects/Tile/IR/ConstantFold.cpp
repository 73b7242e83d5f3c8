//===- ConstantFold.cpp - Compile-time evaluation of tile ops -------------===//

#include "Tile/IR/ConstantFold.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>

using namespace mlir;

namespace aicc::tile::fold {
namespace {

DenseElementsAttr asDense(Attribute attr) {
  return dyn_cast_or_null<DenseElementsAttr>(attr);
}

/// Whether folding may produce a result of `type`.
bool canProduce(RankedTensorType type, bool splat) {
  if (!type || !type.hasStaticShape() || type.getEncoding())
    return false;
  return splat || type.getNumElements() <= kMaxFoldedElements;
}

bool isUnsigned(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && (integer.isUnsigned() || integer.getWidth() == 1);
}

SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Calls `visit(linear, index)` for every element of `shape`, in row-major
/// order, with its multi-index.
template <typename Fn> void forEachIndex(ArrayRef<int64_t> shape, Fn &&visit) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    visit(linear, ArrayRef<int64_t>(index));
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

/// For each element of `resultShape`, the linear index of the element of an
/// operand of `operandShape` that numpy broadcasting makes it read.
SmallVector<int64_t> broadcastMap(ArrayRef<int64_t> operandShape,
                                  ArrayRef<int64_t> resultShape) {
  SmallVector<int64_t> strides = stridesOf(operandShape);
  int64_t offset = resultShape.size() - operandShape.size();
  SmallVector<int64_t> map;
  forEachIndex(resultShape, [&](int64_t, ArrayRef<int64_t> index) {
    int64_t linear = 0;
    for (size_t d = 0; d < operandShape.size(); ++d)
      if (operandShape[d] != 1)
        linear += index[d + offset] * strides[d];
    map.push_back(linear);
  });
  return map;
}

double toDouble(const APFloat &value) {
  APFloat copy = value;
  bool lost;
  copy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return copy.convertToDouble();
}

APFloat fromDouble(double value, const llvm::fltSemantics &semantics) {
  APFloat result(value);
  bool lost;
  result.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
  return result;
}

/// The elements of `attr` at `indices` (all of them when empty), as a new
/// attribute of `type`. Keeps splats splat.
Attribute gatherElements(DenseElementsAttr attr, RankedTensorType type,
                         ArrayRef<int64_t> indices) {
  if (attr.isSplat())
    return canProduce(type, true)
               ? DenseElementsAttr::get(type, attr.getSplatValue<Attribute>())
               : Attribute();
  if (!canProduce(type, false))
    return {};
  if (isa<FloatType>(attr.getElementType())) {
    auto values = attr.getValues<APFloat>();
    SmallVector<APFloat> result;
    result.reserve(indices.size());
    for (int64_t i : indices)
      result.push_back(values[i]);
    return DenseElementsAttr::get(type, result);
  }
  auto values = attr.getValues<APInt>();
  SmallVector<APInt> result;
  result.reserve(indices.size());
  for (int64_t i : indices)
    result.push_back(values[i]);
  return DenseElementsAttr::get(type, result);
}

/// Element-wise evaluation over broadcast operands: `compute(i)` yields the
/// result for element i of the result, given maps into each operand.
template <typename Value, typename Fn>
Attribute elementwise(ArrayRef<DenseElementsAttr> operands,
                      RankedTensorType resultType, Fn &&compute) {
  bool splat =
      llvm::all_of(operands, [](DenseElementsAttr a) { return a.isSplat(); });
  if (!canProduce(resultType, splat))
    return {};
  SmallVector<SmallVector<int64_t>> maps;
  ArrayRef<int64_t> shape = resultType.getShape();
  if (splat) {
    // One element decides all; compute it at index 0 of every operand.
    for (size_t i = 0; i < operands.size(); ++i)
      maps.push_back({0});
  } else {
    for (DenseElementsAttr operand : operands)
      maps.push_back(broadcastMap(operand.getType().getShape(), shape));
  }
  SmallVector<Value> results;
  size_t count = splat ? 1 : maps.front().size();
  if (!splat && maps.empty())
    return {};
  SmallVector<int64_t> at(operands.size());
  for (size_t i = 0; i < count; ++i) {
    for (size_t k = 0; k < operands.size(); ++k)
      at[k] = maps[k][i];
    std::optional<Value> value = compute(ArrayRef<int64_t>(at));
    if (!value)
      return {};
    results.push_back(std::move(*value));
  }
  if (splat)
    return DenseElementsAttr::get(resultType, results.front());
  return DenseElementsAttr::get(resultType, results);
}

//===----------------------------------------------------------------------===//
// Element functions
//===----------------------------------------------------------------------===//

std::optional<APInt> intBinary(BinaryKind kind, const APInt &a, const APInt &b,
                               bool isUnsignedType) {
  unsigned width = a.getBitWidth();
  switch (kind) {
  case BinaryKind::add:
    return a + b;
  case BinaryKind::sub:
    return a - b;
  case BinaryKind::mul:
    return a * b;
  case BinaryKind::div:
    if (b.isZero() ||
        (!isUnsignedType && a.isMinSignedValue() && b.isAllOnes()))
      return std::nullopt;
    return isUnsignedType ? a.udiv(b) : a.sdiv(b);
  case BinaryKind::max:
    return isUnsignedType ? llvm::APIntOps::umax(a, b)
                          : llvm::APIntOps::smax(a, b);
  case BinaryKind::min:
    return isUnsignedType ? llvm::APIntOps::umin(a, b)
                          : llvm::APIntOps::smin(a, b);
  case BinaryKind::pow: {
    if (!isUnsignedType && b.isNegative())
      return std::nullopt;
    APInt result(width, 1), base = a;
    for (uint64_t e = b.getLimitedValue(64); e; e >>= 1) {
      if (e & 1)
        result *= base;
      base *= base;
    }
    return result;
  }
  case BinaryKind::mod:
  case BinaryKind::rem: {
    if (b.isZero())
      return std::nullopt;
    if (isUnsignedType)
      return a.urem(b);
    APInt r = a.srem(b);
    if (kind == BinaryKind::mod && !r.isZero() &&
        r.isNegative() != b.isNegative())
      r += b;
    return r;
  }
  case BinaryKind::prelu:
    return !isUnsignedType && a.isNegative() ? a * b : a;
  case BinaryKind::logical_and:
  case BinaryKind::bitwise_and:
    return a & b;
  case BinaryKind::logical_or:
  case BinaryKind::bitwise_or:
    return a | b;
  case BinaryKind::logical_xor:
  case BinaryKind::bitwise_xor:
    return a ^ b;
  case BinaryKind::shift_left:
    return b.uge(width) ? APInt(width, 0) : a.shl(b);
  case BinaryKind::shift_right:
    if (b.uge(width))
      return isUnsignedType || !a.isNegative() ? APInt(width, 0)
                                               : APInt::getAllOnes(width);
    return isUnsignedType ? a.lshr(b) : a.ashr(b);
  }
  return std::nullopt;
}

std::optional<APFloat> floatBinary(BinaryKind kind, APFloat a,
                                   const APFloat &b) {
  const llvm::fltSemantics &semantics = a.getSemantics();
  switch (kind) {
  case BinaryKind::add:
    a.add(b, APFloat::rmNearestTiesToEven);
    return a;
  case BinaryKind::sub:
    a.subtract(b, APFloat::rmNearestTiesToEven);
    return a;
  case BinaryKind::mul:
    a.multiply(b, APFloat::rmNearestTiesToEven);
    return a;
  case BinaryKind::div:
    a.divide(b, APFloat::rmNearestTiesToEven);
    return a;
  case BinaryKind::max:
    return llvm::maximum(a, b);
  case BinaryKind::min:
    return llvm::minimum(a, b);
  case BinaryKind::pow:
    return fromDouble(std::pow(toDouble(a), toDouble(b)), semantics);
  case BinaryKind::rem:
    return fromDouble(std::fmod(toDouble(a), toDouble(b)), semantics);
  case BinaryKind::mod: {
    double x = toDouble(a), y = toDouble(b);
    double r = std::fmod(x, y);
    if (r != 0 && (r < 0) != (y < 0))
      r += y;
    return fromDouble(r, semantics);
  }
  case BinaryKind::prelu:
    if (a.isNegative())
      a.multiply(b, APFloat::rmNearestTiesToEven);
    return a;
  default:
    return std::nullopt;
  }
}

std::optional<double> floatUnary(UnaryKind kind, double x, double alpha,
                                 double beta) {
  switch (kind) {
  case UnaryKind::abs:
    return std::fabs(x);
  case UnaryKind::neg:
    return -x;
  case UnaryKind::sign:
    return std::isnan(x) ? x : double((x > 0) - (x < 0));
  case UnaryKind::relu:
    return x > 0 ? x : 0.0;
  case UnaryKind::exp:
    return std::exp(x);
  case UnaryKind::log:
    return std::log(x);
  case UnaryKind::sqrt:
    return std::sqrt(x);
  case UnaryKind::rsqrt:
    return 1.0 / std::sqrt(x);
  case UnaryKind::reciprocal:
    return 1.0 / x;
  case UnaryKind::sin:
    return std::sin(x);
  case UnaryKind::cos:
    return std::cos(x);
  case UnaryKind::tan:
    return std::tan(x);
  case UnaryKind::asin:
    return std::asin(x);
  case UnaryKind::acos:
    return std::acos(x);
  case UnaryKind::atan:
    return std::atan(x);
  case UnaryKind::sinh:
    return std::sinh(x);
  case UnaryKind::cosh:
    return std::cosh(x);
  case UnaryKind::tanh:
    return std::tanh(x);
  case UnaryKind::asinh:
    return std::asinh(x);
  case UnaryKind::acosh:
    return std::acosh(x);
  case UnaryKind::atanh:
    return std::atanh(x);
  case UnaryKind::erf:
    return std::erf(x);
  case UnaryKind::sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  case UnaryKind::floor:
    return std::floor(x);
  case UnaryKind::ceil:
    return std::ceil(x);
  case UnaryKind::round:
    return std::nearbyint(x); // Half to even in the default rounding mode.
  case UnaryKind::softplus:
    return std::log1p(std::exp(x));
  case UnaryKind::softsign:
    return x / (1.0 + std::fabs(x));
  case UnaryKind::leaky_relu:
    return x < 0 ? alpha * x : x;
  case UnaryKind::elu:
    return x < 0 ? alpha * (std::exp(x) - 1.0) : x;
  case UnaryKind::thresholded_relu:
    return x > alpha ? x : 0.0;
  default:
    return std::nullopt;
  }
}

std::optional<APInt> intUnary(UnaryKind kind, const APInt &x,
                              bool isUnsignedType) {
  unsigned width = x.getBitWidth();
  bool negative = !isUnsignedType && x.isNegative();
  switch (kind) {
  case UnaryKind::abs:
    return negative ? -x : x;
  case UnaryKind::neg:
    return -x;
  case UnaryKind::sign:
    return x.isZero() ? APInt(width, 0)
           : negative ? APInt::getAllOnes(width)
                      : APInt(width, 1);
  case UnaryKind::relu:
    return negative ? APInt(width, 0) : x;
  case UnaryKind::logical_not:
  case UnaryKind::bitwise_not:
    return ~x;
  default:
    return std::nullopt;
  }
}

bool compareInts(ComparePredicate predicate, const APInt &a, const APInt &b,
                 bool isUnsignedType) {
  switch (predicate) {
  case ComparePredicate::eq:
    return a == b;
  case ComparePredicate::ne:
    return a != b;
  case ComparePredicate::lt:
    return isUnsignedType ? a.ult(b) : a.slt(b);
  case ComparePredicate::le:
    return isUnsignedType ? a.ule(b) : a.sle(b);
  case ComparePredicate::gt:
    return isUnsignedType ? a.ugt(b) : a.sgt(b);
  case ComparePredicate::ge:
    return isUnsignedType ? a.uge(b) : a.sge(b);
  }
  return false;
}

bool compareFloats(ComparePredicate predicate, const APFloat &a,
                   const APFloat &b) {
  APFloat::cmpResult result = a.compare(b);
  switch (predicate) {
  case ComparePredicate::eq:
    return result == APFloat::cmpEqual;
  case ComparePredicate::ne:
    return result != APFloat::cmpEqual;
  case ComparePredicate::lt:
    return result == APFloat::cmpLessThan;
  case ComparePredicate::le:
    return result == APFloat::cmpLessThan || result == APFloat::cmpEqual;
  case ComparePredicate::gt:
    return result == APFloat::cmpGreaterThan;
  case ComparePredicate::ge:
    return result == APFloat::cmpGreaterThan || result == APFloat::cmpEqual;
  }
  return false;
}

} // namespace

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

Attribute unary(UnaryKind kind, Attribute input, std::optional<double> alpha,
                std::optional<double> beta, RankedTensorType resultType) {
  DenseElementsAttr in = asDense(input);
  if (!in)
    return {};
  Type element = in.getElementType();
  if (auto floatType = dyn_cast<FloatType>(element)) {
    auto values = in.getValues<APFloat>();
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    return elementwise<APFloat>(
        {in}, resultType, [&](ArrayRef<int64_t> at) -> std::optional<APFloat> {
          if (kind == UnaryKind::neg) {
            APFloat x = values[at[0]];
            x.changeSign();
            return x;
          }
          std::optional<double> r =
              floatUnary(kind, toDouble(values[at[0]]), alpha.value_or(0),
                         beta.value_or(0));
          if (!r)
            return std::nullopt;
          return fromDouble(*r, semantics);
        });
  }
  bool isUnsignedType = isUnsigned(element);
  auto values = in.getValues<APInt>();
  return elementwise<APInt>({in}, resultType, [&](ArrayRef<int64_t> at) {
    return intUnary(kind, values[at[0]], isUnsignedType);
  });
}

Attribute binary(BinaryKind kind, Attribute lhsAttr, Attribute rhsAttr,
                 RankedTensorType resultType) {
  DenseElementsAttr lhs = asDense(lhsAttr), rhs = asDense(rhsAttr);
  if (!lhs || !rhs)
    return {};
  Type element = lhs.getElementType();
  if (isa<FloatType>(element)) {
    auto a = lhs.getValues<APFloat>(), b = rhs.getValues<APFloat>();
    return elementwise<APFloat>({lhs, rhs}, resultType,
                                [&](ArrayRef<int64_t> at) {
                                  return floatBinary(kind, a[at[0]], b[at[1]]);
                                });
  }
  bool isUnsignedType = isUnsigned(element);
  auto a = lhs.getValues<APInt>(), b = rhs.getValues<APInt>();
  return elementwise<APInt>({lhs, rhs}, resultType, [&](ArrayRef<int64_t> at) {
    return intBinary(kind, a[at[0]], b[at[1]], isUnsignedType);
  });
}

Attribute compare(ComparePredicate predicate, Attribute lhsAttr,
                  Attribute rhsAttr, RankedTensorType resultType) {
  DenseElementsAttr lhs = asDense(lhsAttr), rhs = asDense(rhsAttr);
  if (!lhs || !rhs)
    return {};
  Type element = lhs.getElementType();
  if (isa<FloatType>(element)) {
    auto a = lhs.getValues<APFloat>(), b = rhs.getValues<APFloat>();
    return elementwise<APInt>(
        {lhs, rhs}, resultType, [&](ArrayRef<int64_t> at) {
          return std::optional<APInt>(
              APInt(1, compareFloats(predicate, a[at[0]], b[at[1]])));
        });
  }
  bool isUnsignedType = isUnsigned(element);
  auto a = lhs.getValues<APInt>(), b = rhs.getValues<APInt>();
  return elementwise<APInt>({lhs, rhs}, resultType, [&](ArrayRef<int64_t> at) {
    return std::optional<APInt>(
        APInt(1, compareInts(predicate, a[at[0]], b[at[1]], isUnsignedType)));
  });
}

Attribute select(Attribute conditionAttr, Attribute trueAttr,
                 Attribute falseAttr, RankedTensorType resultType) {
  DenseElementsAttr condition = asDense(conditionAttr);
  DenseElementsAttr onTrue = asDense(trueAttr), onFalse = asDense(falseAttr);
  if (!condition || !onTrue || !onFalse)
    return {};
  auto flags = condition.getValues<bool>();
  if (isa<FloatType>(onTrue.getElementType())) {
    auto a = onTrue.getValues<APFloat>(), b = onFalse.getValues<APFloat>();
    return elementwise<APFloat>(
        {condition, onTrue, onFalse}, resultType, [&](ArrayRef<int64_t> at) {
          return std::optional<APFloat>(flags[at[0]] ? a[at[1]] : b[at[2]]);
        });
  }
  auto a = onTrue.getValues<APInt>(), b = onFalse.getValues<APInt>();
  return elementwise<APInt>(
      {condition, onTrue, onFalse}, resultType, [&](ArrayRef<int64_t> at) {
        return std::optional<APInt>(flags[at[0]] ? a[at[1]] : b[at[2]]);
      });
}

Attribute cast(Attribute inputAttr, RankedTensorType resultType) {
  DenseElementsAttr input = asDense(inputAttr);
  if (!input)
    return {};
  Type from = input.getElementType(), to = resultType.getElementType();
  bool fromUnsigned = isUnsigned(from);
  if (auto toFloat = dyn_cast<FloatType>(to)) {
    const llvm::fltSemantics &semantics = toFloat.getFloatSemantics();
    if (isa<FloatType>(from)) {
      auto values = input.getValues<APFloat>();
      return elementwise<APFloat>(
          {input}, resultType, [&](ArrayRef<int64_t> at) {
            APFloat v = values[at[0]];
            bool lost;
            v.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
            return std::optional<APFloat>(v);
          });
    }
    auto values = input.getValues<APInt>();
    return elementwise<APFloat>({input}, resultType, [&](ArrayRef<int64_t> at) {
      APFloat v(semantics);
      v.convertFromAPInt(values[at[0]], !fromUnsigned,
                         APFloat::rmNearestTiesToEven);
      return std::optional<APFloat>(v);
    });
  }
  auto toInt = llvm::cast<IntegerType>(to);
  unsigned width = toInt.getWidth();
  bool toUnsigned = isUnsigned(to);
  if (isa<FloatType>(from)) {
    auto values = input.getValues<APFloat>();
    return elementwise<APInt>(
        {input}, resultType, [&](ArrayRef<int64_t> at) -> std::optional<APInt> {
          const APFloat &v = values[at[0]];
          if (width == 1)
            return APInt(1, !v.isZero());
          llvm::APSInt result(width, toUnsigned);
          bool exact;
          // Out-of-range and NaN conversions have no defined value.
          if (v.convertToInteger(result, APFloat::rmTowardZero, &exact) &
              APFloat::opInvalidOp)
            return std::nullopt;
          return APInt(result);
        });
  }
  auto values = input.getValues<APInt>();
  return elementwise<APInt>({input}, resultType, [&](ArrayRef<int64_t> at) {
    const APInt &v = values[at[0]];
    if (width == 1)
      return std::optional<APInt>(APInt(1, !v.isZero()));
    return std::optional<APInt>(fromUnsigned ? v.zextOrTrunc(width)
                                             : v.sextOrTrunc(width));
  });
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

Attribute gather(Attribute dataAttr, Attribute indicesAttr, int64_t axis,
                 RankedTensorType resultType) {
  DenseElementsAttr data = asDense(dataAttr), indices = asDense(indicesAttr);
  if (!data || !indices || !canProduce(resultType, data.isSplat()))
    return {};
  ArrayRef<int64_t> shape = data.getType().getShape();
  int64_t size = shape[axis];
  bool indexUnsigned = isUnsigned(indices.getElementType());
  SmallVector<int64_t> positions;
  for (const APInt &i : indices.getValues<APInt>()) {
    int64_t p = indexUnsigned ? int64_t(i.getZExtValue()) : i.getSExtValue();
    if (p < 0)
      p += size;
    if (p < 0 || p >= size)
      return {}; // Out of range: leave it to run time.
    positions.push_back(p);
  }
  if (data.isSplat())
    return DenseElementsAttr::get(resultType, data.getSplatValue<Attribute>());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  SmallVector<int64_t> map;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t p : positions)
      for (int64_t i = 0; i < inner; ++i)
        map.push_back((o * size + p) * inner + i);
  return gatherElements(data, resultType, map);
}

Attribute slice(Attribute inputAttr, ArrayRef<int64_t> starts,
                ArrayRef<int64_t> steps, RankedTensorType resultType) {
  DenseElementsAttr input = asDense(inputAttr);
  if (!input || !canProduce(resultType, input.isSplat()))
    return {};
  if (input.isSplat())
    return gatherElements(input, resultType, {});
  SmallVector<int64_t> strides = stridesOf(input.getType().getShape());
  SmallVector<int64_t> map;
  forEachIndex(resultType.getShape(), [&](int64_t, ArrayRef<int64_t> index) {
    int64_t linear = 0;
    for (size_t d = 0; d < index.size(); ++d)
      linear += (starts[d] + index[d] * steps[d]) * strides[d];
    map.push_back(linear);
  });
  return gatherElements(input, resultType, map);
}

Attribute concat(ArrayRef<Attribute> inputAttrs, int64_t axis,
                 RankedTensorType resultType) {
  SmallVector<DenseElementsAttr> inputs;
  for (Attribute attr : inputAttrs) {
    DenseElementsAttr dense = asDense(attr);
    if (!dense)
      return {};
    inputs.push_back(dense);
  }
  if (!canProduce(resultType, false))
    return {};
  bool isFloat = isa<FloatType>(resultType.getElementType());
  SmallVector<APFloat> floats;
  SmallVector<APInt> ints;
  ArrayRef<int64_t> shape = resultType.getShape();
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (DenseElementsAttr input : inputs) {
      ArrayRef<int64_t> inShape = input.getType().getShape();
      int64_t chunk = 1;
      for (size_t d = axis; d < inShape.size(); ++d)
        chunk *= inShape[d];
      for (int64_t i = 0; i < chunk; ++i) {
        int64_t at = input.isSplat() ? 0 : o * chunk + i;
        if (isFloat)
          floats.push_back(input.getValues<APFloat>()[at]);
        else
          ints.push_back(input.getValues<APInt>()[at]);
      }
    }
  return isFloat ? DenseElementsAttr::get(resultType, floats)
                 : DenseElementsAttr::get(resultType, ints);
}

Attribute transpose(Attribute inputAttr, ArrayRef<int64_t> permutation,
                    RankedTensorType resultType) {
  DenseElementsAttr input = asDense(inputAttr);
  if (!input || !canProduce(resultType, input.isSplat()))
    return {};
  if (input.isSplat())
    return gatherElements(input, resultType, {});
  SmallVector<int64_t> strides = stridesOf(input.getType().getShape());
  SmallVector<int64_t> map;
  forEachIndex(resultType.getShape(), [&](int64_t, ArrayRef<int64_t> index) {
    int64_t linear = 0;
    for (size_t d = 0; d < index.size(); ++d)
      linear += index[d] * strides[permutation[d]];
    map.push_back(linear);
  });
  return gatherElements(input, resultType, map);
}

Attribute broadcast(Attribute inputAttr, RankedTensorType resultType) {
  DenseElementsAttr input = asDense(inputAttr);
  if (!input || !canProduce(resultType, input.isSplat()))
    return {};
  if (input.isSplat())
    return gatherElements(input, resultType, {});
  return gatherElements(
      input, resultType,
      broadcastMap(input.getType().getShape(), resultType.getShape()));
}

Attribute tile(Attribute inputAttr, RankedTensorType resultType) {
  DenseElementsAttr input = asDense(inputAttr);
  if (!input || !canProduce(resultType, input.isSplat()))
    return {};
  if (input.isSplat())
    return gatherElements(input, resultType, {});
  ArrayRef<int64_t> inShape = input.getType().getShape();
  SmallVector<int64_t> strides = stridesOf(inShape);
  SmallVector<int64_t> map;
  forEachIndex(resultType.getShape(), [&](int64_t, ArrayRef<int64_t> index) {
    int64_t linear = 0;
    for (size_t d = 0; d < index.size(); ++d)
      linear += (index[d] % inShape[d]) * strides[d];
    map.push_back(linear);
  });
  return gatherElements(input, resultType, map);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Attribute reduce(ReduceKind kind, Attribute inputAttr, ArrayRef<int64_t> axes,
                 RankedTensorType resultType) {
  DenseElementsAttr input = asDense(inputAttr);
  if (!input || !canProduce(resultType, false) ||
      !input.getType().hasStaticShape())
    return {};
  ArrayRef<int64_t> shape = input.getType().getShape();
  if (input.getNumElements() > kMaxFoldedElements && !input.isSplat())
    return {};
  // The output position of every input element, reduced axes dropped.
  SmallVector<int64_t> kept;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!llvm::is_contained(axes, int64_t(d)))
      kept.push_back(d);
  SmallVector<int64_t> keptStrides(kept.size(), 1);
  for (int64_t k = static_cast<int64_t>(kept.size()) - 2; k >= 0; --k)
    keptStrides[k] = keptStrides[k + 1] * shape[kept[k + 1]];
  int64_t outCount = resultType.getNumElements();
  int64_t group = input.getNumElements() / std::max<int64_t>(outCount, 1);
  Type element = input.getElementType();

  if (auto floatType = dyn_cast<FloatType>(element)) {
    SmallVector<double> acc(outCount);
    double init = kind == ReduceKind::prod  ? 1.0
                  : kind == ReduceKind::max ? -INFINITY
                  : kind == ReduceKind::min ? INFINITY
                                            : 0.0;
    std::fill(acc.begin(), acc.end(), init);
    SmallVector<double> maxima(outCount, -INFINITY);
    auto values = input.getValues<APFloat>();
    if (kind == ReduceKind::log_sum_exp)
      forEachIndex(shape, [&](int64_t linear, ArrayRef<int64_t> index) {
        int64_t out = 0;
        for (size_t k = 0; k < kept.size(); ++k)
          out += index[kept[k]] * keptStrides[k];
        maxima[out] = std::max(maxima[out], toDouble(values[linear]));
      });
    forEachIndex(shape, [&](int64_t linear, ArrayRef<int64_t> index) {
      int64_t out = 0;
      for (size_t k = 0; k < kept.size(); ++k)
        out += index[kept[k]] * keptStrides[k];
      double x = toDouble(values[input.isSplat() ? 0 : linear]);
      double &a = acc[out];
      switch (kind) {
      case ReduceKind::sum:
      case ReduceKind::mean:
      case ReduceKind::log_sum:
        a += x;
        break;
      case ReduceKind::prod:
        a *= x;
        break;
      case ReduceKind::max:
        a = std::isnan(x) || std::isnan(a) ? NAN : std::max(a, x);
        break;
      case ReduceKind::min:
        a = std::isnan(x) || std::isnan(a) ? NAN : std::min(a, x);
        break;
      case ReduceKind::l1:
        a += std::fabs(x);
        break;
      case ReduceKind::l2:
      case ReduceKind::sum_square:
        a += x * x;
        break;
      case ReduceKind::log_sum_exp:
        a += std::exp(x - maxima[out]);
        break;
      }
    });
    SmallVector<APFloat> result;
    for (int64_t i = 0; i < outCount; ++i) {
      double a = acc[i];
      if (kind == ReduceKind::mean)
        a /= double(group);
      else if (kind == ReduceKind::l2)
        a = std::sqrt(a);
      else if (kind == ReduceKind::log_sum)
        a = std::log(a);
      else if (kind == ReduceKind::log_sum_exp)
        a = maxima[i] + std::log(a);
      result.push_back(fromDouble(a, floatType.getFloatSemantics()));
    }
    return DenseElementsAttr::get(resultType, result);
  }

  unsigned width = element.getIntOrFloatBitWidth();
  bool isUnsignedType = isUnsigned(element);
  if (kind != ReduceKind::sum && kind != ReduceKind::prod &&
      kind != ReduceKind::max && kind != ReduceKind::min &&
      kind != ReduceKind::mean && kind != ReduceKind::l1 &&
      kind != ReduceKind::sum_square)
    return {};
  APInt init = kind == ReduceKind::prod ? APInt(width, 1)
               : kind == ReduceKind::max
                   ? (isUnsignedType ? APInt::getMinValue(width)
                                     : APInt::getSignedMinValue(width))
               : kind == ReduceKind::min
                   ? (isUnsignedType ? APInt::getMaxValue(width)
                                     : APInt::getSignedMaxValue(width))
                   : APInt(width, 0);
  SmallVector<APInt> acc(outCount, init);
  auto values = input.getValues<APInt>();
  forEachIndex(shape, [&](int64_t linear, ArrayRef<int64_t> index) {
    int64_t out = 0;
    for (size_t k = 0; k < kept.size(); ++k)
      out += index[kept[k]] * keptStrides[k];
    APInt x = values[input.isSplat() ? 0 : linear];
    APInt &a = acc[out];
    switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::mean:
      a += x;
      break;
    case ReduceKind::prod:
      a *= x;
      break;
    case ReduceKind::max:
      a = isUnsignedType ? llvm::APIntOps::umax(a, x)
                         : llvm::APIntOps::smax(a, x);
      break;
    case ReduceKind::min:
      a = isUnsignedType ? llvm::APIntOps::umin(a, x)
                         : llvm::APIntOps::smin(a, x);
      break;
    case ReduceKind::l1:
      a += !isUnsignedType && x.isNegative() ? -x : x;
      break;
    case ReduceKind::sum_square:
      a += x * x;
      break;
    default:
      break;
    }
  });
  if (kind == ReduceKind::mean) {
    if (group == 0)
      return {};
    APInt divisor(width, group);
    for (APInt &a : acc)
      a = isUnsignedType ? a.udiv(divisor) : a.sdiv(divisor);
  }
  return DenseElementsAttr::get(resultType, acc);
}

} // namespace aicc::tile::fold
