//===- LaneBody.cpp - Element-wise loops run several lanes a thread -------===//

#include "LaneBody.h"

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace aicc::gpu;

namespace {
/// The memref and indices of a load or store; a null memref otherwise.
std::pair<Value, ValueRange> accessOf(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return {load.getMemRef(), load.getIndices()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return {store.getMemRef(), store.getIndices()};
  return {};
}
} // namespace

SmallVector<int64_t> aicc::gpu::constantTripCounts(scf::ParallelOp loop) {
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

bool aicc::gpu::isElementwiseLoop(scf::ParallelOp loop) {
  return loop.getNumResults() == 0 && !constantTripCounts(loop).empty();
}

bool aicc::gpu::holdsHostResults(Operation *op) {
  return op->getNumResults() != 0 && op->getNumRegions() != 0 &&
         !op->hasTrait<OpTrait::IsTerminator>() &&
         !isa<mlir::gpu::LaunchOp>(op) && !isSinkable(op);
}

SmallVector<scf::ParallelOp> aicc::gpu::elementwiseLoops(Block &body) {
  SmallVector<scf::ParallelOp> loops;
  for (Operation &op : body) {
    if (holdsHostResults(&op))
      break;
    if (auto loop = dyn_cast<scf::ParallelOp>(op);
        loop && isElementwiseLoop(loop))
      loops.push_back(loop);
  }
  return loops;
}

LaneBody::LaneBody(scf::ParallelOp loop) : loop(loop) {
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
  safe = lanesSafe();
  for (Operation &op : loop.getBody()->without_terminator())
    if (isa<memref::StoreOp>(op) && walksRow(&op, 1))
      rowStoreBits.push_back(cast<MemRefType>(accessOf(&op).first.getType())
                                 .getElementTypeBitWidth());
}

int64_t LaneBody::lanes(int64_t innerCount, unsigned vectorBytes) const {
  return widestRowVector(rowStoreBits, vectorBytes, [&](int64_t n) {
    return fits(n, innerCount, vectorBytes);
  });
}

bool LaneBody::fits(int64_t lanes, int64_t innerCount,
                    unsigned vectorBytes) const {
  if (lanes == 1)
    return true;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound().back());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep().back());
  if (lanes < 1 || lanes > kMaxRowVector || !llvm::isPowerOf2_64(lanes) ||
      !lb || !step || *lb != 0 || *step != 1 || innerCount % lanes != 0 ||
      !safe || rowStoreBits.empty() ||
      lanes * (*llvm::min_element(rowStoreBits) / 8) > vectorBytes)
    return false;
  return llvm::any_of(loop.getBody()->without_terminator(), [&](Operation &op) {
    return isa<memref::StoreOp>(op) && walksRow(&op, lanes);
  });
}

void LaneBody::clone(OpBuilder &b, Location loc, const IRMapping &mapping,
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
      for (auto [j, element] :
           llvm::enumerate(loadRowVector(b, loc, memref, at, lanes)))
        lane[j].map(load.getResult(), element);
      continue;
    }
    SmallVector<Value> elements;
    for (IRMapping &each : lane)
      elements.push_back(
          each.lookupOrDefault(cast<memref::StoreOp>(op).getValueToStore()));
    storeRowVector(b, loc, elements, memref, at);
  }
}

/// Whether running the body's ops lane after lane, ops that ignore the
/// innermost loop once, keeps each iteration's result: the only memory
/// effects are loads (anywhere) and stores of the top level (no
/// allocation a lane would share, no atomic or call that must run per
/// iteration), and no load computed once reads a buffer the body writes
/// (it could see one lane's store instead of its own iteration's).
bool LaneBody::lanesSafe() const {
  Block *body = loop.getBody();
  llvm::SmallPtrSet<Value, 4> stored;
  for (Operation &op : body->without_terminator())
    if (auto store = dyn_cast<memref::StoreOp>(op))
      stored.insert(viewRoot(store.getMemRef()));
  WalkResult result = body->walk([&](Operation *op) {
    if (op == body->getTerminator() || isPure(op))
      return WalkResult::advance();
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      bool once = !dependentOps.contains(body->findAncestorOpInBlock(*op));
      return once && stored.contains(viewRoot(load.getMemRef()))
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
bool LaneBody::walksRow(Operation *op, int64_t lanes) const {
  auto [memref, indices] = accessOf(op);
  if (!memref || indices.empty() || indices.back() != inner ||
      dependent.contains(memref) ||
      llvm::any_of(indices.drop_back(),
                   [&](Value v) { return dependent.contains(v); }))
    return false;
  return rowVectorsAligned(cast<MemRefType>(memref.getType()), lanes);
}
