//===- KMajorWeights.cpp - Weights of some products as rows of k ---------===//

#include "aicc/Target/GPU/Passes.h"

#include "AiccGPU/IR/AiccGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUKMAJORWEIGHTSPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {

/// Whether `op` is a product of 8-bit inputs: two of them (integers or
/// fp8), an output of wider elements and reduction loops.
bool isByteProduct(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || !op.hasPureTensorSemantics())
    return false;
  auto elementOf = [](Value v) { return getElementTypeOrSelf(v.getType()); };
  return elementOf(op.getDpsInits()[0]).getIntOrFloatBitWidth() > 8 &&
         llvm::all_of(op.getDpsInputs(), [&](Value input) {
           Type element = elementOf(input);
           return element.isIntOrFloat() &&
                  element.getIntOrFloatBitWidth() == 8;
         });
}

/// Whether `op`, a product of two inputs with reduction loops, is thin
/// along the weight `weight` (its input number): the parallel loops that
/// do not index the weight iterate fewer than kTensorCoreRows times in all,
/// so it runs a warp per output, reading the weight along its reduction
/// loops.
bool isThinProduct(linalg::GenericOp op, unsigned weight) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || !op.hasPureTensorSemantics())
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  AffineMap map = op.getIndexingMapsArray()[weight];
  auto iterators = op.getIteratorTypesArray();
  int64_t rows = 1;
  for (unsigned loop = 0; loop < ranges.size(); ++loop) {
    if (iterators[loop] != utils::IteratorType::parallel ||
        map.isFunctionOfDim(loop))
      continue;
    if (ShapedType::isDynamic(ranges[loop]))
      return false;
    rows *= ranges[loop];
  }
  return rows < aicc::gpu::kTensorCoreRows;
}

/// Whether `value` is a weight argument of `func`.
bool isWeight(Value value, func::FuncOp func) {
  auto argument = dyn_cast<BlockArgument>(value);
  return argument && argument.getOwner() == &func.getBody().front() &&
         func.getArgAttr(argument.getArgNumber(), "aicc.weight");
}

/// The order of `map`'s results that puts those of reduction loops last,
/// each group in its order; none when the last result already is one, or
/// when `map` is not a projected permutation.
std::optional<SmallVector<int64_t>> kLastOrder(linalg::GenericOp op,
                                               AffineMap map) {
  if (!map.isProjectedPermutation() || map.getNumResults() < 2)
    return std::nullopt;
  auto iterators = op.getIteratorTypesArray();
  auto isReduction = [&](AffineExpr e) {
    return iterators[cast<AffineDimExpr>(e).getPosition()] ==
           utils::IteratorType::reduction;
  };
  if (isReduction(map.getResults().back()))
    return std::nullopt;
  SmallVector<int64_t> order, reductions;
  for (auto [i, e] : llvm::enumerate(map.getResults()))
    (isReduction(e) ? reductions : order).push_back(i);
  if (reductions.empty())
    return std::nullopt;
  llvm::append_range(order, reductions);
  return order;
}

struct GPUKMajorWeightsPass
    : aicc::gpu::impl::GPUKMajorWeightsPassBase<GPUKMajorWeightsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    func.walk([&](linalg::GenericOp op) {
      bool bytes = isByteProduct(op);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      for (OpOperand *input : op.getDpsInputOperands()) {
        unsigned number = input->getOperandNumber();
        if (!bytes && !isThinProduct(op, number))
          continue;
        auto type = dyn_cast<RankedTensorType>(input->get().getType());
        std::optional<SmallVector<int64_t>> order =
            kLastOrder(op, maps[number]);
        if (!type || !type.hasStaticShape() || !order ||
            !isWeight(input->get(), func))
          continue;
        // transposed[j] = weight[order[j]]: dimension j of the transposed
        // weight is the one of map result order[j].
        SmallVector<int64_t> shape;
        SmallVector<AffineExpr> results;
        for (int64_t position : *order) {
          shape.push_back(type.getDimSize(position));
          results.push_back(maps[number].getResult(position));
        }
        OpBuilder b(op);
        Value empty = tensor::EmptyOp::create(b, op.getLoc(), shape,
                                              type.getElementType());
        auto transpose = linalg::TransposeOp::create(
            b, op.getLoc(), input->get(), empty, *order);
        input->set(transpose->getResult(0));
        maps[number] = AffineMap::get(maps[number].getNumDims(), 0, results,
                                      op.getContext());
      }
      op.setIndexingMapsAttr(
          Builder(op.getContext()).getAffineMapArrayAttr(maps));
    });
  }
};

} // namespace
