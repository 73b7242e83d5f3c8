//===- MapToLaunches.cpp - Top-level loops as gpu.launch ops --------------===//

#include "aicc/Target/GPU/Passes.h"

#include "Cost.h"
#include "KernelTiles.h"
#include "LaneBody.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h" // (the pass loads it)
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUMAPTOLAUNCHESPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {

/// Replaces `loop` by a launch of one thread per iteration, or per
/// `lanes` consecutive iterations of its innermost loop where its body
/// reads and writes rows with it (LaneBody): the tiling aicc-gpu-choose-
/// tiles recorded. Fails, with an error, where there is none or the loop
/// cannot take it.
LogicalResult mapParallelLoop(scf::ParallelOp loop,
                              SmallVector<int64_t> counts) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  aicc::gpu::LaneBody body(loop);
  int64_t iterations = 1;
  for (int64_t count : counts)
    iterations *= count;
  int64_t flops = iterations * aicc::gpu::floatOps(*loop.getBody());
  std::optional<aicc::gpu::ElementwiseTiling> recorded =
      aicc::gpu::recordedElementwiseTiling(loop);
  if (!recorded)
    return loop.emitError("aicc-gpu-map-to-launches: the loop has no "
                          "element-wise tiling (aicc-gpu-choose-tiles with "
                          "loops records one)");
  // #aicc_gpu.elementwise holds the threads to whole warps of a block.
  if (!body.fits(recorded->lanes, counts.back(),
                 aicc::gpu::kWidestLaneAccessBytes))
    return loop.emitError("aicc-gpu-map-to-launches: the loop cannot take ")
           << recorded->threads << " threads of " << recorded->lanes
           << " lanes";
  int64_t lanes = recorded->lanes;
  if (lanes > 1)
    counts.back() /= lanes;
  int64_t total = 1;
  for (int64_t count : counts)
    total *= count;
  if (total == 0) {
    loop.erase();
    return success();
  }
  int64_t threads = recorded->threads;
  int64_t blocks = (total + threads - 1) / threads;
  gpu::LaunchOp launch =
      aicc::gpu::createLaunch(b, loc, {blocks, 1, 1}, threads);
  aicc::gpu::recordFlops(launch, flops);

  Value blockId = launch.getBlockIds().x;
  Value threadId = launch.getThreadIds().x;
  Value id = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, blockId,
                            arith::ConstantIndexOp::create(b, loc, threads)),
      threadId);
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, id,
                            arith::ConstantIndexOp::create(b, loc, total));
  auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
  b.setInsertionPoint(guard.thenBlock()->getTerminator());

  // Row-major: the last loop varies fastest.
  IRMapping mapping;
  Value rest = id;
  for (int64_t d = static_cast<int64_t>(counts.size()) - 1; d >= 0; --d) {
    Value count = arith::ConstantIndexOp::create(b, loc, counts[d]);
    Value index = d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, count);
    if (d > 0)
      rest = arith::DivUIOp::create(b, loc, rest, count);
    Value step = loop.getStep()[d];
    if (lanes > 1 && d + 1 == static_cast<int64_t>(counts.size()))
      step = arith::ConstantIndexOp::create(b, loc, lanes); // (step 1)
    Value iv =
        arith::AddIOp::create(b, loc, loop.getLowerBound()[d],
                              arith::MulIOp::create(b, loc, index, step));
    mapping.map(loop.getInductionVars()[d], iv);
  }
  if (lanes > 1) {
    body.clone(b, loc, mapping, lanes);
  } else {
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, mapping);
  }
  loop.erase();
  return success();
}

/// Moves `op` into a launch of a single thread.
void runAsSingleThread(Operation *op) {
  OpBuilder b(op);
  gpu::LaunchOp launch = aicc::gpu::createLaunch(b, op->getLoc(), {1, 1, 1}, 1);
  aicc::gpu::recordFlops(launch, aicc::gpu::floatOps(*op));
  op->moveBefore(launch.getBody().front().getTerminator());
}

