//===- WarpReductions.cpp - One warp per reduced output -------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "Epilogue.h"
#include "Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUWARPREDUCTIONSPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {
constexpr int64_t kWarp = 32;

/// How one output of a reduction is combined: `combiner` (an associative,
/// commutative arith op of the payload) takes the output's block argument
/// and one value computed from the inputs alone.
struct Combiner {
  Operation *op;
  Value accumulator; ///< the output's block argument
  Value term;        ///< the other operand
  TypedAttr neutral; ///< the combiner's identity
};

/// The combiner of output `index`, if the payload uses that output only
/// through one associative, commutative op whose other operand does not
/// depend on any output, and which it yields.
std::optional<Combiner> findCombiner(linalg::GenericOp op, unsigned index) {
  Block *body = op.getBody();
  BlockArgument acc = body->getArgument(op.getNumDpsInputs() + index);
  Value yielded = body->getTerminator()->getOperand(index);
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || combiner->getBlock() != body || !acc.hasOneUse() ||
      acc.getUses().begin()->getOwner() != combiner ||
      combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
      !isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::MulIOp,
           arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
           arith::AndIOp, arith::OrIOp, arith::XOrIOp>(combiner))
    return std::nullopt;
  // One combiner per output: a yielded value reused for two outputs would
  // be combined twice.
  for (auto [i, value] : llvm::enumerate(body->getTerminator()->getOperands()))
    if (i != index && value == yielded)
      return std::nullopt;
  Value term = combiner->getOperand(0) == acc ? combiner->getOperand(1)
                                              : combiner->getOperand(0);
  if (term == acc)
    return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  if (!neutral)
    return std::nullopt;
  return Combiner{combiner, acc, term, *neutral};
}

/// Whether `e` reads only dimensions in `dims`.
bool usesOnly(AffineExpr e, const llvm::SmallBitVector &dims) {
  bool only = true;
  e.walk([&](AffineExpr sub) {
    if (auto dim = dyn_cast<AffineDimExpr>(sub))
      only &= dims.test(dim.getPosition());
  });
  return only;
}

/// A reduction that one warp per output can run: every output combined by
/// its own combiner into an element the parallel loops alone index, shapes
/// static, and a reduction long enough to give a warp's lanes work.
struct Plan {
  SmallVector<Combiner> combiners;
  SmallVector<int64_t> ranges;
  unsigned parallelLoops;
  int64_t outputs; ///< product of the parallel ranges
  int64_t reduced; ///< product of the reduction ranges
};

std::optional<Plan> plan(linalg::GenericOp op, int64_t minReduction,
                         int64_t maxThreadOutputs) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() == 0)
    return std::nullopt;
  Plan p;
  p.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(p.ranges, ShapedType::isDynamic))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  p.parallelLoops = op.getNumParallelLoops();
  for (unsigned i = 0; i < iterators.size(); ++i)
    if ((iterators[i] == utils::IteratorType::parallel) !=
        (i < p.parallelLoops))
      return std::nullopt; // not parallel-first
  p.outputs = 1;
  p.reduced = 1;
  for (unsigned i = 0; i < p.ranges.size(); ++i)
    (i < p.parallelLoops ? p.outputs : p.reduced) *= p.ranges[i];
  if (p.reduced < minReduction || p.outputs == 0)
    return std::nullopt;

  llvm::SmallBitVector reductionDims(p.ranges.size());
  for (unsigned i = p.parallelLoops; i < p.ranges.size(); ++i)
    reductionDims.set(i);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    // Every output element belongs to exactly one warp.
    if (!map.isProjectedPermutation() || map.getNumResults() != p.parallelLoops)
      return std::nullopt;
    for (AffineExpr e : map.getResults())
      if (!usesOnly(e, ~reductionDims))
        return std::nullopt;
    Type element = cast<MemRefType>(init.get().getType()).getElementType();
    if (!element.isF32() && !element.isF16() && !element.isBF16() &&
        !element.isInteger(32))
      return std::nullopt; // the shuffles move 32 bits
    std::optional<Combiner> c =
        findCombiner(op, init.getOperandNumber() - op.getNumDpsInputs());
    if (!c)
      return std::nullopt;
    p.combiners.push_back(*c);
  }
  // Lanes side by side read side by side when every input the reduction
  // walks is contiguous along a reduction loop; otherwise a warp per output
  // pays only when threads per output would leave the GPU idle.
  bool contiguous = true;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!isa<MemRefType>(input->get().getType()) || map.getNumResults() == 0)
      continue;
    bool walked = llvm::any_of(map.getResults(), [&](AffineExpr e) {
      return !usesOnly(e, ~reductionDims);
    });
    if (walked && !usesOnly(map.getResults().back(), reductionDims))
      contiguous = false;
  }
  if (!contiguous && p.outputs > maxThreadOutputs)
    return std::nullopt;
  return p;
}

