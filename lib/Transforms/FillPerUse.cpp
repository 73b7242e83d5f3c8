//===- FillPerUse.cpp - One fill per user ---------------------------------===//

#include "aicc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc {
#define GEN_PASS_DEF_FILLPERUSEPASS
#include "aicc/Transforms/Passes.h.inc"
} // namespace aicc

using namespace mlir;

namespace {
/// Whether `op` only broadcasts scalars into a fresh tensor (a fill).
bool isFill(linalg::LinalgOp op) {
  if (op.getNumLoops() != op.getNumParallelLoops() ||
      op->getNumResults() != 1 || op.getNumDpsInits() != 1 ||
      !op.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
    return false;
  return llvm::all_of(op.getDpsInputs(), [](Value input) {
    return !isa<ShapedType>(input.getType());
  });
}

/// Whether only side-effect-free ops and other fills of `user` stand
/// between `fill` and `user`.
bool justBefore(Operation *fill, Operation *user) {
  for (Operation *op = fill->getNextNode(); op; op = op->getNextNode()) {
    if (op == user)
      return true;
    auto other = dyn_cast<linalg::LinalgOp>(op);
    bool otherFill = other && isFill(other) &&
                     other->getResult(0).hasOneUse() &&
                     *other->getResult(0).user_begin() == user;
    if (!otherFill && (!isPure(op) || isa<linalg::LinalgOp>(op)))
      return false;
  }
  return false;
}

/// A fill used by several ops, some of them as the buffer they write,
/// gives each of those a fill of its own just before it: bufferized, a
/// shared fill is one buffer copied into each writer's (a kernel per copy
/// on the GPU), where a fill of its own is written in place, and the GPU
/// reductions absorb a fill just before them. Readers keep the original.
struct FillPerUse : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isFill(op))
      return rewriter.notifyMatchFailure(op, "not a fill");
    bool shared = !op->getResult(0).hasOneUse();
    SmallVector<OpOperand *> written;
    for (OpOperand &use : op->getResult(0).getUses()) {
      auto user = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
      if (user && user.isDpsInit(&use) && (shared || !justBefore(op, user)))
        written.push_back(&use);
    }
    if (written.empty())
      return rewriter.notifyMatchFailure(op, "no writer to give it to");
    for (OpOperand *use : written) {
      rewriter.setInsertionPoint(use->getOwner());
      Operation *copy = rewriter.clone(*op);
      rewriter.modifyOpInPlace(use->getOwner(),
                               [&] { use->set(copy->getResult(0)); });
    }
    if (op->use_empty())
      rewriter.eraseOp(op);
    return success();
  }
};

struct FillPerUsePass : aicc::impl::FillPerUsePassBase<FillPerUsePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FillPerUse>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
