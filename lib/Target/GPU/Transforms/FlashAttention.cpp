//===- FlashAttention.cpp - softmax(Q Kt) V as one tensor-core kernel -----===//
//
// Attention after bufferization is nine ops: the scores S = Q Kt (a
// contraction into an f32 buffer, after its zero fill), each row's maximum
// of g(S) (g: the scale, the mask), the sum of exp(g(S) - max), the
// probabilities exp(g(S) - max) / sum, and O = P V (after its zero fill).
// Where the keys of one row fit in a warp's registers, the whole chain is
// one kernel: a block takes 64 query rows of one batch element and head,
// copies its Q rows and all the keys and values into shared memory, and
// each of its four warps computes its 16 rows' scores on mma.sync, applies
// g, the row maximum and the exponentials in registers (the score
// accumulators of two key tiles are the A fragment of the next product, as
// halves), multiplies them by V, and divides by the row sums as it stores
// O, through O's element-wise consumer when there is one (attention's head
// merge). S, P and the row statistics never reach memory.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "Cost.h"
#include "KernelTiles.h"
#include "MMAKernel.h"

#include "Tile/Transforms/Groups.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUFLASHATTENTIONPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace aicc::gpu::mma {
namespace {

/// The chain, in program order.
struct Attention {
  linalg::GenericOp scoresFill, scores, maxFill, rowMax, sumFill, rowSum, probs,
      outFill, output;
  Value q, k, v;
  AffineMap qMap, kMap, vMap;
  /// Loops of `scores` (batch..., query, key; head dimension) and of
  /// `output` (batch..., query, head dimension; key).
  SmallVector<unsigned> scoreBatch, outBatch;
  unsigned sq, sk, sd, oq, od, ok;
  SmallVector<int64_t> batchExtents;
  int64_t queries, keys, headDim;
  Type half;
  /// Whether each of Q, K and V is read 16 bytes at a time along the head
  /// dimension (else element by element).
  bool qVector, kVector, vVector;
  /// The factor on every score (Q's and K's scales looked through), and
  /// the ops that made Q and K, to erase.
  double scale = 1;
  SmallVector<linalg::GenericOp> producers;
  /// Every buffer the kernel reads (Q, K, V, the mask).
  SmallVector<Value> reads;
};

/// A fill of exactly `buffer` (the same value: not another view of its
/// memory) with zeros.
bool isZeroFill(linalg::GenericOp fill, Value buffer) {
  Value value = aicc::gpu::fillValueOf(fill, buffer);
  return value && matchPattern(value, m_AnyZeroFloat());
}

/// A fill of exactly `buffer` with -inf or the lowest float (a maximum's
/// start).
bool isLowestFill(linalg::GenericOp fill, Value buffer) {
  FloatAttr attr;
  Value value = aicc::gpu::fillValueOf(fill, buffer);
  return value && matchPattern(value, m_Constant(&attr)) &&
         attr.getValueAsDouble() <= -std::numeric_limits<float>::max();
}

/// The value `yield` returns through `op`'s body, and the op defining it if
/// it is an `OpTy`.
template <typename OpTy> OpTy yielded(linalg::GenericOp op) {
  return op.getBody()->getTerminator()->getOperand(0).getDefiningOp<OpTy>();
}

/// Whether `a` (in `opA`'s body) and `b` (in `opB`'s) compute the same
/// expression of the same inputs: block arguments of the same input
/// number, equal values from outside, equal ops.
bool sameExpression(Value a, Value b, linalg::GenericOp opA,
                    linalg::GenericOp opB) {
  auto argA = dyn_cast<BlockArgument>(a), argB = dyn_cast<BlockArgument>(b);
  if (argA || argB) {
    return argA && argB && argA.getOwner() == opA.getBody() &&
           argB.getOwner() == opB.getBody() &&
           argA.getArgNumber() == argB.getArgNumber();
  }
  Operation *defA = a.getDefiningOp(), *defB = b.getDefiningOp();
  bool insideA = opA->isAncestor(defA), insideB = opB->isAncestor(defB);
  if (!insideA || !insideB)
    return !insideA && !insideB && a == b;
  if (defA->getName() != defB->getName() ||
      defA->getAttrDictionary() != defB->getAttrDictionary() ||
      defA->getNumOperands() != defB->getNumOperands() ||
      defA->getNumRegions() != 0 || defB->getNumRegions() != 0 ||
      defA->getNumResults() != 1)
    return false;
  for (auto [x, y] : llvm::zip(defA->getOperands(), defB->getOperands()))
    if (!sameExpression(x, y, opA, opB))
      return false;
  return true;
}

/// Whether `op`'s first inputs are `reference`'s inputs, with the same maps.
bool sameInputs(linalg::GenericOp op, linalg::GenericOp reference) {
  unsigned count = reference.getNumDpsInputs();
  if (op.getNumDpsInputs() < count ||
      op.getNumLoops() != reference.getNumLoops())
    return false;
  for (unsigned i = 0; i < count; ++i)
    if (op.getDpsInputs()[i] != reference.getDpsInputs()[i] ||
        op.getIndexingMapsArray()[i] != reference.getIndexingMapsArray()[i])
      return false;
  return true;
}

/// The block argument of `op` that `v` is, looking through nothing.
std::optional<unsigned> argumentOf(Value v, linalg::GenericOp op) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != op.getBody())
    return std::nullopt;
  return arg.getArgNumber();
}

