//===- Utils.cpp - Helpers shared by the GPU passes -----------------------===//

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

bool aicc::gpu::isConstantOrView(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<ViewLikeOpInterface, memref::CastOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp>(op);
}

bool aicc::gpu::isSinkable(Operation *op) {
  return isConstantOrView(op) ||
         (isMemoryEffectFree(op) && op->getNumRegions() == 0);
}

mlir::gpu::LaunchOp aicc::gpu::createLaunch(OpBuilder &b, Location loc,
                                            ArrayRef<int64_t> grid,
                                            int64_t threads) {
  assert(grid.size() == 3 && "a grid has three dimensions");
  auto size = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value one = size(1);
  auto launch =
      mlir::gpu::LaunchOp::create(b, loc, size(grid[0]), size(grid[1]),
                                  size(grid[2]), size(threads), one, one);
  b.setInsertionPointToEnd(&launch.getBody().front());
  auto terminator = mlir::gpu::TerminatorOp::create(b, loc);
  b.setInsertionPoint(terminator);
  return launch;
}
