//===- Fusion.cpp - What the element-wise fusion passes ask of ops --------===//

#include "Fusion.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

bool aicc::cpu::allParallel(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
}

linalg::LinalgOp aicc::cpu::producerThroughReshapes(Value value) {
  Operation *def = value.getDefiningOp();
  while (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
    def = def->getOperand(0).getDefiningOp();
  return dyn_cast_or_null<linalg::LinalgOp>(def);
}

bool aicc::cpu::readsContraction(Operation *op, bool convolutions, int depth) {
  for (Value input : cast<linalg::LinalgOp>(op).getDpsInputs()) {
    linalg::LinalgOp linalgOp = producerThroughReshapes(input);
    if (!linalgOp)
      continue;
    if (linalgOp.getNumReductionLoops() != 0 &&
        linalgOp.getNumDpsInputs() == 2 && !convolutions)
      return true;
    if (!convolutions)
      continue;
    if (linalgOp.getNumReductionLoops() > 1 && linalgOp.getNumDpsInputs() == 2)
      return true;
    if (depth > 0 && allParallel(linalgOp) &&
        readsContraction(linalgOp, convolutions, depth - 1))
      return true;
  }
  return false;
}
