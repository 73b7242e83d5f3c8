//===- FuseElementwise.cpp - Element-wise chains as single loops
//-----------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPUFUSEELEMENTWISEPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {
bool allParallel(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
}

/// Fusing a producer whose result has other users computes it twice: once
/// for them, once inside the consumer. That pays only for a producer about
/// as cheap as reading its result back: few inputs, a short body. A
/// depthwise convolution as a sum over 25 taps is not.
bool cheapToRecompute(Operation *op) {
  auto producer = cast<linalg::LinalgOp>(op);
  constexpr int64_t kMaxInputs = 2;
  constexpr size_t kMaxBodyOps = 8;
  return producer.getNumDpsInputs() <= kMaxInputs &&
         producer.getBlock()->getOperations().size() <= kMaxBodyOps + 1;
}

struct CPUFuseElementwisePass
    : aicc::cpu::impl::CPUFuseElementwisePassBase<CPUFuseElementwisePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *operand) {
          Operation *producer = operand->get().getDefiningOp();
          Operation *consumer = operand->getOwner();
          return allParallel(producer) && allParallel(consumer) &&
                 (operand->get().hasOneUse() || cheapToRecompute(producer));
        });
    // Powers by small constant exponents become multiplications, square
    // roots and reciprocals (LayerNorm exported as Pow(x, 2)).
    populateMathAlgebraicSimplificationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