/// `buffer`'s root and every view of it.
DenseSet<Value> aliasesOf(Value buffer) {
  Value root = aicc::gpu::viewRoot(buffer);
  DenseSet<Value> aliases{root};
  SmallVector<Value> worklist{root};
  while (!worklist.empty())
    for (Operation *user : worklist.pop_back_val().getUsers())
      if (isa<ViewLikeOpInterface>(user) && user->getNumResults() == 1 &&
          aliases.insert(user->getResult(0)).second)
        worklist.push_back(user->getResult(0));
  return aliases;
}

/// Whether `op` (or an op inside it) has an operand among `aliases`.
bool touches(Operation *op, const DenseSet<Value> &aliases) {
  bool found = false;
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      found |= aliases.contains(operand);
  });
  return found;
}

/// Whether `op` writes every element of the buffer `root` (whose views are
/// `aliases`) without reading it: an all-parallel generic with it, or a
/// view of all of it, as its one output through a permutation, not among
/// its inputs, its old value unused.
bool overwrites(Operation *op, Value root, const DenseSet<Value> &aliases) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() != 0 ||
      !aliases.contains(generic.getDpsInits()[0]) ||
      cast<MemRefType>(generic.getDpsInits()[0].getType()).getNumElements() !=
          cast<MemRefType>(root.getType()).getNumElements() ||
      !generic.getIndexingMapsArray().back().isPermutation())
    return false;
  for (Value input : generic.getDpsInputs())
    if (aliases.contains(input))
      return false;
  return generic.getBody()->getArgument(generic.getNumDpsInputs()).use_empty();
}

/// Whether the values the chain leaves in `buffer` are dead after `last`:
/// the buffer is an allocation (bufferization reuses one for every layer's
/// attention), and the first op after `last` that touches it (or a view of
/// it) overwrites it, if any does.
bool deadAfter(Value buffer, Operation *last) {
  Value root = aicc::gpu::viewRoot(buffer);
  // (An allocation in the chain's block: later reads all follow in it.)
  auto alloc = root.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != last->getBlock())
    return false;
  DenseSet<Value> aliases = aliasesOf(buffer);
  for (Operation *op = last->getNextNode(); op; op = op->getNextNode()) {
    if (!touches(op, aliases) || isa<ViewLikeOpInterface>(op))
      continue;
    return isa<memref::DeallocOp>(op) || overwrites(op, root, aliases);
  }
  return true;
}

/// An operand of the scores read through the element-wise ops that made
/// it: ViT scales Q, and K after copying it transposed, by d^-1/4 before
/// the product. Reading the copy's source through the composed map keeps
/// the head dimension contiguous, and the scales become one factor on the
/// scores; the ops themselves go when nothing else reads what they wrote.
struct Source {
  Value memref;
  AffineMap map;
  double scale = 1;
  /// The ops looked through, last first, and whether they may go.
  SmallVector<linalg::GenericOp> producers;
  bool erasable = false;
};

/// The constant `v` multiplies a block argument by, looking through an
/// extension and a truncation: `truncf(mulf(extf(x), c))`, `mulf(x, c)`;
/// or 1 for `x` itself; the argument in `argument`.
std::optional<double> scaleOf(Value v, Value &argument) {
  if (auto trunc = v.getDefiningOp<arith::TruncFOp>())
    v = trunc.getIn();
  FloatAttr constant;
  if (auto mul = v.getDefiningOp<arith::MulFOp>()) {
    Value other;
    if (matchPattern(mul.getRhs(), m_Constant(&constant)))
      other = mul.getLhs();
    else if (matchPattern(mul.getLhs(), m_Constant(&constant)))
      other = mul.getRhs();
    else
      return std::nullopt;
    v = other;
  }
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    v = ext.getIn();
  if (!isa<BlockArgument>(v))
    return std::nullopt;
  argument = v;
  return constant ? constant.getValueAsDouble() : 1.0;
}

