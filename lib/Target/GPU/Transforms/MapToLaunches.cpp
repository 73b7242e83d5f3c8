//===- MapToLaunches.cpp - Top-level loops as gpu.launch ops --------------===//

#include "aicc/Target/GPU/Passes.h"

#include "Cost.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h" // (the pass loads it)
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUMAPTOLAUNCHESPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {
/// The trip counts of a parallel loop whose bounds and steps are all
/// constants; empty otherwise.
SmallVector<int64_t> constantTripCounts(scf::ParallelOp loop) {
  SmallVector<int64_t> counts;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb);
    std::optional<int64_t> u = getConstantIntValue(ub);
    std::optional<int64_t> s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return {};
    counts.push_back(*u > *l ? (*u - *l + *s - 1) / *s : 0);
  }
  return counts;
}

/// The memref and indices of a load or store; a null memref otherwise.
std::pair<Value, ValueRange> accessOf(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return {load.getMemRef(), load.getIndices()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return {store.getMemRef(), store.getIndices()};
  return {};
}

/// An element-wise loop body run on `lanes` consecutive elements of its
/// innermost loop per thread: the accesses that walk a contiguous row with
/// that loop become one aligned vector load or store each, the rest of
/// the body is repeated once per element (once in all where it does not
/// depend on the innermost loop).
class LaneBody {
public:
  explicit LaneBody(scf::ParallelOp loop) : loop(loop) {
    inner = loop.getInductionVars().back();
    dependent.insert(inner);
    for (Operation &op : loop.getBody()->without_terminator()) {
      bool depends = false;
      op.walk([&](Operation *nested) {
        depends |= llvm::any_of(nested->getOperands(),
                                [&](Value v) { return dependent.contains(v); });
      });
      if (!depends)
        continue;
      dependentOps.insert(&op);
      dependent.insert(op.getResults().begin(), op.getResults().end());
    }
  }

  /// The most elements per thread (widestRowVector) for which the
  /// innermost trip count `innerCount` divides evenly and at least one
  /// store is a vector; 1 where there is none.
  int64_t lanes(int64_t innerCount, unsigned vectorBytes) {
    std::optional<int64_t> lb =
        getConstantIntValue(loop.getLowerBound().back());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep().back());
    if (!lb || !step || *lb != 0 || *step != 1 || !lanesSafe())
      return 1;
    SmallVector<unsigned> rowStores;
    for (Operation &op : loop.getBody()->without_terminator())
      if (isa<memref::StoreOp>(op) && walksRow(&op, 1))
        rowStores.push_back(cast<MemRefType>(accessOf(&op).first.getType())
                                .getElementTypeBitWidth());
    return aicc::gpu::widestRowVector(rowStores, vectorBytes, [&](int64_t n) {
      return innerCount % n == 0 &&
             llvm::any_of(loop.getBody()->without_terminator(),
                          [&](Operation &op) {
                            return isa<memref::StoreOp>(op) && walksRow(&op, n);
                          });
    });
  }

  /// Clones the body at `b` for `lanes` elements from the one `mapping`
  /// gives the innermost loop.
  void clone(OpBuilder &b, Location loc, const IRMapping &mapping,
             int64_t lanes) {
    Value base = mapping.lookup(inner);
    SmallVector<IRMapping> lane(lanes, mapping);
    for (int64_t j = 1; j < lanes; ++j)
      lane[j].map(inner,
                  arith::AddIOp::create(
                      b, loc, base, arith::ConstantIndexOp::create(b, loc, j)));
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (!dependentOps.contains(&op)) {
        Operation *once = b.clone(op, lane[0]);
        for (int64_t j = 1; j < lanes; ++j)
          lane[j].map(op.getResults(), once->getResults());
        continue;
      }
      if (!walksRow(&op, lanes)) {
        for (IRMapping &each : lane)
          b.clone(op, each);
        continue;
      }
      auto load = dyn_cast<memref::LoadOp>(op);
      auto [memref, indices] = accessOf(&op);
      SmallVector<Value> at;
      for (Value index : indices)
        at.push_back(lane[0].lookupOrDefault(index));
      memref = lane[0].lookupOrDefault(memref);
      if (load) {
        for (auto [j, element] : llvm::enumerate(
                 aicc::gpu::loadRowVector(b, loc, memref, at, lanes)))
          lane[j].map(load.getResult(), element);
        continue;
      }
      SmallVector<Value> elements;
      for (IRMapping &each : lane)
        elements.push_back(
            each.lookupOrDefault(cast<memref::StoreOp>(op).getValueToStore()));
      aicc::gpu::storeRowVector(b, loc, elements, memref, at);
    }
  }

