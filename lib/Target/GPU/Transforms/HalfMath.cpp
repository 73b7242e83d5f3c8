//===- HalfMath.cpp - f32 math that only feeds half values, cheaper -------===//
//
// An f32 exponential whose every use rounds it to f16 or bf16 needs no
// more than half precision: exp(x) becomes exp2(x log2 e), which the NVVM
// lowering turns into one ex2.approx instead of libdevice's expf (a dozen
// instructions of range reduction around it). The error of the
// approximation and of the product's rounding (|x| log2 e units of 2^-24:
// under 2^-19 relative for every x whose exponential is a normal f16,
// under 2^-17 for bf16's wider range) stays far under the half types'
// 2^-11 and 2^-8.
//
// An f32 division by a constant whose result only flows, through f32
// arithmetic, into roundings to half (GELU's x / sqrt(2), before its erf)
// becomes a product with the reciprocal: one multiplication instead of
// div.rn.f32's IEEE division sequence (about fifteen instructions, per
// element of a product's epilogue). x * (1/c) is within 1.5 units of 2^-24
// of x / c: the order of the rounding the division itself does, which
// whatever follows amplifies no more than it did that one.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUHALFMATHPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {

/// Whether `op` rounds its operand to a 16-bit float.
bool roundsToHalf(Operation *op) {
  auto truncate = dyn_cast<arith::TruncFOp>(op);
  return truncate &&
         getElementTypeOrSelf(truncate.getType()).getIntOrFloatBitWidth() == 16;
}

/// Whether every use of `value` rounds it to a 16-bit float.
bool onlyRoundedToHalf(Value value) {
  return !value.use_empty() && llvm::all_of(value.getUsers(), roundsToHalf);
}

/// math.exp(x : f32) rounded to half -> math.exp2(x * log2(e)).
struct ExpAsExp2 : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32() ||
        !onlyRoundedToHalf(op.getResult()))
      return rewriter.notifyMatchFailure(op, "not an f32 rounded to half");
    Location loc = op.getLoc();
    Value scale = createScalarOrSplatConstant(rewriter, loc, type,
                                              APFloat(llvm::numbers::log2ef));
    Value scaled = arith::MulFOp::create(rewriter, loc, op.getOperand(), scale);
    rewriter.replaceOpWithNewOp<math::Exp2Op>(op, scaled);
    return success();
  }
};

/// Whether every use of `value`, followed through f32 element-wise
/// arithmetic that is continuous in it (no comparison, no f32 store, no
/// square root and no division by it, which a change of sign or a zero
/// would send to NaN or infinity), ends in a rounding to a 16-bit float;
/// at most `depth` ops deep. `known` keeps the answers already found.
bool flowsOnlyIntoHalf(Value value, DenseMap<Value, bool> &known,
                       int depth = 16) {
  if (value.use_empty() || depth == 0)
    return false;
  auto it = known.find(value);
  if (it != known.end())
    return it->second;
  bool result = llvm::all_of(value.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (isa<arith::TruncFOp>(user))
      return roundsToHalf(user);
    if (auto divide = dyn_cast<arith::DivFOp>(user);
        divide && use.getOperandNumber() != 0)
      return false;
    if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp, math::ErfOp, math::TanhOp,
             math::ExpOp, math::Exp2Op, math::AbsFOp, math::FmaOp>(user) ||
        user->getNumResults() != 1 ||
        !getElementTypeOrSelf(user->getResult(0).getType()).isF32())
      return false;
    return flowsOnlyIntoHalf(user->getResult(0), known, depth - 1);
  });
  known[value] = result;
  return result;
}

/// x / c (f32, c a finite constant with a finite reciprocal) that only
/// flows into half values -> x * (1 / c).
struct DivideByReciprocal : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    APFloat divisor(0.0f);
    if (!getElementTypeOrSelf(type).isF32() ||
        !matchPattern(op.getRhs(), m_ConstantFloat(&divisor)))
      return rewriter.notifyMatchFailure(op, "not an f32 by a constant");
    float reciprocal = static_cast<float>(1.0 / divisor.convertToDouble());
    if (!std::isnormal(reciprocal))
      return rewriter.notifyMatchFailure(op, "no normal reciprocal");
    DenseMap<Value, bool> known;
    if (!flowsOnlyIntoHalf(op.getResult(), known))
      return rewriter.notifyMatchFailure(op, "read as f32");
    Value factor = createScalarOrSplatConstant(rewriter, op.getLoc(), type,
                                               APFloat(reciprocal));
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, op.getLhs(), factor);
    return success();
  }
};

struct GPUHalfMathPass : aicc::gpu::impl::GPUHalfMathPassBase<GPUHalfMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpAsExp2, DivideByReciprocal>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