Source lookThrough(Value memref, AffineMap map, Operation *chainStart,
                   linalg::GenericOp scores, linalg::GenericOp output) {
  Source source{memref, map};
  Operation *before = chainStart;
  while (true) {
    DenseSet<Value> aliases = aliasesOf(source.memref);
    linalg::GenericOp writer;
    for (Operation *op = before->getPrevNode(); op; op = op->getPrevNode()) {
      if (!touches(op, aliases) || isa<ViewLikeOpInterface>(op))
        continue;
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic)
        break;
      if (llvm::any_of(generic.getDpsInits(),
                       [&](Value v) { return aliases.contains(v); }))
        writer = generic;
      if (writer)
        break;
    }
    // One input, all parallel, writing exactly this buffer element-wise.
    if (!writer || writer.getNumDpsInputs() != 1 ||
        writer.getNumDpsInits() != 1 || writer.getNumReductionLoops() != 0 ||
        writer.getDpsInits()[0] != source.memref ||
        !writer.getIndexingMapsArray()[1].isIdentity())
      break;
    Value argument;
    std::optional<double> scale =
        scaleOf(writer.getBody()->getTerminator()->getOperand(0), argument);
    if (!scale || argument != writer.getBody()->getArgument(0))
      break;
    Value input = writer.getDpsInputs()[0];
    AffineMap inputMap = writer.getIndexingMapsArray()[0];
    // In place, element by element only.
    if (input == source.memref && !inputMap.isIdentity())
      break;
    // The input must not change between the writer and the scores.
    DenseSet<Value> inputAliases = aliasesOf(input);
    bool changed = false;
    if (input != source.memref)
      for (Operation *op = writer->getNextNode(); op != scores.getOperation();
           op = op->getNextNode())
        if (touches(op, inputAliases) && !isa<ViewLikeOpInterface>(op)) {
          auto generic = dyn_cast<linalg::GenericOp>(op);
          changed |=
              !generic || llvm::any_of(generic.getDpsInits(), [&](Value v) {
                return inputAliases.contains(v);
              });
        }
    if (changed)
      break;
    source.scale *= *scale;
    source.producers.push_back(writer);
    before = writer;
    // In place, on to the op before; else the input is the source (every
    // op looked through writes the one buffer the scores read).
    if (input != source.memref) {
      source.map = inputMap.compose(source.map);
      source.memref = input;
      break;
    }
  }
  if (source.producers.empty())
    return source;
  // The ops may go if what they wrote is read by them and the scores alone
  // and dead after the chain.
  Value written = source.producers.front().getDpsInits()[0];
  DenseSet<Value> aliases = aliasesOf(written);
  bool alone = deadAfter(written, output);
  Operation *first = source.producers.back();
  for (Operation *op = first; alone && op != output.getOperation();
       op = op->getNextNode())
    if (touches(op, aliases) && !isa<ViewLikeOpInterface>(op) &&
        op != scores.getOperation() &&
        !llvm::is_contained(source.producers, op))
      alone = false;
  source.erasable = alone;
  return source;
}

/// Whether `map`'s results are exactly the loops `loops`.
bool isLoops(AffineMap map, ArrayRef<unsigned> loops) {
  if (map.getNumResults() != loops.size())
    return false;
  for (auto [e, loop] : llvm::zip(map.getResults(), loops)) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || dim.getPosition() != loop)
      return false;
  }
  return true;
}

