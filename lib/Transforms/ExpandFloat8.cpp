//===- ExpandFloat8.cpp - 8-bit float conversions as integer arithmetic --===//
//
// LLVM has no 8-bit float types: MLIR's LLVM lowering stores them as i8 but
// cannot convert them. This pass writes the conversions out on the bits.
//
//===----------------------------------------------------------------------===//

#include "aicc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace aicc {
#define GEN_PASS_DEF_EXPANDFLOAT8PASS
#include "aicc/Transforms/Passes.h.inc"
} // namespace aicc

using namespace mlir;

namespace {

/// The layout of an 8-bit float type.
struct Float8Format {
  int exponentBits, mantissaBits, bias;
  /// Whether the type has no negative zero (0x80 is its only NaN).
  bool fnuz;
  /// Whether the top exponent holds infinities and NaNs (E5M2).
  bool ieee;
  /// The largest finite value's code, and the NaN code narrowing writes.
  int64_t maxCode, nanCode;
};

std::optional<Float8Format> formatOf(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return Float8Format{4, 3, 7, false, false, 0x7e, 0x7f};
  if (isa<Float8E4M3FNUZType>(type))
    return Float8Format{4, 3, 8, true, false, 0x7f, 0x80};
  if (isa<Float8E5M2Type>(type))
    return Float8Format{5, 2, 15, false, true, 0x7b, 0x7f};
  if (isa<Float8E5M2FNUZType>(type))
    return Float8Format{5, 2, 16, true, false, 0x7f, 0x80};
  return std::nullopt;
}

/// Builds constants and ops shaped like a scalar or vector of `like`.
class Builder {
public:
  Builder(PatternRewriter &rewriter, Location loc, Type like)
      : b(rewriter), loc(loc), shape(dyn_cast<VectorType>(like)) {}

  Type of(Type element) { return shape ? Type(shape.clone(element)) : element; }
  Value i32(int64_t value) {
    Type type = of(b.getI32Type());
    TypedAttr attr = b.getI32IntegerAttr(static_cast<int32_t>(value));
    if (shape)
      attr = SplatElementsAttr::get(cast<ShapedType>(type), attr);
    return arith::ConstantOp::create(b, loc, type, attr);
  }
  Value f32(double value) {
    Type type = of(b.getF32Type());
    TypedAttr attr = b.getF32FloatAttr(static_cast<float>(value));
    if (shape)
      attr = SplatElementsAttr::get(cast<ShapedType>(type), attr);
    return arith::ConstantOp::create(b, loc, type, attr);
  }
  Value eq(Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, rhs);
  }
  Value select(Value condition, Value onTrue, Value onFalse) {
    return arith::SelectOp::create(b, loc, condition, onTrue, onFalse);
  }
  Value bits(Value value, Type element) {
    return arith::BitcastOp::create(b, loc, of(element), value);
  }

  PatternRewriter &b;
  Location loc;
  VectorType shape;
};

/// arith.extf from an 8-bit float.
struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type source = getElementTypeOrSelf(op.getIn().getType());
    std::optional<Float8Format> f = formatOf(source);
    if (!f)
      return failure();
    Builder b(rewriter, op.getLoc(), op.getIn().getType());
    int e = f->exponentBits, m = f->mantissaBits;
    Value byte = b.bits(op.getIn(), rewriter.getI8Type());
    Value w = arith::ExtUIOp::create(rewriter, b.loc,
                                     b.of(rewriter.getI32Type()), byte);
    Value sign = arith::AndIOp::create(rewriter, b.loc, w, b.i32(0x80));
    Value exponent = arith::AndIOp::create(
        rewriter, b.loc, arith::ShRUIOp::create(rewriter, b.loc, w, b.i32(m)),
        b.i32((1 << e) - 1));
    Value mantissa =
        arith::AndIOp::create(rewriter, b.loc, w, b.i32((1 << m) - 1));
    // Normal: the f32 with the same sign, the exponent rebiased and the
    // mantissa at the top of f32's.
    Value normalBits = arith::OrIOp::create(
        rewriter, b.loc,
        arith::ShLIOp::create(rewriter, b.loc, sign, b.i32(24)),
        arith::OrIOp::create(
            rewriter, b.loc,
            arith::ShLIOp::create(rewriter, b.loc,
                                  arith::AddIOp::create(rewriter, b.loc,
                                                        exponent,
                                                        b.i32(127 - f->bias)),
                                  b.i32(23)),
            arith::ShLIOp::create(rewriter, b.loc, mantissa, b.i32(23 - m))));
    Value normal = b.bits(normalBits, rewriter.getF32Type());
    // Subnormal (and zero): mantissa x the smallest subnormal, signed.
    Value magnitude = arith::MulFOp::create(
        rewriter, b.loc,
        arith::UIToFPOp::create(rewriter, b.loc, b.of(rewriter.getF32Type()),
                                mantissa),
        b.f32(std::ldexp(1.0, 1 - f->bias - m)));
    Value negative = arith::CmpIOp::create(
        rewriter, b.loc, arith::CmpIPredicate::ne, sign, b.i32(0));
    Value subnormal = b.select(
        negative, arith::NegFOp::create(rewriter, b.loc, magnitude), magnitude);
    Value value = b.select(b.eq(exponent, b.i32(0)), subnormal, normal);
    Value nan = b.f32(std::nan(""));
    if (f->fnuz) {
      value = b.select(b.eq(w, b.i32(0x80)), nan, value);
    } else if (f->ieee) {
      Value infinity = b.select(negative, b.f32(-INFINITY), b.f32(INFINITY));
      Value special = b.select(b.eq(mantissa, b.i32(0)), infinity, nan);
      value = b.select(b.eq(exponent, b.i32((1 << e) - 1)), special, value);
    } else {
      Value low = arith::AndIOp::create(rewriter, b.loc, w, b.i32(0x7f));
      value = b.select(b.eq(low, b.i32(0x7f)), nan, value);
    }
    Type result = op.getType();
    Type resultElement = getElementTypeOrSelf(result);
    if (resultElement.isF32())
      rewriter.replaceOp(op, value);
    else if (resultElement.getIntOrFloatBitWidth() > 32)
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, result, value);
    else // f16, bf16: every 8-bit float value is exact in both.
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, result, value);
    return success();
  }
};

