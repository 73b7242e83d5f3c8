//===- FoldPermutations.cpp - Products read transposed operands in place --===//

#include "aicc/Target/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUFOLDPERMUTATIONSPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {

/// Whether `op` only moves its one input's elements: all-parallel, its
/// body yields the input's element as it is, its maps permutations.
bool isPermutation(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || !op.hasPureTensorSemantics())
    return false;
  Block *body = op.getBody();
  if (body->getTerminator()->getOperand(0) != body->getArgument(0))
    return false;
  return llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isPermutation(); });
}

/// Whether `op` is product-like: two inputs, one output, reduction loops.
bool isProduct(linalg::GenericOp op) {
  return op.getNumDpsInputs() == 2 && op.getNumDpsInits() == 1 &&
         op.getNumReductionLoops() > 0;
}

struct GPUFoldPermutationsPass
    : aicc::gpu::impl::GPUFoldPermutationsPassBase<GPUFoldPermutationsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *operand) {
          auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
          auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
          return producer && consumer && isPermutation(producer) &&
                 isProduct(consumer);
        });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