private:
  /// Whether running the body's ops lane after lane, ops that ignore the
  /// innermost loop once, keeps each iteration's result: the only memory
  /// effects are loads (anywhere) and stores of the top level (no
  /// allocation a lane would share, no atomic or call that must run per
  /// iteration), and no load computed once reads a buffer the body writes
  /// (it could see one lane's store instead of its own iteration's).
  bool lanesSafe() {
    Block *body = loop.getBody();
    llvm::SmallPtrSet<Value, 4> stored;
    for (Operation &op : body->without_terminator())
      if (auto store = dyn_cast<memref::StoreOp>(op))
        stored.insert(aicc::gpu::viewRoot(store.getMemRef()));
    WalkResult result = body->walk([&](Operation *op) {
      if (op == body->getTerminator() || isPure(op))
        return WalkResult::advance();
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        bool once = !dependentOps.contains(body->findAncestorOpInBlock(*op));
        return once && stored.contains(aicc::gpu::viewRoot(load.getMemRef()))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      }
      if (isa<memref::StoreOp>(op) && op->getBlock() == body)
        return WalkResult::advance();
      if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance(); // its nested ops are checked too
      return WalkResult::interrupt();
    });
    return !result.wasInterrupted();
  }

  /// Whether `op` is a load or store of the body's top level that reads
  /// or writes along a row with the innermost loop: that loop indexes the
  /// last dimension and no other index depends on it, and the rows hold
  /// aligned vectors of `lanes` (rowVectorsAligned).
  bool walksRow(Operation *op, int64_t lanes) {
    auto [memref, indices] = accessOf(op);
    if (!memref || indices.empty() || indices.back() != inner ||
        dependent.contains(memref) ||
        llvm::any_of(indices.drop_back(),
                     [&](Value v) { return dependent.contains(v); }))
      return false;
    return aicc::gpu::rowVectorsAligned(cast<MemRefType>(memref.getType()),
                                        lanes);
  }

  scf::ParallelOp loop;
  Value inner;
  llvm::DenseSet<Value> dependent;
  llvm::DenseSet<Operation *> dependentOps;
};

/// Replaces `loop` by a launch of one thread per iteration, or per
/// `lanes` consecutive iterations of its innermost loop where its body
/// reads and writes rows with it (LaneBody).
void mapParallelLoop(scf::ParallelOp loop, SmallVector<int64_t> counts,
                     unsigned blockSize, unsigned vectorBytes) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  LaneBody body(loop);
  int64_t iterations = 1;
  for (int64_t count : counts)
    iterations *= count;
  int64_t flops = iterations * aicc::gpu::floatOps(*loop.getBody());
  int64_t lanes = counts.empty() ? 1 : body.lanes(counts.back(), vectorBytes);
  if (lanes > 1)
    counts.back() /= lanes;
  int64_t total = 1;
  for (int64_t count : counts)
    total *= count;
  if (total == 0) {
    loop.erase();
    return;
  }
  // Small loops get one block of whole warps.
  int64_t threads = std::min<int64_t>(blockSize, (total + 31) / 32 * 32);
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
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        SmallVector<int64_t> counts = constantTripCounts(loop);
        if (!counts.empty() && loop.getNumResults() == 0) {
          mapParallelLoop(loop, counts, blockSize, vectorBytes);
          continue;
        }
      }
      if (op->getNumResults() == 0) {
        runAsSingleThread(op);
        continue;
      }
      if (op->getNumRegions() == 0 && !op->hasTrait<OpTrait::IsTerminator>()) {
        // A scalar read (the result of a full reduction, say): it moves
        // into the kernels that use it, below.
        hostValues.push_back(op);
        continue;
      }
      // A loop or branch whose results the host would hold: it and
      // everything after it run as one thread.
      runTailAsSingleThread(op);
      break;
    }
    for (Operation *op : llvm::reverse(hostValues))
      if (failed(sinkIntoUsers(op)))
        return signalPassFailure();
  }
};
} // namespace
