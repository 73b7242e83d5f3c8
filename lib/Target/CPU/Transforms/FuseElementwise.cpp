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

struct CPUFuseElementwisePass
    : aicc::cpu::impl::CPUFuseElementwisePassBase<CPUFuseElementwisePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *operand) {
          Operation *producer = operand->get().getDefiningOp();
          Operation *consumer = operand->getOwner();
          return allParallel(producer) && allParallel(consumer);
        });
    // Powers by small constant exponents become multiplications, square
    // roots and reciprocals (LayerNorm exported as Pow(x, 2)).
    populateMathAlgebraicSimplificationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
