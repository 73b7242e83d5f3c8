//===- HalfExp.cpp - Exponentials rounded to half, by ex2 -----------------===//
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
//===----------------------------------------------------------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/MathExtras.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUHALFEXPPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {

/// Whether every use of `value` truncates it to a 16-bit float.
bool onlyRoundedToHalf(Value value) {
  return !value.use_empty() && llvm::all_of(value.getUsers(), [](Operation *u) {
    auto truncate = dyn_cast<arith::TruncFOp>(u);
    return truncate &&
           getElementTypeOrSelf(truncate.getType()).getIntOrFloatBitWidth() ==
               16;
  });
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
    Attribute log2e = rewriter.getF32FloatAttr(llvm::numbers::log2ef);
    if (auto shaped = dyn_cast<ShapedType>(type))
      log2e = DenseElementsAttr::get(shaped, log2e);
    Value scale =
        arith::ConstantOp::create(rewriter, loc, type, cast<TypedAttr>(log2e));
    Value scaled = arith::MulFOp::create(rewriter, loc, op.getOperand(), scale);
    rewriter.replaceOpWithNewOp<math::Exp2Op>(op, scaled);
    return success();
  }
};

struct GPUHalfExpPass : aicc::gpu::impl::GPUHalfExpPassBase<GPUHalfExpPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpAsExp2>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
