//===- Scalar.cpp - Scalar arithmetic with ONNX semantics -----------------===//

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

#include <cmath>

using namespace mlir;
using namespace aicc::tile;

namespace aicc::tile_to_linalg {

bool isUnsigned(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && (integer.isUnsigned() || integer.getWidth() == 1);
}

Type elementTypeOf(Type tensorType) {
  return cast<ShapedType>(tensorType).getElementType();
}
Type elementTypeOf(Value tensor) { return elementTypeOf(tensor.getType()); }

Value ScalarBuilder::constant(Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  auto integer = cast<IntegerType>(type);
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(integer, APInt(integer.getWidth(),
                                      static_cast<uint64_t>(int64_t(value)),
                                      /*isSigned=*/true,
                                      /*implicitTrunc=*/true)));
}

Value ScalarBuilder::maximum(Value x, Value y, bool unsignedType) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  return unsignedType ? Value(arith::MaxUIOp::create(b, loc, x, y))
                      : Value(arith::MaxSIOp::create(b, loc, x, y));
}

Value ScalarBuilder::minimum(Value x, Value y, bool unsignedType) {
  if (isa<FloatType>(x.getType()))
    return arith::MinimumFOp::create(b, loc, x, y);
  return unsignedType ? Value(arith::MinUIOp::create(b, loc, x, y))
                      : Value(arith::MinSIOp::create(b, loc, x, y));
}

/// Runs `compute` in f32 when `x` is a narrower float, so transcendental
/// functions see f32 precision.
static Value inF32(OpBuilder &b, Location loc, Value x,
                   function_ref<Value(Value)> compute) {
  Type type = x.getType();
  if (!isa<FloatType>(type) || type.getIntOrFloatBitWidth() >= 32)
    return compute(x);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return arith::TruncFOp::create(b, loc, type, compute(wide));
}

