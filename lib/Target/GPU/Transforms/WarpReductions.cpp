//===- WarpReductions.cpp - One warp per reduced output -------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "Cost.h"
#include "Epilogue.h"
#include "KernelTiles.h"
#include "Utils.h"

#include "Tile/Transforms/Groups.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h" // (the pass loads it)
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUWARPREDUCTIONSPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {
using aicc::gpu::kWarpLanes;

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
  // The term comes from the inputs alone: a term reading another output's
  // accumulator would be combined lane by lane out of order.
  SmallVector<Value> work{term};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body && arg.getArgNumber() >= op.getNumDpsInputs())
        return std::nullopt;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || !body->findAncestorOpInBlock(*def))
      continue;
    def->walk([&](Operation *nested) {
      llvm::append_range(work, nested->getOperands());
    });
  }
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
  auto shuffle = mlir::gpu::ShuffleOp::create(b, loc, wide, offset, kWarpLanes,
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
/// A division by a value in `reciprocals` becomes a product with its f32
/// reciprocal (computed once per row: a full-precision division per
/// element costs more than the memory it is next to; the result is within
/// an f32 rounding or two of the quotient).
SmallVector<Value> payload(
    OpBuilder &b, Location loc, linalg::GenericOp op, ArrayRef<Value> loops,
    ValueRange accumulators,
    const DenseMap<OpOperand *, Value> &bound = DenseMap<OpOperand *, Value>(),
    const DenseMap<Value, Value> *reciprocals = nullptr) {
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
    auto divide = dyn_cast<arith::DivFOp>(inner);
    if (Value reciprocal =
            divide && reciprocals
                ? reciprocals->lookup(mapping.lookupOrDefault(divide.getRhs()))
                : Value()) {
      Type type = divide.getType();
      Value product = arith::MulFOp::create(
          b, loc,
          aicc::gpu::convertFloat(
              b, loc, mapping.lookupOrDefault(divide.getLhs()), b.getF32Type()),
          reciprocal);
      mapping.map(divide.getResult(),
                  aicc::gpu::convertFloat(b, loc, product, type));
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
  mlir::gpu::LaunchOp launch;
  Value lane;
  SmallVector<Value> loops;
};
RowLaunch openRowLaunch(OpBuilder &b, Location loc, const Plan &p,
                        int64_t warps) {
  mlir::gpu::LaunchOp launch = aicc::gpu::createLaunch(
      b, loc, {(p.outputs + warps - 1) / warps, 1, 1}, warps * kWarpLanes);
  aicc::gpu::IndexBuilder e{b, loc};
  Value thread = launch.getThreadIds().x;
  RowLaunch r{launch, e.rem(thread, kWarpLanes),
              SmallVector<Value>(p.ranges.size())};
  Value row =
      e.add(e.mul(launch.getBlockIds().x, warps), e.div(thread, kWarpLanes));
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

/// The elements of the row a lane takes per step where `op`'s lanes walk
/// its one reduction loop (the innermost) along contiguous rows
/// (widestRowVector): the warp's steps divide the row, and an input (or,
/// with `storesRow`, the output) is read or written as aligned vectors
/// (walksRow); 1 otherwise.
int64_t elementsPerLane(linalg::GenericOp op, const Plan &p,
                        const DenseMap<OpOperand *, Value> &bound,
                        unsigned vectorBytes, bool storesRow);

/// Whether `operand` of `op` (not bound to a register) is indexed by the
/// innermost loop in its last dimension alone, rows of `lanes` aligned
/// vectors (rowVectorsAligned).
bool walksRow(linalg::GenericOp op, OpOperand *operand, int64_t lanes) {
  auto type = dyn_cast<MemRefType>(operand->get().getType());
  if (!type)
    return false;
  AffineMap map = op.getMatchingIndexingMap(operand);
  unsigned inner = map.getNumDims() - 1;
  if (map.getNumResults() == 0 ||
      map.getResults().back() != getAffineDimExpr(inner, op.getContext()) ||
      llvm::any_of(map.getResults().drop_back(),
                   [&](AffineExpr e) { return e.isFunctionOfDim(inner); }))
    return false;
  return aicc::gpu::rowVectorsAligned(type, lanes);
}

int64_t elementsPerLane(linalg::GenericOp op, const Plan &p,
                        const DenseMap<OpOperand *, Value> &bound,
                        unsigned vectorBytes, bool storesRow) {
  if (p.ranges.size() != p.parallelLoops + 1)
    return 1; // several reduction loops, or none
  SmallVector<OpOperand *> candidates;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!bound.count(input))
      candidates.push_back(input);
  if (storesRow)
    candidates.push_back(op.getDpsInitOperand(0));
  SmallVector<unsigned> rowAccesses;
  for (OpOperand *operand : candidates)
    if (walksRow(op, operand, 1))
      rowAccesses.push_back(
          cast<MemRefType>(operand->get().getType()).getElementTypeBitWidth());
  return aicc::gpu::widestRowVector(rowAccesses, vectorBytes, [&](int64_t n) {
    return p.reduced % (kWarpLanes * n) == 0 &&
           llvm::any_of(candidates, [&](OpOperand *operand) {
             return walksRow(op, operand, n);
           });
  });
}

/// Row vectors already read, by buffer, map, elements per lane and
/// unrolled step: the row a warp holds in registers across the phases of a
/// group.
using HeldRows = DenseMap<std::tuple<Value, AffineMap, int64_t, int64_t>,
                          SmallVector<Value>>;

/// Steps of vectors up to which a lane's share of the row is unrolled and
/// held in registers (16 steps of 8 halves: 128 halves, 64 registers).
constexpr int64_t kMaxHeldSteps = 16;

/// Runs `step` on each of the `lanes` elements of the row from reduction
/// index `r` on: `loops` set for the element, the inputs that walk the row
/// read once as vectors and bound to their elements (with `bound`). In an
/// unrolled step `k` (-1: a loop), vectors already in `held` are reused
/// and new ones kept there.
void forEachElement(
    OpBuilder &b, Location loc, linalg::GenericOp op, const Plan &p, Value r,
    int64_t lanes, SmallVector<Value> &loops,
    const DenseMap<OpOperand *, Value> &bound, HeldRows *held, int64_t k,
    llvm::function_ref<void(const DenseMap<OpOperand *, Value> &)> step) {
  aicc::gpu::IndexBuilder e{b, loc};
  if (lanes == 1) {
    setReductionLoops(e, p, r, loops);
    step(bound);
    return;
  }
  loops.back() = r;
  DenseMap<OpOperand *, SmallVector<Value>> rows;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (bound.count(input) || !walksRow(op, input, lanes))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    auto key = std::make_tuple(input->get(), map, lanes, k);
    if (held && k >= 0 && held->count(key)) {
      rows[input] = (*held)[key];
      continue;
    }
    rows[input] = aicc::gpu::loadRowVector(b, loc, input->get(),
                                           applyAt(b, loc, map, loops), lanes);
    if (held && k >= 0)
      (*held)[key] = rows[input];
  }
  for (int64_t j = 0; j < lanes; ++j) {
    loops.back() = e.add(r, j);
    DenseMap<OpOperand *, Value> withRow = bound;
    for (auto &[input, elements] : rows)
      withRow[input] = elements[j];
    step(withRow);
  }
}

/// A lane's walk along the warp's row, `lanes` elements per step from
/// `lanes` times its lane number in steps of the warp's: `step(b, r, k,
/// values)` gives the values carried to the next step (from `inits`) for
/// the step at index `r`. Unrolled (step number `k`) where a lane's share
/// is at most kMaxHeldSteps vectors, a loop otherwise (`k` = -1).
SmallVector<Value>
walkRow(OpBuilder &b, Location loc, const Plan &p, Value lane, int64_t lanes,
        ValueRange inits,
        llvm::function_ref<SmallVector<Value>(OpBuilder &, Value, int64_t,
                                              ValueRange)>
            step) {
  aicc::gpu::IndexBuilder e{b, loc};
  Value start = e.mul(lane, lanes);
  int64_t stride = kWarpLanes * lanes;
  if (lanes > 1 && p.reduced % stride == 0 &&
      p.reduced / stride <= kMaxHeldSteps) {
    SmallVector<Value> values(inits);
    for (int64_t k = 0; k < p.reduced / stride; ++k)
      values = step(b, e.add(start, k * stride), k, values);
    return values;
  }
  auto loop = scf::ForOp::create(
      b, loc, start, e.index(p.reduced), e.index(stride), inits,
      [&](OpBuilder &body, Location, Value r, ValueRange values) {
        scf::YieldOp::create(body, loc, step(body, r, -1, values));
      });
  return loop.getResults();
}

/// `op` over the warp's row: its lanes stride the reduction loops (set in
/// `loops`), several elements at a time where the rows allow
/// (elementsPerLane, walkRow), from the neutral elements, then butterfly
/// shuffles combine the lanes, leaving every lane with the row's value of
/// each output (the same bits in each: every step combines the same two
/// values); `bound` as for `payload`, `held` as for `forEachElement`.
SmallVector<Value> reduceRow(
    OpBuilder &b, Location loc, linalg::GenericOp op, const Plan &p, Value lane,
    SmallVector<Value> &loops, unsigned vectorBytes,
    const DenseMap<OpOperand *, Value> &bound = DenseMap<OpOperand *, Value>(),
    HeldRows *held = nullptr) {
  // With several elements per step, element j of each step goes to its
  // own chain of accumulators (independent additions in flight, not one
  // long dependent chain), and the chains are combined pairwise after.
  int64_t lanes = elementsPerLane(op, p, bound, vectorBytes, false);
  size_t outputs = p.combiners.size();
  SmallVector<Value> inits;
  for (int64_t chain = 0; chain < lanes; ++chain)
    for (const Combiner &c : p.combiners)
      inits.push_back(arith::ConstantOp::create(b, loc, c.neutral));
  SmallVector<Value> chains = walkRow(
      b, loc, p, lane, lanes, inits,
      [&](OpBuilder &body, Value r, int64_t k, ValueRange accumulators) {
        SmallVector<Value> acc(accumulators);
        int64_t j = 0;
        forEachElement(
            body, loc, op, p, r, lanes, loops, bound, held, k,
            [&](const DenseMap<OpOperand *, Value> &withRow) {
              MutableArrayRef<Value> chain(&acc[j * outputs], outputs);
              llvm::copy(payload(body, loc, op, loops,
                                 ValueRange(ArrayRef<Value>(chain)), withRow),
                         chain.begin());
              ++j;
            });
        return acc;
      });
  for (int64_t width = lanes; width > 1; width /= 2)
    for (int64_t chain = 0; chain < width / 2; ++chain)
      for (auto [i, c] : llvm::enumerate(p.combiners))
        chains[chain * outputs + i] =
            combine(b, c, chains[chain * outputs + i],
                    chains[(chain + width / 2) * outputs + i]);
  SmallVector<Value> partial(ArrayRef<Value>(chains).take_front(outputs));
  for (int64_t offset = kWarpLanes / 2; offset > 0; offset /= 2)
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
          unsigned vectorBytes, linalg::GenericOp initFill,
          const std::optional<aicc::gpu::Epilogue> &epilogue) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  auto [launch, lane, loops] = openRowLaunch(b, loc, p, warps);
  aicc::gpu::recordFlops(
      launch, aicc::gpu::countFlops(op) +
                  (epilogue ? aicc::gpu::countFlops(epilogue->op) : 0));
  SmallVector<Value> partial =
      reduceRow(b, loc, op, p, lane, loops, vectorBytes);
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

/// A softmax's or a normalization's steps as one kernel: phases over the
/// same rows, in program order, each reading what earlier ones wrote only
/// at its own row (in a register, then): reductions with the fills just
/// before them, element-wise ops over the rows alone (a mean's division,
/// a cast of the max), and last an element-wise op over the whole loops.
struct Phase {
  enum Kind { Reduction, Row, Last } kind;
  linalg::GenericOp op;
  linalg::GenericOp fill;   ///< reductions: the fill absorbed
  std::optional<Plan> plan; ///< reductions
  /// Inputs that read an earlier phase's result: that phase's position.
  DenseMap<OpOperand *, unsigned> reads;

  Phase(Kind kind, linalg::GenericOp op, linalg::GenericOp fill = {},
        std::optional<Plan> plan = std::nullopt)
      : kind(kind), op(op), fill(fill), plan(std::move(plan)) {}
};
struct RowGroup {
  SmallVector<Phase> phases;
};

/// Phases at most in a group (a layer norm has six).
constexpr size_t kMaxPhases = 8;

/// The buffer `phase` writes (its one output).
Value phaseOutput(const Phase &phase) {
  linalg::GenericOp op = phase.op;
  return op.getDpsInits()[0];
}

/// Checks the memory `phases.back()` touches against the earlier phases:
/// a row buffer a phase of the group writes (`written`, the later phases'
/// too) is read only where an earlier phase wrote it, at the reader's own
/// row, which then binds the read to that phase's register. Every buffer is an
/// allocation or an argument, whose views `viewRoot` sees (a transpose would
/// alias unseen), or a constant global only read.
bool bindReads(SmallVector<Phase> &phases,
               const llvm::SmallPtrSetImpl<Value> &written) {
  Phase &phase = phases.back();
  linalg::GenericOp op = phase.op;
  for (OpOperand &operand : op->getOpOperands()) {
    Value root = aicc::gpu::viewRoot(operand.get());
    if (!isa<MemRefType>(root.getType()))
      continue;
    bool readOnlyGlobal =
        op.isDpsInput(&operand) && root.getDefiningOp<memref::GetGlobalOp>();
    if (!isa<BlockArgument>(root) && !root.getDefiningOp<memref::AllocOp>() &&
        !readOnlyGlobal)
      return false;
    if (!written.contains(root) || !op.isDpsInput(&operand))
      continue;
    // The latest earlier phase that wrote the buffer.
    std::optional<unsigned> writer;
    for (unsigned j = 0; j + 1 < phases.size(); ++j)
      if (phaseOutput(phases[j]) == root)
        writer = j;
    if (!writer || phases[*writer].kind == Phase::Last)
      return false;
    linalg::GenericOp from = phases[*writer].op;
    AffineMap at = from.getMatchingIndexingMap(from.getDpsInitOperand(0));
    std::optional<SmallVector<AffineExpr>> read =
        readIndices(op, &operand, root);
    if (!read || ArrayRef<AffineExpr>(*read) != at.getResults())
      return false;
    phase.reads[&operand] = *writer;
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

/// The plan of a reduction aicc-gpu-choose-tiles gave a row kernel's
/// tiling, which decided it is worth one; none for any other.
std::optional<Plan> recordedPlan(linalg::GenericOp op) {
  if (!aicc::gpu::recordedRowTiling(op))
    return std::nullopt;
  return plan(op, /*minReduction=*/1,
              /*maxThreadOutputs=*/std::numeric_limits<int64_t>::max());
}

std::optional<RowGroup> matchRowGroup(linalg::GenericOp first, const Plan &p,
                                      linalg::GenericOp fill) {
  if (!fill || p.combiners.size() != 1 || p.parallelLoops == 0)
    return std::nullopt;
  ArrayRef<int64_t> ranges(p.ranges);
  ArrayRef<int64_t> rows = ranges.take_front(p.parallelLoops);
  RowGroup g;
  g.phases.push_back(Phase(Phase::Reduction, first, fill, p));
  int64_t group = aicc::tile::groupOf(first);
  for (Operation *next = aicc::gpu::nextWithEffects(first);;) {
    auto op = dyn_cast_or_null<linalg::GenericOp>(next);
    // tile-fuse's groups: a row group's phases are ops of one group.
    if (!op || g.phases.size() == kMaxPhases || !op.hasPureBufferSemantics() ||
        op.getNumDpsInits() != 1 || !aicc::tile::joinsGroup(group, op))
      return std::nullopt;
    // A fill and the reduction it starts.
    if (aicc::gpu::fillValue(op)) {
      auto reduction =
          dyn_cast_or_null<linalg::GenericOp>(aicc::gpu::nextWithEffects(op));
      if (!reduction || fillBefore(reduction) != op ||
          !aicc::tile::joinsGroup(group, reduction))
        return std::nullopt;
      std::optional<Plan> q = recordedPlan(reduction);
      if (!q || q->combiners.size() != 1 || q->ranges != p.ranges ||
          q->parallelLoops != p.parallelLoops)
        return std::nullopt;
      g.phases.push_back(Phase(Phase::Reduction, reduction, op, q));
      next = aicc::gpu::nextWithEffects(reduction);
      continue;
    }
    SmallVector<int64_t> opRanges = op.getStaticLoopRanges();
    if (op.getNumReductionLoops() != 0 ||
        !op.getBody()->getArguments().back().use_empty())
      return std::nullopt;
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    // Each element written once, by the lane of its row.
    if (!out.isPermutation())
      return std::nullopt;
    if (ArrayRef<int64_t>(opRanges) == ranges) {
      g.phases.push_back(Phase(Phase::Last, op));
      break;
    }
    if (ArrayRef<int64_t>(opRanges) != rows)
      return std::nullopt;
    g.phases.push_back(Phase(Phase::Row, op));
    next = aicc::gpu::nextWithEffects(op);
  }
  // Every phase but the last writes whole row buffers (no views of them):
  // the buffers whose reads bind to registers. A reduction reads its own
  // output only through its accumulator.
  llvm::SmallPtrSet<Value, 8> written;
  for (const Phase &phase : g.phases) {
    if (phase.kind == Phase::Last)
      continue;
    Value output = phaseOutput(phase);
    if (aicc::gpu::viewRoot(output) != output)
      return std::nullopt;
    written.insert(output);
    if (phase.kind == Phase::Reduction &&
        llvm::any_of(linalg::GenericOp(phase.op).getDpsInputOperands(),
                     [&](OpOperand *input) {
                       return aicc::gpu::viewRoot(input->get()) == output;
                     }))
      return std::nullopt;
  }
  SmallVector<Phase> checked;
  for (Phase &phase : g.phases) {
    checked.push_back(phase);
    if (!bindReads(checked, written))
      return std::nullopt;
  }
  g.phases = std::move(checked);
  // The last op may write where the rows are read (a softmax in place)
  // only element for element: each lane then reads an element before it
  // writes it (the reductions' shuffles wait for every lane), and no other
  // warp reads that row. No other phase writes it.
  linalg::GenericOp last = g.phases.back().op;
  OpOperand *result = last.getDpsInitOperand(0);
  Value resultRoot = aicc::gpu::viewRoot(result->get());
  AffineMap resultMap = last.getMatchingIndexingMap(result);
  for (const Phase &phase : g.phases) {
    if (phase.kind != Phase::Last &&
        aicc::gpu::viewRoot(phaseOutput(phase)) == resultRoot)
      return std::nullopt;
    for (OpOperand *input : linalg::GenericOp(phase.op).getDpsInputOperands())
      if (aicc::gpu::viewRoot(input->get()) == resultRoot &&
          (input->get() != result->get() ||
           linalg::GenericOp(phase.op).getMatchingIndexingMap(input) !=
               resultMap))
        return std::nullopt;
  }
  return g;
}

/// For the last phase `op` of a group: the f32 reciprocal of each row
/// value in `bound` that `op` divides an f32, f16 or bf16 value by (a
/// softmax's sum), computed once at `b` for payload().
DenseMap<Value, Value>
rowReciprocals(OpBuilder &b, Location loc, linalg::GenericOp op,
               const DenseMap<OpOperand *, Value> &bound) {
  DenseMap<Value, Value> reciprocals;
  for (auto [operand, value] : bound) {
    BlockArgument arg = op.getMatchingBlockArgument(operand);
    bool divides = llvm::any_of(arg.getUsers(), [&](Operation *user) {
      auto divide = dyn_cast<arith::DivFOp>(user);
      Type type = divide ? divide.getType() : Type();
      return divide && divide.getRhs() == arg &&
             (type.isF32() || type.isF16() || type.isBF16());
    });
    if (divides && !reciprocals.count(value))
      reciprocals[value] = arith::DivFOp::create(
          b, loc, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1)),
          aicc::gpu::convertFloat(b, loc, value, b.getF32Type()));
  }
  return reciprocals;
}

/// The last phase of a group, `op`: its lanes walk the row again (walkRow,
/// reusing the vectors in `held`), each computing and storing its
/// elements, as one vector where the output's rows allow.
void emitLastPhase(OpBuilder &b, Location loc, linalg::GenericOp op,
                   const Plan &p, Value lane, SmallVector<Value> &loops,
                   unsigned vectorBytes,
                   const DenseMap<OpOperand *, Value> &bound, HeldRows &held) {
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  DenseMap<Value, Value> reciprocals = rowReciprocals(b, loc, op, bound);
  int64_t lanes = elementsPerLane(op, p, bound, vectorBytes, true);
  bool storeRows = lanes > 1 && walksRow(op, init, lanes);
  walkRow(b, loc, p, lane, lanes, ValueRange{},
          [&](OpBuilder &body, Value r, int64_t k, ValueRange) {
            SmallVector<Value> row;
            forEachElement(
                body, loc, op, p, r, lanes, loops, bound, &held, k,
                [&](const DenseMap<OpOperand *, Value> &withRow) {
                  Value value = payload(body, loc, op, loops, ValueRange{},
                                        withRow, &reciprocals)[0];
                  if (storeRows)
                    row.push_back(value);
                  else
                    memref::StoreOp::create(body, loc, value, init->get(),
                                            applyAt(body, loc, outMap, loops));
                });
            if (storeRows) {
              loops.back() = r;
              aicc::gpu::storeRowVector(body, loc, row, init->get(),
                                        applyAt(body, loc, outMap, loops));
            }
            return SmallVector<Value>();
          });
}

/// The row group as one launch: a warp per row runs the phases in turn.
/// A reduction's lanes stride the row and the butterfly leaves its result
/// in every lane; a row phase is computed by every lane; lane 0 stores
/// both kinds of result; later phases read them from registers. The last
/// phase's lanes stride the row again, each storing its elements.
void emitRowGroup(RowGroup &g, int64_t warps, unsigned vectorBytes) {
  llvm::SmallPtrSet<Operation *, 16> grouped;
  for (const Phase &phase : g.phases) {
    grouped.insert(phase.op);
    if (phase.fill)
      grouped.insert(phase.fill);
  }
  linalg::GenericOp first = g.phases.front().op;
  linalg::GenericOp last = g.phases.back().op;
  const Plan &p = *g.phases.front().plan;
  // What stands between (views, the last op's allocation) goes first.
  for (Operation *op = first->getNextNode(); op != last;) {
    Operation *following = op->getNextNode();
    if (!grouped.contains(op))
      op->moveBefore(first);
    op = following;
  }
  Location loc = first.getLoc();
  OpBuilder b(first);
  auto [launch, lane, loops] = openRowLaunch(b, loc, p, warps);
  for (const Phase &phase : g.phases)
    aicc::gpu::recordFlops(launch, aicc::gpu::countFlops(phase.op));
  ArrayRef<Value> rowLoops = ArrayRef<Value>(loops).take_front(p.parallelLoops);

  SmallVector<Value> results;
  HeldRows held;
  for (Phase &phase : g.phases) {
    DenseMap<OpOperand *, Value> bound;
    for (auto [operand, writer] : phase.reads)
      bound[operand] = results[writer];
    linalg::GenericOp op = phase.op;
    Value result;
    if (phase.kind == Phase::Last) {
      emitLastPhase(b, loc, op, p, lane, loops, vectorBytes, bound, held);
      break;
    }
    if (phase.kind == Phase::Reduction) {
      Value partial = reduceRow(b, loc, op, *phase.plan, lane, loops,
                                vectorBytes, bound, &held)[0];
      result = combine(b, phase.plan->combiners[0],
                       aicc::gpu::fillValueAt(b, phase.fill), partial);
    } else {
      result = payload(b, loc, op, rowLoops, ValueRange{}, bound)[0];
    }
    results.push_back(result);
    OpBuilder::InsertionGuard guard(b);
    enterLaneZero(b, loc, lane);
    memref::StoreOp::create(b, loc, result, op.getDpsInits()[0],
                            outputIndices(op, 0, loops));
  }
  for (Phase &phase : llvm::reverse(g.phases)) {
    phase.op->erase();
    if (phase.fill)
      phase.fill->erase();
  }
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
      std::optional<Plan> p = recordedPlan(op);
      if (!p)
        continue;
      // The warps of a block: aicc-gpu-choose-tiles' choice
      // (chooseRowTiling), which #aicc_gpu.rows bounds by a block's threads.
      int64_t warps = aicc::gpu::recordedRowTiling(op)->warps;
      // The fill just before, of the one output, becomes the value lane 0
      // combines with: one kernel fewer.
      linalg::GenericOp fill = fillBefore(op);
      // With the fill absorbed, an element-wise op that alone reads the
      // result (a mean's division, say) runs in lane 0 on each one.
      // Two reductions over the same rows and the element-wise op after
      // them (a softmax, a normalization) go in one kernel.
      std::optional<RowGroup> group;
      if (rowGroups)
        group = matchRowGroup(op, *p, fill);
      if (group) {
        for (const Phase &phase : group->phases) {
          fused.insert(phase.op);
          if (phase.fill)
            fused.insert(phase.fill);
        }
        emitRowGroup(*group, warps, vectorBytes);
        continue;
      }
      std::optional<aicc::gpu::Epilogue> epilogue;
      if (fill)
        epilogue = aicc::gpu::findEpilogue(op, fill);
      if (epilogue && epilogue->overwritesOperands)
        epilogue.reset();
      if (epilogue)
        fused.insert(epilogue->op);
      emit(op, *p, warps, vectorBytes, fill, epilogue);
    }
  }
};
} // namespace

std::optional<aicc::gpu::RowKernel>
aicc::gpu::matchRowKernel(linalg::GenericOp op, int64_t minReduction,
                          int64_t maxThreadOutputs) {
  std::optional<Plan> p = plan(op, minReduction, maxThreadOutputs);
  if (!p)
    return std::nullopt;
  return RowKernel{p->outputs, p->reduced};
}
