//===- OutlineWeights.cpp - Weights as function arguments -----------------===//

#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace aicc::tile {
#define GEN_PASS_DEF_TILEOUTLINEWEIGHTSPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {
struct TileOutlineWeightsPass
    : aicc::tile::impl::TileOutlineWeightsPassBase<TileOutlineWeightsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<WeightOp> weights;
    func.walk([&](WeightOp op) { weights.push_back(op); });
    if (weights.empty())
      return;
    Block &entry = func.getBody().front();
    for (WeightOp op : weights)
      if (op->getBlock() != &entry) {
        op.emitOpError("must be in the entry block of its function to be "
                       "outlined");
        return signalPassFailure();
      }
    MLIRContext *context = &getContext();
    unsigned index = 0;
    for (WeightOp op : weights) {
      NamedAttrList attrs;
      attrs.append("aicc.weight", op.getNameAttr());
      attrs.append("aicc.weight_value", op.getValue());
      if (failed(func.insertArgument(
              index, op.getType(), attrs.getDictionary(context), op.getLoc())))
        return signalPassFailure();
      op.getResult().replaceAllUsesWith(func.getArgument(index));
      op.erase();
      ++index;
    }
  }
};
} // namespace