/// Attention ending at `output`, if the eight ops before it are its chain.
std::optional<Attention> matchAttention(linalg::GenericOp output) {
  Attention a;
  a.output = output;
  std::optional<aicc::gpu::Contraction> c2 =
      aicc::gpu::matchContraction(output);
  if (!c2 || c2->integer || c2->m.size() != 1 || c2->n.size() != 1 ||
      c2->k.size() != 1)
    return std::nullopt;
  a.oq = c2->m[0];
  a.od = c2->n[0];
  a.ok = c2->k[0];
  // Walk the chain back: each op the one with effects before the next.
  linalg::GenericOp *links[] = {&a.outFill, &a.probs,     &a.rowSum,
                                &a.sumFill, &a.rowMax,    &a.maxFill,
                                &a.scores,  &a.scoresFill};
  Operation *next = output;
  int64_t group = aicc::tile::groupOf(output);
  for (linalg::GenericOp *op : links) {
    *op = dyn_cast_or_null<linalg::GenericOp>(
        aicc::gpu::previousWithEffects(next));
    // tile-fuse's groups: the chain is one group's.
    if (!*op || !aicc::tile::joinsGroup(group, *op))
      return std::nullopt;
    next = *op;
  }
  if (!isZeroFill(a.outFill, output.getDpsInits()[0]))
    return std::nullopt;

  // Scores: S[batch..., q, key] += Q . K over the head dimension.
  std::optional<aicc::gpu::Contraction> c1 =
      aicc::gpu::matchContraction(a.scores);
  if (!c1 || c1->m.size() != 1 || c1->n.size() != 1 || c1->k.size() != 1)
    return std::nullopt;
  Value scores = a.scores.getDpsInits()[0];
  auto scoresType = cast<MemRefType>(scores.getType());
  if (!scoresType.getElementType().isF32() ||
      !scoresType.getLayout().isIdentity() || !isZeroFill(a.scoresFill, scores))
    return std::nullopt;
  int64_t rank = scoresType.getRank();
  SmallVector<AffineMap> scoreMaps = a.scores.getIndexingMapsArray();
  for (AffineExpr e : scoreMaps[2].getResults().drop_back(2))
    a.scoreBatch.push_back(cast<AffineDimExpr>(e).getPosition());
  auto resultLoop = [](AffineMap map, int64_t i) {
    return cast<AffineDimExpr>(map.getResult(i)).getPosition();
  };
  a.sq = resultLoop(scoreMaps[2], rank - 2);
  a.sk = resultLoop(scoreMaps[2], rank - 1);
  a.sd = c1->k[0];
  // Q indexes the query loop, K the key loop.
  unsigned qInput = scoreMaps[0].isFunctionOfDim(a.sq) ? 0 : 1;
  if (!scoreMaps[qInput].isFunctionOfDim(a.sq) ||
      !scoreMaps[1 - qInput].isFunctionOfDim(a.sk))
    return std::nullopt;
  a.q = a.scores.getDpsInputs()[qInput];
  a.k = a.scores.getDpsInputs()[1 - qInput];
  a.qMap = scoreMaps[qInput];
  a.kMap = scoreMaps[1 - qInput];
  a.queries = scoresType.getDimSize(rank - 2);
  a.keys = scoresType.getDimSize(rank - 1);
  a.headDim = c1->bounds[a.sd];
  for (unsigned loop : a.scoreBatch)
    a.batchExtents.push_back(c1->bounds[loop]);

  // The row maximum of g(S): max(out, g(S, extras...)).
  Value rowMax = a.rowMax.getDpsInits()[0];
  auto maxOp = yielded<arith::MaximumFOp>(a.rowMax);
  if (!maxOp || a.rowMax.getNumLoops() != rank ||
      a.rowMax.getDpsInputs().empty() || a.rowMax.getDpsInputs()[0] != scores ||
      !a.rowMax.getIndexingMapsArray()[0].isIdentity() ||
      !isLowestFill(a.maxFill, rowMax))
    return std::nullopt;
  BlockArgument maxOut =
      a.rowMax.getBody()->getArgument(a.rowMax.getNumDpsInputs());
  Value g = maxOp.getLhs() == maxOut   ? maxOp.getRhs()
            : maxOp.getRhs() == maxOut ? maxOp.getLhs()
                                       : Value();
  if (!g)
    return std::nullopt;
  // g is cloned into the kernel: element-wise arithmetic of memref
  // elements only (no linalg.index, no regions).
  for (Operation &op : a.rowMax.getBody()->without_terminator())
    if (isa<linalg::IndexOp>(op) || op.getNumRegions() != 0)
      return std::nullopt;
  for (Value input : a.rowMax.getDpsInputs())
    if (!isa<MemRefType>(input.getType()))
      return std::nullopt;
  // Both statistics reduce the last loop into [batch..., q].
  for (linalg::GenericOp op : {a.rowMax, a.rowSum}) {
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (op.getNumLoops() != rank ||
        iterators.back() != utils::IteratorType::reduction ||
        op.getNumReductionLoops() != 1 ||
        !isLoops(op.getIndexingMapsArray().back(),
                 llvm::to_vector(llvm::seq<unsigned>(0, rank - 1))))
      return std::nullopt;
  }
  // The row sums: out + exp(g - max).
  unsigned extras = a.rowMax.getNumDpsInputs();
  auto sumAdd = yielded<arith::AddFOp>(a.rowSum);
  Value rowSum = a.rowSum.getDpsInits()[0];
  if (!sumAdd || !sameInputs(a.rowSum, a.rowMax) ||
      a.rowSum.getNumDpsInputs() != extras + 1 ||
      aicc::gpu::viewRoot(a.rowSum.getDpsInputs()[extras]) !=
          aicc::gpu::viewRoot(rowMax) ||
      !isZeroFill(a.sumFill, rowSum))
    return std::nullopt;
  auto expOf = [&](Value v, linalg::GenericOp op) -> bool {
    auto exp = v.getDefiningOp<math::ExpOp>();
    auto sub = exp ? exp.getOperand().getDefiningOp<arith::SubFOp>() : nullptr;
    return sub && argumentOf(sub.getRhs(), op) == extras &&
           sameExpression(g, sub.getLhs(), a.rowMax, op);
  };
  BlockArgument sumOut = a.rowSum.getBody()->getArgument(extras + 1);
  if (!((sumAdd.getLhs() == sumOut && expOf(sumAdd.getRhs(), a.rowSum)) ||
        (sumAdd.getRhs() == sumOut && expOf(sumAdd.getLhs(), a.rowSum))))
    return std::nullopt;
  // The probabilities: exp(g - max) / sum, into P.
  auto div = yielded<arith::DivFOp>(a.probs);
  if (!div || !sameInputs(a.probs, a.rowMax) ||
      a.probs.getNumDpsInputs() != extras + 2 ||
      a.probs.getDpsInputs()[extras] != a.rowSum.getDpsInputs()[extras] ||
      aicc::gpu::viewRoot(a.probs.getDpsInputs()[extras + 1]) !=
          aicc::gpu::viewRoot(rowSum) ||
      argumentOf(div.getRhs(), a.probs) != extras + 1 ||
      !expOf(div.getLhs(), a.probs) ||
      !a.probs.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  // The statistics are read per row, and the extras (a mask) as any map.
  for (linalg::GenericOp op : {a.rowSum, a.probs})
    for (unsigned i = extras; i < op.getNumDpsInputs(); ++i) {
      AffineMap map = op.getIndexingMapsArray()[i];
      if (map.getNumResults() < rank - 1)
        return std::nullopt;
      for (int64_t r = 0; r < rank - 1; ++r)
        if (map.getResult(r) != getAffineDimExpr(r, map.getContext()))
          return std::nullopt;
      for (AffineExpr e : map.getResults().drop_front(rank - 1))
        if (!isa<AffineConstantExpr>(e) ||
            cast<AffineConstantExpr>(e).getValue() != 0)
          return std::nullopt;
    }
  // O = P . V: P read as [batch..., q, key].
  Value probs = a.probs.getDpsInits()[0];
  SmallVector<AffineMap> outMaps = output.getIndexingMapsArray();
  if (output.getDpsInputs()[0] != probs)
    return std::nullopt;
  SmallVector<unsigned> pLoops;
  for (AffineExpr e : outMaps[0].getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim)
      return std::nullopt;
    pLoops.push_back(dim.getPosition());
  }
  a.outBatch.assign(pLoops.begin(), pLoops.end() - 2);
  if (pLoops.size() != static_cast<size_t>(rank) || pLoops[rank - 2] != a.oq ||
      pLoops[rank - 1] != a.ok)
    return std::nullopt;
  a.v = output.getDpsInputs()[1];
  a.vMap = outMaps[1];
  if (c2->bounds[a.od] != a.headDim)
    return std::nullopt;

  // Shapes and types the kernel takes.
  a.half = cast<MemRefType>(a.q.getType()).getElementType();
  if (!(a.half.isF16() || a.half.isBF16()) ||
      cast<MemRefType>(a.k.getType()).getElementType() != a.half ||
      cast<MemRefType>(a.v.getType()).getElementType() != a.half ||
      a.headDim % 16 != 0)
    return std::nullopt;
  // Q, K and V read 16 bytes at a time along the head dimension where
  // their layout allows (ViT's K comes transposed, keys contiguous).
  // Q and K through the element-wise ops that made them, where that lets
  // them be read 16 bytes at a time and those ops go.
  for (auto [memref, map] :
       {std::pair{&a.q, &a.qMap}, std::pair{&a.k, &a.kMap}}) {
    Source source = lookThrough(*memref, *map, a.scoresFill, a.scores, output);
    if (!source.erasable ||
        cast<MemRefType>(source.memref.getType()).getElementType() != a.half ||
        !vectorizable(source.memref, source.map, {a.sd}, c1->bounds))
      continue;
    *memref = source.memref;
    *map = source.map;
    a.scale *= source.scale;
    // (Q and K may be one buffer, made once: its ops are erased once.)
    for (linalg::GenericOp producer : source.producers)
      if (!llvm::is_contained(a.producers, producer))
        a.producers.push_back(producer);
  }
  a.qVector = vectorizable(a.q, a.qMap, {a.sd}, c1->bounds);
  a.kVector = vectorizable(a.k, a.kMap, {a.sd}, c1->bounds);
  a.vVector = vectorizable(a.v, a.vMap, {a.od}, c2->bounds);
  // S, its statistics and P are the chain's alone: filled at its start,
  // only its ops in between (they follow one another), dead after it.
  for (Value buffer : {scores, probs, rowMax, rowSum})
    if (!deadAfter(buffer, output))
      return std::nullopt;
  // Nothing in the chain, nor the kernel's own stores of O, writes what
  // the kernel reads (other blocks read all of K, V and the mask while it
  // stores).
  SmallVector<Value> reads{a.q, a.k, a.v};
  llvm::append_range(reads, ValueRange(a.rowMax.getDpsInputs()).drop_front());
  for (Value read : reads)
    for (Value written :
         {scores, probs, rowMax, rowSum, Value(output.getDpsInits()[0])})
      if (aicc::gpu::viewRoot(read) == aicc::gpu::viewRoot(written))
        return std::nullopt;
  a.reads = reads;
  return a;
}