/// `value` moved across the warp: lane i gets lane (i ^ offset)'s value.
/// Half values travel as f32.
Value shuffleXor(OpBuilder &b, Location loc, Value value, int64_t offset) {
  Type type = value.getType();
  Value wide = type.isF16() || type.isBF16()
                   ? aicc::gpu::convertFloat(b, loc, value, b.getF32Type())
                   : value;
  auto shuffle = mlir::gpu::ShuffleOp::create(b, loc, wide, offset, kWarp,
                                              mlir::gpu::ShuffleMode::XOR);
  return aicc::gpu::convertFloat(b, loc, shuffle.getShuffleResult(), type);
}

/// `combiner` applied to `x` and `y`.
Value combine(OpBuilder &b, const Combiner &combiner, Value x, Value y) {
  IRMapping mapping;
  mapping.map(combiner.accumulator, x);
  mapping.map(combiner.term, y);
  return b.clone(*combiner.op, mapping)->getResult(0);
}

/// Loads `op`'s inputs at `loops` and computes its payload with the
/// outputs' block arguments bound to `accumulators`: the new accumulators.
SmallVector<Value> payload(OpBuilder &b, Location loc, linalg::GenericOp op,
                           ArrayRef<Value> loops, ValueRange accumulators) {
  Block *body = op.getBody();
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    if (isa<MemRefType>(value.getType())) {
      AffineMap map = op.getMatchingIndexingMap(input);
      SmallVector<Value> indices;
      for (unsigned r = 0; r < map.getNumResults(); ++r)
        indices.push_back(
            affine::AffineApplyOp::create(b, loc, map.getSubMap({r}), loops));
      value = memref::LoadOp::create(b, loc, value, indices);
    }
    mapping.map(body->getArgument(input->getOperandNumber()), value);
  }
  for (auto [i, acc] : llvm::enumerate(accumulators))
    mapping.map(body->getArgument(op.getNumDpsInputs() + i), acc);
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), loops[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  SmallVector<Value> results;
  for (Value v : body->getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

/// Replaces `op` by a launch of `warps` warps per block, warp w of the
/// grid computing output element w: its lanes reduce every 32nd reduction
/// index, butterfly shuffles combine the lanes, and lane 0 combines the
/// sum with the output's old value (or the fill `init`, which it replaces)
/// and stores it, or computes `epilogue` on it, which replaces the op
/// after.
void emit(linalg::GenericOp op, const Plan &p, int64_t warps,
          linalg::GenericOp initFill,
          const std::optional<aicc::gpu::Epilogue> &epilogue) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  int64_t threads = warps * kWarp;
  mlir::gpu::LaunchOp launch = aicc::gpu::createLaunch(
      b, loc, {(p.outputs + warps - 1) / warps, 1, 1}, threads);
  aicc::gpu::IndexBuilder e{b, loc};
  Value thread = launch.getThreadIds().x;
  Value lane = e.rem(thread, kWarp);
  Value output =
      e.add(e.mul(launch.getBlockIds().x, warps), e.div(thread, kWarp));
  auto inRange = scf::IfOp::create(b, loc, e.less(output, p.outputs),
                                   /*withElseRegion=*/false);
  b.setInsertionPoint(inRange.thenBlock()->getTerminator());

  unsigned loopCount = p.ranges.size();
  SmallVector<Value> loops(loopCount);
  // Sets loops[first, last) from their row-major linear index.
  auto delinearize = [&](aicc::gpu::IndexBuilder &at, Value linear,
                         unsigned first, unsigned last) {
    llvm::copy(at.delinearize(linear, ArrayRef<int64_t>(p.ranges).slice(
                                          first, last - first)),
               loops.begin() + first);
  };
  delinearize(e, output, 0, p.parallelLoops);

  SmallVector<Value> inits;
  for (const Combiner &c : p.combiners)
    inits.push_back(arith::ConstantOp::create(b, loc, c.neutral));
  auto lanes = scf::ForOp::create(
      b, loc, lane, e.index(p.reduced), e.index(kWarp), inits,
      [&](OpBuilder &body, Location, Value r, ValueRange accumulators) {
        aicc::gpu::IndexBuilder inner{body, loc};
        delinearize(inner, r, p.parallelLoops, loopCount);
        scf::YieldOp::create(body, loc,
                             payload(body, loc, op, loops, accumulators));
      });
  SmallVector<Value> partial(lanes.getResults());
  for (int64_t offset = kWarp / 2; offset > 0; offset /= 2)
    for (auto [i, c] : llvm::enumerate(p.combiners))
      partial[i] =
          combine(b, c, partial[i], shuffleXor(b, loc, partial[i], offset));

  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, e.index(0)),
      /*withElseRegion=*/false);
  b.setInsertionPoint(first.thenBlock()->getTerminator());
  for (auto [i, c] : llvm::enumerate(p.combiners)) {
    OpOperand *init = op.getDpsInitOperand(i);
    AffineMap map = op.getMatchingIndexingMap(init);
    SmallVector<Value> indices;
    for (AffineExpr r : map.getResults())
      indices.push_back(loops[cast<AffineDimExpr>(r).getPosition()]);
    Value old;
    if (initFill) {
      old = aicc::gpu::fillValue(initFill);
      Operation *constant = old.getDefiningOp();
      if (constant && initFill->isAncestor(constant))
        old = b.clone(*constant)->getResult(0);
    } else {
      old = memref::LoadOp::create(b, loc, init->get(), indices);
    }
    Value result = combine(b, c, old, partial[i]);
    if (epilogue)
      aicc::gpu::storeThroughEpilogue(b, loc, *epilogue, result, indices);
    else
      memref::StoreOp::create(b, loc, result, init->get(), indices);
  }
  Value out = op.getDpsInits()[0];
  op.erase();
  if (initFill)
    initFill.erase();
  if (epilogue)
    epilogue->erase(out);
}