Value ScalarBuilder::unary(UnaryKind kind, Value x, Type original,
                           std::optional<double> alpha,
                           std::optional<double> beta) {
  Type type = x.getType();
  if (isa<IntegerType>(type)) {
    bool unsignedType = isUnsigned(original);
    Value zero = constant(type, 0);
    switch (kind) {
    case UnaryKind::abs:
      return unsignedType ? x : Value(math::AbsIOp::create(b, loc, x));
    case UnaryKind::neg:
      return arith::SubIOp::create(b, loc, zero, x);
    case UnaryKind::relu:
      return unsignedType ? x : maximum(x, zero, false);
    case UnaryKind::sign: {
      Value one = constant(type, 1);
      Value positive = arith::CmpIOp::create(
          b, loc,
          unsignedType ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt,
          x, zero);
      Value negative =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
      Value minusOne = constant(type, -1);
      Value signOrZero = arith::SelectOp::create(b, loc, positive, one, zero);
      return unsignedType ? signOrZero
                          : Value(arith::SelectOp::create(
                                b, loc, negative, minusOne, signOrZero));
    }
    case UnaryKind::logical_not:
    case UnaryKind::bitwise_not:
      return arith::XOrIOp::create(b, loc, x, constant(type, -1));
    default:
      return nullptr;
    }
  }
  return inF32(b, loc, x, [&](Value v) -> Value {
    Type t = v.getType();
    auto c = [&](double value) { return constant(t, value); };
    auto mul = [&](Value p, Value q) -> Value {
      return arith::MulFOp::create(b, loc, p, q);
    };
    auto add = [&](Value p, Value q) -> Value {
      return arith::AddFOp::create(b, loc, p, q);
    };
    auto sub = [&](Value p, Value q) -> Value {
      return arith::SubFOp::create(b, loc, p, q);
    };
    auto div = [&](Value p, Value q) -> Value {
      return arith::DivFOp::create(b, loc, p, q);
    };
    auto select = [&](Value cond, Value p, Value q) -> Value {
      return arith::SelectOp::create(b, loc, cond, p, q);
    };
    auto cmp = [&](arith::CmpFPredicate predicate, Value p, Value q) -> Value {
      return arith::CmpFOp::create(b, loc, predicate, p, q);
    };
    auto expm1 = [&](Value p) -> Value {
      return math::ExpM1Op::create(b, loc, p);
    };
    auto softplus = [&](Value p) -> Value {
      // max(p, 0) + log1p(exp(-|p|)): no overflow for large |p|.
      Value negAbs =
          arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, p));
      return add(
          arith::MaximumFOp::create(b, loc, p, c(0)),
          math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, negAbs)));
    };
    double a = alpha.value_or(0), bb = beta.value_or(0);
    switch (kind) {
    case UnaryKind::abs:
      return math::AbsFOp::create(b, loc, v);
    case UnaryKind::neg:
      return arith::NegFOp::create(b, loc, v);
    case UnaryKind::sign: {
      Value positive =
          select(cmp(arith::CmpFPredicate::OGT, v, c(0)), c(1), c(0));
      Value signed_ =
          select(cmp(arith::CmpFPredicate::OLT, v, c(0)), c(-1), positive);
      // NaN stays NaN.
      return select(cmp(arith::CmpFPredicate::UNO, v, v), v, signed_);
    }
    case UnaryKind::relu:
      return arith::MaximumFOp::create(b, loc, v, c(0));
    case UnaryKind::exp:
      return math::ExpOp::create(b, loc, v);
    case UnaryKind::log:
      return math::LogOp::create(b, loc, v);
    case UnaryKind::sqrt:
      return math::SqrtOp::create(b, loc, v);
    case UnaryKind::rsqrt:
      return math::RsqrtOp::create(b, loc, v);
    case UnaryKind::reciprocal:
      return div(c(1), v);
    case UnaryKind::sin:
      return math::SinOp::create(b, loc, v);
    case UnaryKind::cos:
      return math::CosOp::create(b, loc, v);
    case UnaryKind::tan:
      return math::TanOp::create(b, loc, v);
    case UnaryKind::asin:
      return math::AsinOp::create(b, loc, v);
    case UnaryKind::acos:
      return math::AcosOp::create(b, loc, v);
    case UnaryKind::atan:
      return math::AtanOp::create(b, loc, v);
    case UnaryKind::sinh:
      return math::SinhOp::create(b, loc, v);
    case UnaryKind::cosh:
      return math::CoshOp::create(b, loc, v);
    case UnaryKind::tanh:
      return math::TanhOp::create(b, loc, v);
    case UnaryKind::asinh:
      return math::AsinhOp::create(b, loc, v);
    case UnaryKind::acosh:
      return math::AcoshOp::create(b, loc, v);
    case UnaryKind::atanh:
      return math::AtanhOp::create(b, loc, v);
    case UnaryKind::erf:
      return math::ErfOp::create(b, loc, v);
    case UnaryKind::sigmoid:
      return div(c(1),
                 add(c(1), math::ExpOp::create(
                               b, loc, arith::NegFOp::create(b, loc, v))));
    case UnaryKind::floor:
      return math::FloorOp::create(b, loc, v);
    case UnaryKind::ceil:
      return math::CeilOp::create(b, loc, v);
    case UnaryKind::round:
      return math::RoundEvenOp::create(b, loc, v);
    case UnaryKind::softplus:
      return softplus(v);
    case UnaryKind::softsign:
      return div(v, add(c(1), math::AbsFOp::create(b, loc, v)));
    case UnaryKind::gelu:
      return mul(mul(c(0.5), v),
                 add(c(1), math::ErfOp::create(b, loc, mul(v, c(M_SQRT1_2)))));
    case UnaryKind::gelu_tanh: {
      Value cube = mul(mul(v, v), v);
      Value inner =
          mul(c(std::sqrt(2.0 / M_PI)), add(v, mul(c(0.044715), cube)));
      return mul(mul(c(0.5), v),
                 add(c(1), math::TanhOp::create(b, loc, inner)));
    }
    case UnaryKind::hard_swish: {
      Value gate = arith::MinimumFOp::create(
          b, loc, c(1),
          arith::MaximumFOp::create(b, loc, c(0),
                                    add(mul(v, c(1.0 / 6)), c(0.5))));
      return mul(v, gate);
    }
    case UnaryKind::mish:
      return mul(v, math::TanhOp::create(b, loc, softplus(v)));
    case UnaryKind::leaky_relu:
      return select(cmp(arith::CmpFPredicate::OLT, v, c(0)), mul(c(a), v), v);
    case UnaryKind::elu:
      return select(cmp(arith::CmpFPredicate::OLT, v, c(0)),
                    mul(c(a), expm1(v)), v);
    case UnaryKind::celu: {
      Value negative = mul(c(a), expm1(div(v, c(a))));
      return add(arith::MaximumFOp::create(b, loc, v, c(0)),
                 arith::MinimumFOp::create(b, loc, negative, c(0)));
    }
    case UnaryKind::thresholded_relu:
      return select(cmp(arith::CmpFPredicate::OGT, v, c(a)), v, c(0));
    case UnaryKind::selu:
      return mul(c(bb), select(cmp(arith::CmpFPredicate::OLE, v, c(0)),
                               mul(c(a), expm1(v)), v));
    case UnaryKind::hard_sigmoid:
      return arith::MaximumFOp::create(
          b, loc, c(0),
          arith::MinimumFOp::create(b, loc, c(1), add(mul(c(a), v), c(bb))));
    case UnaryKind::shrink:
      return select(
          cmp(arith::CmpFPredicate::OLT, v, c(-a)), add(v, c(bb)),
          select(cmp(arith::CmpFPredicate::OGT, v, c(a)), sub(v, c(bb)), c(0)));
    default:
      return nullptr;
    }
  });
}

