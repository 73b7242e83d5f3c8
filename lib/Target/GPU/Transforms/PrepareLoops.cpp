//===- PrepareLoops.cpp - Parallel-first linalg ops for GPU mapping -------===//

#include "aicc/Target/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUPREPARELOOPSPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {
/// The loop order that puts parallel loops first, each group in its old
/// order; empty when the order is already so.
SmallVector<unsigned> parallelFirstOrder(linalg::GenericOp op) {
  SmallVector<unsigned> order;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] == utils::IteratorType::parallel)
      order.push_back(i);
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] != utils::IteratorType::parallel)
      order.push_back(i);
  for (unsigned i = 0; i < order.size(); ++i)
    if (order[i] != i)
      return order;
  return {};
}

struct GPUPrepareLoopsPass
    : aicc::gpu::impl::GPUPrepareLoopsPassBase<GPUPrepareLoopsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }

    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized)) {
          op->emitError("cannot be expressed as a linalg.generic for the GPU");
          return signalPassFailure();
        }
        generic = *generalized;
      }
      SmallVector<unsigned> order = parallelFirstOrder(generic);
      if (order.empty())
        continue;
      if (failed(linalg::interchangeGenericOp(rewriter, generic, order))) {
        generic->emitError("cannot reorder its loops parallel-first");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