struct GPUWarpReductionsPass
    : aicc::gpu::impl::GPUWarpReductionsPassBase<GPUWarpReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops =
        aicc::gpu::genericsOutsideLaunches(getOperation());
    // Epilogues go with their reductions; they come later in `ops`.
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (linalg::GenericOp op : ops) {
      if (fused.contains(op))
        continue;
      std::optional<Plan> p = plan(op, minReduction, maxThreadOutputs);
      if (!p)
        continue;
      // The fill just before, of the one output, becomes the value lane 0
      // combines with: one kernel fewer.
      Operation *before = op->getPrevNode();
      while (before && isPure(before))
        before = before->getPrevNode();
      auto fill = dyn_cast_or_null<linalg::GenericOp>(before);
      if (!fill || op.getNumDpsInits() != 1 || fill.getNumDpsInits() != 1 ||
          fill.getDpsInits()[0] != op.getDpsInits()[0] ||
          !aicc::gpu::fillValue(fill))
        fill = {};
      // With the fill absorbed, an element-wise op that alone reads the
      // result (a mean's division, say) runs in lane 0 on each one.
      std::optional<aicc::gpu::Epilogue> epilogue;
      if (fill)
        epilogue = aicc::gpu::findEpilogue(op, fill);
      if (epilogue && epilogue->overwritesOperands)
        epilogue.reset();
      if (epilogue)
        fused.insert(epilogue->op);
      emit(op, *p, blockSize / kWarp, fill, epilogue);
    }
  }
};
} // namespace