/// Moves `op` and every op after it but the terminator into a launch of a
/// single thread.
void runTailAsSingleThread(Operation *op) {
  Block *block = op->getBlock();
  OpBuilder b(op);
  gpu::LaunchOp launch = aicc::gpu::createLaunch(b, op->getLoc(), {1, 1, 1}, 1);
  Operation *terminator = launch.getBody().front().getTerminator();
  Operation *last = block->getTerminator();
  for (Operation *next = op; next != last;) {
    Operation *following = next->getNextNode();
    next->moveBefore(terminator);
    next = following;
  }
}

/// Clones `op`, whose results are read only inside launches, into each of
/// them, and erases it.
LogicalResult sinkIntoUsers(Operation *op) {
  llvm::SetVector<gpu::LaunchOp> launches;
  for (Operation *user : op->getUsers()) {
    auto launch = user->getParentOfType<gpu::LaunchOp>();
    if (!launch && isPure(op))
      return success(); // it stays, and kernel outlining sinks it
    if (!launch)
      return op->emitError("computes a value the host would need; the GPU "
                           "targets cannot run it")
                 .attachNote(user->getLoc())
             << "used by " << user->getName();
    launches.insert(launch);
  }
  for (gpu::LaunchOp launch : launches) {
    Region &body = launch.getBody();
    OpBuilder b = OpBuilder::atBlockBegin(&body.front());
    Operation *clone = b.clone(*op);
    for (auto [from, to] : llvm::zip(op->getResults(), clone->getResults()))
      replaceAllUsesInRegionWith(from, to, body);
  }
  op->erase();
  return success();
}

bool staysOnHost(Operation *op) {
  return op->hasTrait<OpTrait::IsTerminator>() || isa<gpu::LaunchOp>(op) ||
         aicc::gpu::isSinkable(op);
}

struct GPUMapToLaunchesPass
    : aicc::gpu::impl::GPUMapToLaunchesPassBase<GPUMapToLaunchesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (func.getBody().getBlocks().size() != 1) {
      func.emitError("has control flow between blocks, which the GPU "
                     "targets cannot launch from");
      return signalPassFailure();
    }
    Block &body = func.getBody().front();
    SmallVector<Operation *> ops;
    for (Operation &op : body)
      ops.push_back(&op);
    SmallVector<Operation *> hostValues;
    for (auto [index, op] : llvm::enumerate(ops)) {
      if (isa<memref::DeallocOp>(op)) {
        op->emitError("frees memory while the model runs, which the GPU "
                      "targets do not support");
        return signalPassFailure();
      }
      if (isa<memref::AllocOp>(op))
        continue;
      if (isPure(op) && op->getNumRegions() == 0 && op->getNumResults() != 0 &&
          !aicc::gpu::isConstantOrView(op)) {
        // Arithmetic on a scalar read maybe: sunk with the read, below.
        hostValues.push_back(op);
        continue;
      }
      if (staysOnHost(op))
        continue;
      if (aicc::gpu::holdsHostResults(op)) {
        // A loop or branch whose results the host would hold: it and
        // everything after it run as one thread.
        runTailAsSingleThread(op);
        break;
      }
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        if (aicc::gpu::isElementwiseLoop(loop)) {
          if (failed(
                  mapParallelLoop(loop, aicc::gpu::constantTripCounts(loop))))
            return signalPassFailure();
          continue;
        }
      }
      if (op->getNumResults() == 0) {
        runAsSingleThread(op);
        continue;
      }
      // A scalar read (the result of a full reduction, say): it moves into
      // the kernels that use it, below.
      hostValues.push_back(op);
    }
    for (Operation *op : llvm::reverse(hostValues))
      if (failed(sinkIntoUsers(op)))
        return signalPassFailure();
  }
};
} // namespace