Value ScalarBuilder::binary(BinaryKind kind, Value x, Value y, Type original) {
  Type type = x.getType();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    switch (kind) {
    case BinaryKind::add:
      return arith::AddFOp::create(b, loc, x, y);
    case BinaryKind::sub:
      return arith::SubFOp::create(b, loc, x, y);
    case BinaryKind::mul:
      return arith::MulFOp::create(b, loc, x, y);
    case BinaryKind::div:
      return arith::DivFOp::create(b, loc, x, y);
    case BinaryKind::max:
      return arith::MaximumFOp::create(b, loc, x, y);
    case BinaryKind::min:
      return arith::MinimumFOp::create(b, loc, x, y);
    case BinaryKind::pow:
      return inF32(b, loc, x, [&](Value wideX) -> Value {
        Value wideY =
            wideX.getType() == y.getType()
                ? y
                : Value(arith::ExtFOp::create(b, loc, wideX.getType(), y));
        return math::PowFOp::create(b, loc, wideX, wideY);
      });
    case BinaryKind::rem:
      return arith::RemFOp::create(b, loc, x, y);
    case BinaryKind::mod: {
      // Python's %: the remainder takes the divisor's sign.
      Value r = arith::RemFOp::create(b, loc, x, y);
      Value zero = constant(type, 0);
      Value nonZero =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, r, zero);
      Value rNegative =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, r, zero);
      Value yNegative =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, y, zero);
      Value differ = arith::XOrIOp::create(b, loc, rNegative, yNegative);
      Value fix = arith::AndIOp::create(b, loc, nonZero, differ);
      return arith::SelectOp::create(b, loc, fix,
                                     arith::AddFOp::create(b, loc, r, y), r);
    }
    case BinaryKind::prelu: {
      Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                             x, constant(type, 0));
      return arith::SelectOp::create(b, loc, negative,
                                     arith::MulFOp::create(b, loc, x, y), x);
    }
    default:
      return nullptr;
    }
  }
  bool unsignedType = isUnsigned(original);
  unsigned width = type.getIntOrFloatBitWidth();
  switch (kind) {
  case BinaryKind::add:
    return arith::AddIOp::create(b, loc, x, y);
  case BinaryKind::sub:
    return arith::SubIOp::create(b, loc, x, y);
  case BinaryKind::mul:
    return arith::MulIOp::create(b, loc, x, y);
  case BinaryKind::div:
    return unsignedType ? Value(arith::DivUIOp::create(b, loc, x, y))
                        : Value(arith::DivSIOp::create(b, loc, x, y));
  case BinaryKind::max:
    return maximum(x, y, unsignedType);
  case BinaryKind::min:
    return minimum(x, y, unsignedType);
  case BinaryKind::pow:
    return math::IPowIOp::create(b, loc, x, y);
  case BinaryKind::rem:
    return unsignedType ? Value(arith::RemUIOp::create(b, loc, x, y))
                        : Value(arith::RemSIOp::create(b, loc, x, y));
  case BinaryKind::mod: {
    if (unsignedType)
      return arith::RemUIOp::create(b, loc, x, y);
    Value r = arith::RemSIOp::create(b, loc, x, y);
    Value zero = constant(type, 0);
    Value nonZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero);
    Value rNegative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, zero);
    Value yNegative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, zero);
    Value fix = arith::AndIOp::create(
        b, loc, nonZero, arith::XOrIOp::create(b, loc, rNegative, yNegative));
    return arith::SelectOp::create(b, loc, fix,
                                   arith::AddIOp::create(b, loc, r, y), r);
  }
  case BinaryKind::prelu: {
    if (unsignedType)
      return x;
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x,
                                           constant(type, 0));
    return arith::SelectOp::create(b, loc, negative,
                                   arith::MulIOp::create(b, loc, x, y), x);
  }
  case BinaryKind::logical_and:
  case BinaryKind::bitwise_and:
    return arith::AndIOp::create(b, loc, x, y);
  case BinaryKind::logical_or:
  case BinaryKind::bitwise_or:
    return arith::OrIOp::create(b, loc, x, y);
  case BinaryKind::logical_xor:
  case BinaryKind::bitwise_xor:
    return arith::XOrIOp::create(b, loc, x, y);
  case BinaryKind::shift_left:
  case BinaryKind::shift_right: {
    // Shifting by the width or more gives 0 (or -1 for a negative value
    // shifted right), not poison.
    Value tooFar = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, y,
                                         constant(type, width));
    Value safe = arith::SelectOp::create(b, loc, tooFar, constant(type, 0), y);
    Value shifted;
    Value overflow = constant(type, 0);
    if (kind == BinaryKind::shift_left) {
      shifted = arith::ShLIOp::create(b, loc, x, safe);
    } else if (unsignedType) {
      shifted = arith::ShRUIOp::create(b, loc, x, safe);
    } else {
      shifted = arith::ShRSIOp::create(b, loc, x, safe);
      overflow = arith::ShRSIOp::create(b, loc, x, constant(type, width - 1));
    }
    return arith::SelectOp::create(b, loc, tooFar, overflow, shifted);
  }
  }
  return nullptr;
}