/// arith.truncf to an 8-bit float.
struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type target = getElementTypeOrSelf(op.getType());
    std::optional<Float8Format> f = formatOf(target);
    if (!f)
      return failure();
    Builder b(rewriter, op.getLoc(), op.getType());
    int m = f->mantissaBits;
    Value x = op.getIn();
    Type element = getElementTypeOrSelf(x.getType());
    Type f32 = b.of(rewriter.getF32Type());
    if (element.getIntOrFloatBitWidth() > 32)
      x = arith::TruncFOp::create(rewriter, b.loc, f32, x);
    else if (!element.isF32())
      x = arith::ExtFOp::create(rewriter, b.loc, f32, x);
    Value w = b.bits(x, rewriter.getI32Type());
    Value sign = arith::AndIOp::create(
        rewriter, b.loc, arith::ShRUIOp::create(rewriter, b.loc, w, b.i32(24)),
        b.i32(0x80));
    Value absBits =
        arith::AndIOp::create(rewriter, b.loc, w, b.i32(0x7fffffff));
    Value abs = b.bits(absBits, rewriter.getF32Type());
    // Normal: round f32's mantissa to m bits (to nearest, ties to even),
    // then rebias; a carry out of the mantissa moves to the exponent.
    int drop = 23 - m;
    Value odd = arith::AndIOp::create(
        rewriter, b.loc,
        arith::ShRUIOp::create(rewriter, b.loc, absBits, b.i32(drop)),
        b.i32(1));
    Value rounded = arith::ShRUIOp::create(
        rewriter, b.loc,
        arith::AddIOp::create(
            rewriter, b.loc,
            arith::AddIOp::create(rewriter, b.loc, absBits,
                                  b.i32((1 << (drop - 1)) - 1)),
            odd),
        b.i32(drop));
    Value normal = arith::SubIOp::create(rewriter, b.loc, rounded,
                                         b.i32((127 - f->bias) << m));
    // Below the smallest normal: the count of smallest subnormals, rounded
    // to nearest even by adding 2^23 in f32 (whose ulp is then 1).
    Value scaled = arith::MulFOp::create(
        rewriter, b.loc, abs, b.f32(std::ldexp(1.0, f->bias + m - 1)));
    Value shifted =
        arith::AddFOp::create(rewriter, b.loc, scaled, b.f32(8388608.0));
    Value subnormal = arith::SubIOp::create(
        rewriter, b.loc, b.bits(shifted, rewriter.getI32Type()),
        b.i32(0x4b000000));
    Value small =
        arith::CmpFOp::create(rewriter, b.loc, arith::CmpFPredicate::OLT, abs,
                              b.f32(std::ldexp(1.0, 1 - f->bias)));
    Value code = b.select(small, subnormal, normal);
    // Saturate (infinities included) at the largest finite value: codes
    // only grow with the magnitude.
    code = arith::MinUIOp::create(rewriter, b.loc, code, b.i32(f->maxCode));
    Value signedCode = arith::OrIOp::create(rewriter, b.loc, code, sign);
    if (f->fnuz) // No negative zero.
      signedCode = b.select(b.eq(code, b.i32(0)), b.i32(0), signedCode);
    Value isNaN =
        arith::CmpFOp::create(rewriter, b.loc, arith::CmpFPredicate::UNO, x, x);
    signedCode = b.select(isNaN, b.i32(f->nanCode), signedCode);
    Value byte = arith::TruncIOp::create(
        rewriter, b.loc, b.of(rewriter.getI8Type()), signedCode);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), byte);
    return success();
  }
};

struct ExpandFloat8Pass : aicc::impl::ExpandFloat8PassBase<ExpandFloat8Pass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandExtF, ExpandTruncF>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