/// Emits the kernel of `a` before `a.output` and erases the chain.
/// `a`'s sizes, without its ops.
AttentionChain sizesOf(const Attention &a) {
  int64_t batches = 1;
  for (int64_t extent : a.batchExtents)
    batches *= extent;
  return {batches, a.queries, a.keys, a.headDim, {}};
}

class FlashKernel {
public:
  FlashKernel(Attention a, AttentionTiling tiling)
      : a(std::move(a)), tiling(tiling) {}
  void emit();

private:
  Attention a;
  AttentionTiling tiling;
};

void FlashKernel::emit() {
  linalg::GenericOp output = a.output;
  OpBuilder b(output);
  Location loc = output.getLoc();
  Emitter e{{b, loc}};
  MLIRContext *context = b.getContext();
  Type f32 = b.getF32Type();
  int64_t keysPadded = llvm::alignTo(a.keys, 16);
  int64_t keyTiles = keysPadded / 8, headTiles = a.headDim / 8;
  int64_t batches = sizesOf(a).batches;

  // O's zero fill goes (the kernel stores O); its consumer may take the
  // stores.
  a.outFill.erase();
  std::optional<aicc::gpu::Epilogue> epilogue = aicc::gpu::findEpilogue(output);
  // Stored through, the epilogue writes its own output: that must not be
  // anything the kernel reads either.
  if (epilogue &&
      (epilogue->overwritesOperands || llvm::any_of(a.reads, [&](Value read) {
         return aicc::gpu::viewRoot(read) ==
                aicc::gpu::viewRoot(epilogue->op.getDpsInits()[0]);
       })))
    epilogue.reset();

  // The warps of a block, 16 query rows each: aicc-gpu-choose-tiles'
  // choice (chooseAttentionTiling).
  int64_t warps = tiling.warps;
  int64_t blockRows = 16 * warps, threads = warps * kWarp;
  b.setInsertionPoint(output);
  mlir::gpu::LaunchOp launch = aicc::gpu::createLaunch(
      b, loc, {llvm::divideCeilSigned(a.queries, blockRows), batches, 1},
      threads);
  int64_t flops = 2 * 2 * batches * a.queries * a.keys * a.headDim;
  aicc::gpu::recordFlops(launch, flops, /*tensorCores=*/true,
                         a.half.getIntOrFloatBitWidth());
  Attribute workgroup = aicc::gpu::workgroupSpace(context);
  int64_t stride = a.headDim + kPad;
  auto sharedType = [&](int64_t rows) {
    return MemRefType::get({rows, stride}, a.half, MemRefLayoutAttrInterface{},
                           workgroup);
  };
  Value qShared = memref::AllocaOp::create(b, loc, sharedType(blockRows));
  Value kShared = memref::AllocaOp::create(b, loc, sharedType(keysPadded));
  Value vShared = memref::AllocaOp::create(b, loc, sharedType(keysPadded));

  Value thread = launch.getThreadIds().x;
  Value lane = e.rem(thread, kWarp), warp = e.div(thread, kWarp);
  Value queryBase = e.mul(launch.getBlockIds().x, blockRows);
  SmallVector<Value> batchIndex(a.batchExtents.size());
  {
    SmallVector<Value> loops(a.batchExtents.size());
    SmallVector<unsigned> roles =
        llvm::to_vector(llvm::seq<unsigned>(0, a.batchExtents.size()));
    e.delinearize(launch.getBlockIds().y, roles, a.batchExtents, loops);
    batchIndex = loops;
  }
  // Loop vectors of the scores op and of the output op for a query, key
  // and head-dimension index.
  auto scoreLoops = [&](Value query, Value key, Value dim) {
    SmallVector<Value> loops(a.scores.getNumLoops(), e.index(0));
    for (auto [loop, index] : llvm::zip(a.scoreBatch, batchIndex))
      loops[loop] = index;
    loops[a.sq] = query;
    loops[a.sk] = key;
    loops[a.sd] = dim;
    return loops;
  };
  auto outLoops = [&](Value query, Value key, Value dim) {
    SmallVector<Value> loops(a.output.getNumLoops(), e.index(0));
    for (auto [loop, index] : llvm::zip(a.outBatch, batchIndex))
      loops[loop] = index;
    loops[a.oq] = query;
    loops[a.ok] = key;
    loops[a.od] = dim;
    return loops;
  };

  // Q's rows of the block, all of K and V, 8 halves a copy (or one where
  // the head dimension is not contiguous, consecutive threads then taking
  // consecutive rows); rows past the edge are zeros.
  auto vectorType = VectorType::get({kVectorElements}, a.half);
  auto stage = [&](Value shared, int64_t rows, int64_t extent, Value base,
                   llvm::function_ref<SmallVector<Value>(Value, Value)> at,
                   Value memref, bool vector) {
    int64_t lanes = vector ? kVectorElements : 1;
    int64_t perRow = a.headDim / lanes, pieces = rows * perRow;
    for (int64_t i = 0; i < llvm::divideCeilSigned(pieces, threads); ++i) {
      Value v = e.add(thread, i * threads);
      Value inside = pieces % threads ? e.less(v, pieces) : Value();
      auto guard = inside ? scf::IfOp::create(b, loc, inside, false) : nullptr;
      OpBuilder::InsertionGuard g(b);
      if (guard)
        b.setInsertionPoint(guard.thenBlock()->getTerminator());
      Value row = vector ? e.div(v, perRow) : e.rem(v, rows);
      Value col = vector ? e.mul(e.rem(v, perRow), lanes) : e.div(v, rows);
      Value global = base ? e.add(base, row) : row;
      Value valid = e.less(global, extent);
      Value clamped =
          arith::SelectOp::create(b, loc, valid, global, e.index(0));
      if (vector) {
        Value value = e.loadVector(memref, at(clamped, col), valid, vectorType);
        vector::StoreOp::create(b, loc, value, shared, ValueRange{row, col},
                                false, llvm::MaybeAlign(16));
      } else {
        Value value = e.load(memref, at(clamped, col), valid, a.half);
        memref::StoreOp::create(b, loc, value, shared, ValueRange{row, col});
      }
    }
  };
  stage(
      qShared, blockRows, a.queries, queryBase,
      [&](Value q, Value d) {
        return e.apply(a.qMap, scoreLoops(q, e.index(0), d));
      },
      a.q, a.qVector);
  stage(
      kShared, keysPadded, a.keys, Value(),
      [&](Value key, Value d) {
        return e.apply(a.kMap, scoreLoops(e.index(0), key, d));
      },
      a.k, a.kVector);
  stage(
      vShared, keysPadded, a.keys, Value(),
      [&](Value key, Value d) {
        return e.apply(a.vMap, outLoops(e.index(0), key, d));
      },
      a.v, a.vVector);
  mlir::gpu::BarrierOp::create(b, loc);

  auto fragA = VectorType::get({4, 2}, a.half);
  auto accType = VectorType::get({2, 2}, f32);
  LdMatrixLane at(e, lane);
  Value matrixRow = at.matrixRow;
  Value warpRow = e.mul(warp, 16);
  Value accZero = arith::ConstantOp::create(
      b, loc, accType, DenseElementsAttr::get(accType, b.getF32FloatAttr(0)));

  // S = Q Kt for the warp's 16 rows and every key.
  SmallVector<Value> scores(keyTiles, accZero);
  for (int64_t ks = 0; ks < a.headDim; ks += 16) {
    Value fragment = nvgpu::LdMatrixOp::create(
        b, loc, fragA, qShared,
        ValueRange{e.add(e.add(warpRow, at.aRowOffset), matrixRow),
                   e.add(at.aKOffset, ks)},
        /*transpose=*/false, /*numTiles=*/4);
    for (int64_t nt = 0; nt < keyTiles; nt += 2) {
      Value both = nvgpu::LdMatrixOp::create(
          b, loc, fragA, kShared,
          ValueRange{e.add(e.add(at.bRowOffset, nt * 8), matrixRow),
                     e.add(at.bKOffset, ks)},
          /*transpose=*/false, /*numTiles=*/4);
      SmallVector<Value, 2> parts = splitBFragments(b, loc, both);
      for (int64_t t = 0; t < 2; ++t)
        scores[nt + t] = mmaSync(b, loc, fragment, parts[t], scores[nt + t]);
    }
  }

  // g on each score (the mask's elements read where the row is inside),
  // -inf past the last key; the rows' maxima over the quad of lanes that
  // holds each row.
  Value group = e.div(lane, 4), pair = e.mul(e.rem(lane, 4), 2);
  Value rows[2] = {e.add(e.add(queryBase, warpRow), group),
                   e.add(e.add(queryBase, warpRow), e.add(group, 8))};
  Value rowInside[2], rowClamped[2];
  for (int64_t i = 0; i < 2; ++i) {
    rowInside[i] = e.less(rows[i], a.queries);
    rowClamped[i] =
        arith::SelectOp::create(b, loc, rowInside[i], rows[i], e.index(0));
  }
  Value minusInf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  Block *body = a.rowMax.getBody();
  auto maxOp = cast<arith::MaximumFOp>(
      body->getTerminator()->getOperand(0).getDefiningOp());
  unsigned extras = a.rowMax.getNumDpsInputs();
  SmallVector<AffineMap> rowMaxMaps = a.rowMax.getIndexingMapsArray();
  auto applyG = [&](Value score, Value query, Value key) -> Value {
    IRMapping mapping;
    if (a.scale != 1)
      score = arith::MulFOp::create(
          b, loc, score,
          arith::ConstantOp::create(b, loc, b.getF32FloatAttr(a.scale)));
    mapping.map(body->getArgument(0), score);
    SmallVector<Value> loops{};
    for (Value index : batchIndex)
      loops.push_back(index);
    loops.push_back(query);
    loops.push_back(key);
    for (unsigned i = 1; i < extras; ++i) {
      Value input = a.rowMax.getDpsInputs()[i];
      Value element =
          memref::LoadOp::create(b, loc, input, e.apply(rowMaxMaps[i], loops));
      mapping.map(body->getArgument(i), element);
    }
    for (Operation &op : body->without_terminator()) {
      if (&op == maxOp.getOperation())
        break;
      b.clone(op, mapping);
    }
    Value g = maxOp.getLhs() == body->getArgument(extras) ? maxOp.getRhs()
                                                          : maxOp.getLhs();
    return mapping.lookupOrDefault(g);
  };
  SmallVector<Value> values(keyTiles * 4);
  Value rowMaxima[2] = {minusInf, minusInf};
  for (int64_t nt = 0; nt < keyTiles; ++nt)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j) {
        Value score = vector::ExtractOp::create(b, loc, scores[nt],
                                                ArrayRef<int64_t>{i, j});
        Value key = e.add(pair, nt * 8 + j);
        // (Past the last key the mask is read at key 0 and the value
        // dropped: the loads stay inside the mask.)
        Value keyInside = a.keys != keysPadded ? e.less(key, a.keys) : Value();
        Value keyClamped =
            keyInside
                ? arith::SelectOp::create(b, loc, keyInside, key, e.index(0))
                      .getResult()
                : key;
        Value value = applyG(score, rowClamped[i], keyClamped);
        if (keyInside)
          value = arith::SelectOp::create(b, loc, keyInside, value, minusInf);
        values[nt * 4 + i * 2 + j] = value;
        rowMaxima[i] = arith::MaximumFOp::create(b, loc, rowMaxima[i], value);
      }
  auto quadReduce = [&](Value v, bool maximum) {
    for (int64_t offset : {1, 2}) {
      Value other = mlir::gpu::ShuffleOp::create(b, loc, v, offset, kWarp,
                                                 mlir::gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      v = maximum ? arith::MaximumFOp::create(b, loc, v, other).getResult()
                  : arith::AddFOp::create(b, loc, v, other).getResult();
    }
    return v;
  };
  for (Value &m : rowMaxima)
    m = quadReduce(m, true);
  // exp(g - max), its row sums; the exponentials as halves, two key tiles
  // at a time the A fragment of P V.
  Value rowSums[2] = {arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)),
                      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0))};
  for (int64_t nt = 0; nt < keyTiles; ++nt)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j) {
        Value &value = values[nt * 4 + i * 2 + j];
        value = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, value, rowMaxima[i]));
        rowSums[i] = arith::AddFOp::create(b, loc, rowSums[i], value);
      }
  for (Value &s : rowSums)
    s = quadReduce(s, false);

  SmallVector<Value> outs(headTiles, accZero);
  Value fragZero = arith::ConstantOp::create(
      b, loc, fragA, DenseElementsAttr::get(fragA, b.getFloatAttr(a.half, 0)));
  for (int64_t kt = 0; kt < keysPadded / 16; ++kt) {
    // A registers: (row, keys of tile 2kt), (row + 8, 2kt), (row, 2kt + 1),
    // (row + 8, 2kt + 1), each two consecutive keys.
    Value fragment = fragZero;
    for (int64_t r = 0; r < 4; ++r) {
      int64_t nt = 2 * kt + r / 2, i = r % 2;
      Value two = vector::FromElementsOp::create(
          b, loc, VectorType::get({2}, f32),
          ValueRange{values[nt * 4 + i * 2], values[nt * 4 + i * 2 + 1]});
      fragment = vector::InsertOp::create(
          b, loc, e.convert(two, VectorType::get({2}, a.half)), fragment,
          ArrayRef<int64_t>{r});
    }
    for (int64_t dt = 0; dt < headTiles; dt += 2) {
      // V is stored as rows of keys (k): read transposed.
      Value both = nvgpu::LdMatrixOp::create(
          b, loc, fragA, vShared,
          ValueRange{e.add(e.add(at.bKOffset, kt * 16), matrixRow),
                     e.add(at.bRowOffset, dt * 8)},
          /*transpose=*/true, /*numTiles=*/4);
      SmallVector<Value, 2> parts = splitBFragments(b, loc, both);
      for (int64_t t = 0; t < 2; ++t)
        outs[dt + t] = mmaSync(b, loc, fragment, parts[t], outs[dt + t]);
    }
  }

  // O = sums / row sums, stored two head dimensions at a time where the
  // output (or the epilogue's) allows.
  Value out = output.getDpsInits()[0];
  AffineMap outMap = output.getIndexingMapsArray()[2];
  bool paired =
      aicc::gpu::storesRows(outMap, a.od, a.headDim, out, epilogue, 2);
  Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1));
  for (int64_t i = 0; i < 2; ++i) {
    Value inverse = arith::DivFOp::create(b, loc, one, rowSums[i]);
    auto store = scf::IfOp::create(b, loc, rowInside[i], false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(store.thenBlock()->getTerminator());
    for (int64_t dt = 0; dt < headTiles; ++dt)
      for (int64_t j = 0; j < (paired ? 1 : 2); ++j) {
        SmallVector<Value> sums;
        for (int64_t jj = j; jj < (paired ? 2 : j + 1); ++jj)
          sums.push_back(arith::MulFOp::create(
              b, loc,
              vector::ExtractOp::create(b, loc, outs[dt],
                                        ArrayRef<int64_t>{i, jj}),
              inverse));
        Value dim = e.add(pair, dt * 8 + j);
        SmallVector<Value> indices =
            e.apply(outMap, outLoops(rows[i], e.index(0), dim));
        aicc::gpu::storeContractionSums(b, loc, sums, out, indices, epilogue);
      }
  }

  // The chain goes; so do S, P and the statistics' buffers once unused.
  llvm::SetVector<Value> buffers;
  for (linalg::GenericOp op : {a.scores, a.probs, a.rowMax, a.rowSum})
    buffers.insert(aicc::gpu::viewRoot(op.getDpsInits()[0]));
  for (linalg::GenericOp op : {a.output, a.probs, a.rowSum, a.sumFill, a.rowMax,
                               a.maxFill, a.scores, a.scoresFill})
    op.erase();
  if (epilogue)
    epilogue->erase(out);
  // The ops that made Q and K, which only the scores read.
  for (linalg::GenericOp producer : a.producers) {
    buffers.insert(aicc::gpu::viewRoot(producer.getDpsInits()[0]));
    producer.erase();
  }
  // Views first, then the allocations.
  std::function<void(Value)> eraseDead = [&](Value v) {
    for (Operation *user : llvm::make_early_inc_range(v.getUsers()))
      if (isa<ViewLikeOpInterface>(user) && user->getNumResults() == 1) {
        eraseDead(user->getResult(0));
        if (user->use_empty())
          user->erase();
      }
  };
  for (Value buffer : buffers) {
    eraseDead(buffer);
    if (buffer.use_empty())
      if (auto alloc = buffer.getDefiningOp<memref::AllocOp>())
        alloc.erase();
  }
}