Value ScalarBuilder::compare(ComparePredicate predicate, Value x, Value y,
                             Type original) {
  if (isa<FloatType>(x.getType())) {
    arith::CmpFPredicate p;
    switch (predicate) {
    case ComparePredicate::eq:
      p = arith::CmpFPredicate::OEQ;
      break;
    case ComparePredicate::ne:
      p = arith::CmpFPredicate::UNE;
      break;
    case ComparePredicate::lt:
      p = arith::CmpFPredicate::OLT;
      break;
    case ComparePredicate::le:
      p = arith::CmpFPredicate::OLE;
      break;
    case ComparePredicate::gt:
      p = arith::CmpFPredicate::OGT;
      break;
    case ComparePredicate::ge:
      p = arith::CmpFPredicate::OGE;
      break;
    }
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  bool u = isUnsigned(original);
  arith::CmpIPredicate p;
  switch (predicate) {
  case ComparePredicate::eq:
    p = arith::CmpIPredicate::eq;
    break;
  case ComparePredicate::ne:
    p = arith::CmpIPredicate::ne;
    break;
  case ComparePredicate::lt:
    p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case ComparePredicate::le:
    p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case ComparePredicate::gt:
    p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case ComparePredicate::ge:
    p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, p, x, y);
}

Value ScalarBuilder::classify(ClassifyKind kind, Value x) {
  Type type = x.getType();
  if (kind == ClassifyKind::nan)
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value infinity = constant(type, INFINITY);
  switch (kind) {
  case ClassifyKind::pos_inf:
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                 infinity);
  case ClassifyKind::neg_inf:
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                 constant(type, -INFINITY));
  default:
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                 math::AbsFOp::create(b, loc, x), infinity);
  }
}

