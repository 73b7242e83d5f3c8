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

/// `map`'s results at `loops`, one affine.apply each.
SmallVector<Value> applyAt(OpBuilder &b, Location loc, AffineMap map,
                           ArrayRef<Value> loops) {
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    indices.push_back(
        affine::AffineApplyOp::create(b, loc, map.getSubMap({r}), loops));
  return indices;
}

/// Loads `op`'s inputs at `loops` and computes its payload with the
/// outputs' block arguments bound to `accumulators`: the new accumulators.
SmallVector<Value> payload(OpBuilder &b, Location loc, linalg::GenericOp op,
                           ArrayRef<Value> loops, ValueRange accumulators,
                           const DenseMap<OpOperand *, Value> &bound =
                               DenseMap<OpOperand *, Value>()) {
  Block *body = op.getBody();
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    if (Value known = bound.lookup(input)) {
      value = known; // an earlier phase's result, in a register
    } else if (isa<MemRefType>(value.getType())) {
      value = memref::LoadOp::create(
          b, loc, value,
          applyAt(b, loc, op.getMatchingIndexingMap(input), loops));
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

/// A launch of `warps` warps per block, warp w of the grid on output (row)
/// w of `p`: `b` is left inside the branch of the warps that have a row;
/// `loops` has the row's parallel loops set, the others null.
struct RowLaunch {
  Value lane;
  SmallVector<Value> loops;
};
RowLaunch openRowLaunch(OpBuilder &b, Location loc, const Plan &p,
                        int64_t warps) {
  mlir::gpu::LaunchOp launch = aicc::gpu::createLaunch(
      b, loc, {(p.outputs + warps - 1) / warps, 1, 1}, warps * kWarp);
  aicc::gpu::IndexBuilder e{b, loc};
  Value thread = launch.getThreadIds().x;
  RowLaunch r{e.rem(thread, kWarp), SmallVector<Value>(p.ranges.size())};
  Value row = e.add(e.mul(launch.getBlockIds().x, warps), e.div(thread, kWarp));
  auto inRange = scf::IfOp::create(b, loc, e.less(row, p.outputs),
                                   /*withElseRegion=*/false);
  b.setInsertionPoint(inRange.thenBlock()->getTerminator());
  llvm::copy(e.delinearize(
                 row, ArrayRef<int64_t>(p.ranges).take_front(p.parallelLoops)),
             r.loops.begin());
  return r;
}

/// Sets the reduction loops of `loops` from their row-major linear index.
void setReductionLoops(aicc::gpu::IndexBuilder &at, const Plan &p, Value linear,
                       SmallVector<Value> &loops) {
  llvm::copy(at.delinearize(linear, ArrayRef<int64_t>(p.ranges).drop_front(
                                        p.parallelLoops)),
             loops.begin() + p.parallelLoops);
}

/// `op` over the warp's row: its lanes stride the reduction loops (set in
/// `loops`) from the neutral elements, then butterfly shuffles combine the
/// lanes, leaving every lane with the row's value of each output (the same
/// bits in each: every step combines the same two values); `bound` as for
/// `payload`.
SmallVector<Value> reduceRow(OpBuilder &b, Location loc, linalg::GenericOp op,
                             const Plan &p, Value lane,
                             SmallVector<Value> &loops,
                             const DenseMap<OpOperand *, Value> &bound =
                                 DenseMap<OpOperand *, Value>()) {
  aicc::gpu::IndexBuilder e{b, loc};
  SmallVector<Value> inits;
  for (const Combiner &c : p.combiners)
    inits.push_back(arith::ConstantOp::create(b, loc, c.neutral));
  auto lanes = scf::ForOp::create(
      b, loc, lane, e.index(p.reduced), e.index(kWarp), inits,
      [&](OpBuilder &body, Location, Value r, ValueRange accumulators) {
        aicc::gpu::IndexBuilder inner{body, loc};
        setReductionLoops(inner, p, r, loops);
        scf::YieldOp::create(
            body, loc, payload(body, loc, op, loops, accumulators, bound));
      });
  SmallVector<Value> partial(lanes.getResults());
  for (int64_t offset = kWarp / 2; offset > 0; offset /= 2)
    for (auto [i, c] : llvm::enumerate(p.combiners))
      partial[i] =
          combine(b, c, partial[i], shuffleXor(b, loc, partial[i], offset));
  return partial;
}

/// Where output `i` of `op` (indexed by parallel loops alone) is at
/// `loops`.
SmallVector<Value> outputIndices(linalg::GenericOp op, unsigned i,
                                 ArrayRef<Value> loops) {
  SmallVector<Value> indices;
  for (AffineExpr r :
       op.getMatchingIndexingMap(op.getDpsInitOperand(i)).getResults())
    indices.push_back(loops[cast<AffineDimExpr>(r).getPosition()]);
  return indices;
}

/// Leaves `b` in a branch that lane 0 of the warp alone takes.
void enterLaneZero(OpBuilder &b, Location loc, Value lane) {
  aicc::gpu::IndexBuilder e{b, loc};
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, e.index(0)),
      /*withElseRegion=*/false);
  b.setInsertionPoint(first.thenBlock()->getTerminator());
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
  auto [lane, loops] = openRowLaunch(b, loc, p, warps);
  SmallVector<Value> partial = reduceRow(b, loc, op, p, lane, loops);
  enterLaneZero(b, loc, lane);
  for (auto [i, c] : llvm::enumerate(p.combiners)) {
    OpOperand *init = op.getDpsInitOperand(i);
    SmallVector<Value> indices = outputIndices(op, i, loops);
    Value old = initFill ? aicc::gpu::fillValueAt(b, initFill)
                         : memref::LoadOp::create(b, loc, init->get(), indices);
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

/// The indices into `target` that `op` reads at through `input` (the
/// input `target` itself, or expand_shape views of it), as expressions of
/// `op`'s loops; none if another view stands between.
std::optional<SmallVector<AffineExpr>>
readIndices(linalg::GenericOp op, OpOperand *input, Value target) {
  AffineMap map = op.getMatchingIndexingMap(input);
  SmallVector<AffineExpr> exprs(map.getResults());
  Value v = input->get();
  while (v != target) {
    auto expand = v.getDefiningOp<memref::ExpandShapeOp>();
    if (!expand)
      return std::nullopt;
    ArrayRef<int64_t> shape = expand.getResultType().getShape();
    SmallVector<AffineExpr> source;
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      AffineExpr e = getAffineConstantExpr(0, op.getContext());
      for (int64_t d : group)
        e = e * shape[d] + exprs[d];
      source.push_back(e);
    }
    exprs = source;
    v = expand.getSrc();
  }
  for (AffineExpr &e : exprs)
    e = simplifyAffineExpr(e, map.getNumDims(), 0);
  return exprs;
}

/// A softmax's or a normalization's steps as one kernel: `first` and
/// `second`, reductions over the same loops with their fills, then
/// `last`, an element-wise op over those loops; `second` and `last` read
/// the reductions' results only at their own row, which each phase then
/// has in a register.
struct RowGroup {
  linalg::GenericOp first, firstFill, second, secondFill, last;
  DenseMap<OpOperand *, Value> secondReads, lastReads; // -> out buffer
};

/// Whether every read `op` makes of the reductions' outputs (`outs`, with
/// the maps of their elements `outMaps`) is at the row its loops are on;
/// those reads go to `reads`. Its other inputs and its output must not be
/// those buffers.
bool readsRowsOnly(linalg::GenericOp op, ArrayRef<Value> outs,
                   ArrayRef<AffineMap> outMaps,
                   DenseMap<OpOperand *, Value> &reads) {
  for (OpOperand &operand : op->getOpOperands()) {
    Value root = aicc::gpu::viewRoot(operand.get());
    auto it = llvm::find(outs, root);
    if (it == outs.end())
      continue;
    if (!op.isDpsInput(&operand))
      return false;
    AffineMap outMap = outMaps[it - outs.begin()];
    std::optional<SmallVector<AffineExpr>> at = readIndices(op, &operand, *it);
    if (!at || ArrayRef<AffineExpr>(*at) != outMap.getResults())
      return false;
    reads[&operand] = *it;
  }
  return true;
}

/// The fill of `op`'s one output just before it, or null.
linalg::GenericOp fillBefore(linalg::GenericOp op) {
  Operation *before = op->getPrevNode();
  while (before && isPure(before))
    before = before->getPrevNode();
  auto fill = dyn_cast_or_null<linalg::GenericOp>(before);
  if (!fill || op.getNumDpsInits() != 1 || fill.getNumDpsInits() != 1 ||
      fill.getDpsInits()[0] != op.getDpsInits()[0] ||
      !aicc::gpu::fillValue(fill))
    return {};
  return fill;
}

std::optional<RowGroup> matchRowGroup(linalg::GenericOp first, const Plan &p,
                                      linalg::GenericOp fill,
                                      int64_t minReduction,
                                      int64_t maxThreadOutputs) {
  if (!fill || p.combiners.size() != 1)
    return std::nullopt;
  RowGroup g;
  g.first = first;
  g.firstFill = fill;
  auto secondFill =
      dyn_cast_or_null<linalg::GenericOp>(aicc::gpu::nextWithEffects(first));
  if (!secondFill)
    return std::nullopt;
  g.second = dyn_cast_or_null<linalg::GenericOp>(
      aicc::gpu::nextWithEffects(secondFill));
  if (!g.second || fillBefore(g.second) != secondFill)
    return std::nullopt;
  g.secondFill = secondFill;
  std::optional<Plan> q = plan(g.second, minReduction, maxThreadOutputs);
  if (!q || q->combiners.size() != 1 || q->ranges != p.ranges ||
      q->parallelLoops != p.parallelLoops)
    return std::nullopt;
  g.last =
      dyn_cast_or_null<linalg::GenericOp>(aicc::gpu::nextWithEffects(g.second));
  if (!g.last || !g.last.hasPureBufferSemantics() ||
      g.last.getNumReductionLoops() != 0 || g.last.getNumDpsInits() != 1 ||
      g.last.getStaticLoopRanges() != SmallVector<int64_t>(p.ranges) ||
      !g.last.getBody()->getArguments().back().use_empty())
    return std::nullopt;
  Value out1 = first.getDpsInits()[0], out2 = g.second.getDpsInits()[0];
  if (aicc::gpu::viewRoot(out1) != out1 || aicc::gpu::viewRoot(out2) != out2 ||
      out1 == out2)
    return std::nullopt;
  AffineMap map1 = first.getMatchingIndexingMap(first.getDpsInitOperand(0));
  AffineMap map2 =
      g.second.getMatchingIndexingMap(g.second.getDpsInitOperand(0));
  // Neither reduction reads its own output but through its accumulator.
  for (auto [op, out] : {std::pair(first, out1), std::pair(g.second, out2)})
    for (OpOperand *input : op.getDpsInputOperands())
      if (aicc::gpu::viewRoot(input->get()) == out)
        return std::nullopt;
  DenseMap<OpOperand *, Value> none;
  if (!readsRowsOnly(first, {out2}, {map2}, none) || !none.empty() ||
      !readsRowsOnly(g.second, {out1}, {map1}, g.secondReads) ||
      !readsRowsOnly(g.last, {out1, out2}, {map1, map2}, g.lastReads))
    return std::nullopt;
  // The last op may write where the rows are read (a softmax in place)
  // only element for element: each lane then reads an element before it
  // writes it, and no other warp reads that row.
  OpOperand *result = g.last.getDpsInitOperand(0);
  Value resultRoot = aicc::gpu::viewRoot(result->get());
  AffineMap resultMap = g.last.getMatchingIndexingMap(result);
  // Each element written once, by the lane of its row; and every buffer an
  // allocation or an argument, whose views `viewRoot` sees (a transpose
  // would alias unseen), or a constant global only read.
  if (!resultMap.isPermutation())
    return std::nullopt;
  for (linalg::GenericOp op : {first, g.second, g.last})
    for (OpOperand &operand : op->getOpOperands()) {
      Value root = aicc::gpu::viewRoot(operand.get());
      bool readOnlyGlobal =
          op.isDpsInput(&operand) && root.getDefiningOp<memref::GetGlobalOp>();
      if (isa<MemRefType>(root.getType()) && !isa<BlockArgument>(root) &&
          !root.getDefiningOp<memref::AllocOp>() && !readOnlyGlobal)
        return std::nullopt;
    }
  for (linalg::GenericOp op : {first, g.second, g.last})
    for (OpOperand *input : op.getDpsInputOperands())
      if (aicc::gpu::viewRoot(input->get()) == resultRoot &&
          (input->get() != result->get() ||
           op.getMatchingIndexingMap(input) != resultMap))
        return std::nullopt;
  return g;
}

/// The row group as one launch: a warp per row computes the first
/// reduction (its lanes over the row, the butterfly leaving the result in
/// every lane), then the second with the first's result in a register,
/// then the element-wise op with both; lane 0 still stores both results.
void emitRowGroup(RowGroup &g, const Plan &p, const Plan &q, int64_t warps) {
  // What stands between (views, the last op's allocation) goes first.
  for (Operation *op = g.first->getNextNode(); op != g.last;) {
    Operation *following = op->getNextNode();
    if (op != g.secondFill && op != g.second)
      op->moveBefore(g.first);
    op = following;
  }
  Location loc = g.first.getLoc();
  OpBuilder b(g.first);
  auto [lane, loops] = openRowLaunch(b, loc, p, warps);
  aicc::gpu::IndexBuilder e{b, loc};

  // One reduction phase: its result, in every lane, stored by lane 0.
  auto reduce = [&](linalg::GenericOp op, const Plan &plan,
                    linalg::GenericOp fill,
                    const DenseMap<OpOperand *, Value> &bound) {
    Value partial = reduceRow(b, loc, op, plan, lane, loops, bound)[0];
    Value result =
        combine(b, plan.combiners[0], aicc::gpu::fillValueAt(b, fill), partial);
    OpBuilder::InsertionGuard guard(b);
    enterLaneZero(b, loc, lane);
    memref::StoreOp::create(b, loc, result, op.getDpsInits()[0],
                            outputIndices(op, 0, loops));
    return result;
  };
  Value out1 = g.first.getDpsInits()[0];
  Value result1 =
      reduce(g.first, p, g.firstFill, DenseMap<OpOperand *, Value>());
  DenseMap<OpOperand *, Value> bound;
  for (auto [operand, out] : g.secondReads)
    bound[operand] = result1;
  Value result2 = reduce(g.second, q, g.secondFill, bound);
  bound.clear();
  for (auto [operand, out] : g.lastReads)
    bound[operand] = out == out1 ? result1 : result2;
  scf::ForOp::create(
      b, loc, lane, e.index(p.reduced), e.index(kWarp), ValueRange{},
      [&](OpBuilder &body, Location, Value r, ValueRange) {
        aicc::gpu::IndexBuilder inner{body, loc};
        setReductionLoops(inner, p, r, loops);
        SmallVector<Value> values =
            payload(body, loc, g.last, loops, ValueRange{}, bound);
        OpOperand *init = g.last.getDpsInitOperand(0);
        memref::StoreOp::create(
            body, loc, values[0], init->get(),
            applyAt(body, loc, g.last.getMatchingIndexingMap(init), loops));
        scf::YieldOp::create(body, loc);
      });
  for (Operation *op : {g.last.getOperation(), g.second.getOperation(),
                        g.secondFill.getOperation(), g.first.getOperation(),
                        g.firstFill.getOperation()})
    op->erase();
}

struct GPUWarpReductionsPass
    : aicc::gpu::impl::GPUWarpReductionsPassBase<GPUWarpReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize < kWarp || blockSize % kWarp != 0) {
      getOperation().emitError("aicc-gpu-warp-reductions: block-size must "
                               "be a positive multiple of 32");
      return signalPassFailure();
    }
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
      linalg::GenericOp fill = fillBefore(op);
      // With the fill absorbed, an element-wise op that alone reads the
      // result (a mean's division, say) runs in lane 0 on each one.
      // Two reductions over the same rows and the element-wise op after
      // them (a softmax, a normalization) go in one kernel.
      std::optional<RowGroup> group;
      if (rowGroups)
        group = matchRowGroup(op, *p, fill, minReduction, maxThreadOutputs);
      if (group) {
        std::optional<Plan> q =
            plan(group->second, minReduction, maxThreadOutputs);
        fused.insert(group->secondFill);
        fused.insert(group->second);
        fused.insert(group->last);
        emitRowGroup(*group, *p, *q, blockSize / kWarp);
        continue;
      }
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