struct GPUFlashAttentionPass
    : aicc::gpu::impl::GPUFlashAttentionPassBase<GPUFlashAttentionPass> {
  using GPUFlashAttentionPassBase::GPUFlashAttentionPassBase;

  void runOnOperation() override {
    // Each kernel erases ops on both sides of the one it matched at (the
    // chain before, the epilogue after).
    auto emit = [](linalg::GenericOp op) -> FailureOr<bool> {
      std::optional<Attention> attention = matchAttention(op);
      if (!attention)
        return false;
      // The tiling aicc-gpu-choose-tiles recorded; none where it decided
      // the chain does not fit the GPUs.
      std::optional<AttentionTiling> tiling = recordedAttentionTiling(op);
      if (!tiling)
        return false;
      int64_t shared = attentionSharedBytes(tiling->warps, attention->keys,
                                            attention->headDim);
      if (tiling->sharedBytes != shared) {
        op.emitError("aicc-gpu-flash-attention: the tiling's shared "
                     "memory, ")
            << tiling->sharedBytes << " bytes, is not the chain's (" << shared
            << ")";
        return failure();
      }
      FlashKernel(*attention, *tiling).emit();
      return true;
    };
    if (failed(aicc::gpu::rewriteGenericsOutsideLaunches(getOperation(), emit)))
      signalPassFailure();
  }
};

} // namespace
} // namespace aicc::gpu::mma

std::optional<aicc::gpu::AttentionChain>
aicc::gpu::matchAttentionChain(linalg::GenericOp output) {
  std::optional<mma::Attention> attention = mma::matchAttention(output);
  if (!attention)
    return std::nullopt;
  AttentionChain chain = mma::sizesOf(*attention);
  mma::Attention &a = *attention;
  for (linalg::GenericOp op :
       {a.scoresFill, a.scores, a.maxFill, a.rowMax, a.sumFill, a.rowSum,
        a.probs, a.outFill, a.output})
    chain.ops.push_back(op);
  for (linalg::GenericOp op : a.producers)
    chain.ops.push_back(op);
  return chain;
}