Value ScalarBuilder::convert(Value x, Type from, Type to) {
  Type source = x.getType();
  Type target =
      isa<FloatType>(to)
          ? to
          : Type(IntegerType::get(b.getContext(), to.getIntOrFloatBitWidth()));
  if (source == target)
    return x;
  bool fromUnsigned = isUnsigned(from);
  if (isa<FloatType>(source) && isa<FloatType>(target)) {
    if (source.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, target, x);
    return arith::TruncFOp::create(b, loc, target, x);
  }
  if (isa<FloatType>(source)) {
    if (target.isInteger(1))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                   constant(source, 0));
    return isUnsigned(to) ? Value(arith::FPToUIOp::create(b, loc, target, x))
                          : Value(arith::FPToSIOp::create(b, loc, target, x));
  }
  if (isa<FloatType>(target))
    return fromUnsigned ? Value(arith::UIToFPOp::create(b, loc, target, x))
                        : Value(arith::SIToFPOp::create(b, loc, target, x));
  unsigned fromWidth = source.getIntOrFloatBitWidth();
  unsigned toWidth = target.getIntOrFloatBitWidth();
  if (toWidth == 1)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                 constant(source, 0));
  if (fromWidth < toWidth)
    return fromUnsigned ? Value(arith::ExtUIOp::create(b, loc, target, x))
                        : Value(arith::ExtSIOp::create(b, loc, target, x));
  return arith::TruncIOp::create(b, loc, target, x);
}

Value ScalarBuilder::reductionIdentity(ReduceKind kind, Type type,
                                       bool unsignedType) {
  auto floatType = dyn_cast<FloatType>(type);
  switch (kind) {
  case ReduceKind::prod:
    return constant(type, 1);
  case ReduceKind::max:
    if (floatType)
      return constant(type, -INFINITY);
    return arith::ConstantOp::create(
        b, loc,
        b.getIntegerAttr(
            type,
            unsignedType
                ? APInt::getMinValue(type.getIntOrFloatBitWidth())
                : APInt::getSignedMinValue(type.getIntOrFloatBitWidth())));
  case ReduceKind::min:
    if (floatType)
      return constant(type, INFINITY);
    return arith::ConstantOp::create(
        b, loc,
        b.getIntegerAttr(
            type,
            unsignedType
                ? APInt::getMaxValue(type.getIntOrFloatBitWidth())
                : APInt::getSignedMaxValue(type.getIntOrFloatBitWidth())));
  default:
    return constant(type, 0);
  }
}

Value ScalarBuilder::accumulate(ReduceKind kind, Value acc, Value x,
                                bool unsignedType) {
  bool isFloat = isa<FloatType>(x.getType());
  auto add = [&](Value p, Value q) -> Value {
    return isFloat ? Value(arith::AddFOp::create(b, loc, p, q))
                   : Value(arith::AddIOp::create(b, loc, p, q));
  };
  auto mul = [&](Value p, Value q) -> Value {
    return isFloat ? Value(arith::MulFOp::create(b, loc, p, q))
                   : Value(arith::MulIOp::create(b, loc, p, q));
  };
  switch (kind) {
  case ReduceKind::sum:
  case ReduceKind::mean:
  case ReduceKind::log_sum:
    return add(acc, x);
  case ReduceKind::prod:
    return mul(acc, x);
  case ReduceKind::max:
    return maximum(acc, x, unsignedType);
  case ReduceKind::min:
    return minimum(acc, x, unsignedType);
  case ReduceKind::l1:
    return add(acc, isFloat        ? Value(math::AbsFOp::create(b, loc, x))
                    : unsignedType ? x
                                   : Value(math::AbsIOp::create(b, loc, x)));
  case ReduceKind::l2:
  case ReduceKind::sum_square:
    return add(acc, mul(x, x));
  case ReduceKind::log_sum_exp:
    return add(acc, math::ExpOp::create(b, loc, x));
  }
  return nullptr;
}

} // namespace aicc::tile_to_linalg
