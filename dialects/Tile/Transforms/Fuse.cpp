//===- Fuse.cpp - Producers and consumers into fusion regions -------------===//
//
// tile-fuse: the compiler's fusion decisions, made once on the tile graph.
// The compute ops of a block (contractions, element-wise ops, reductions)
// are partitioned into groups, each meant to be one kernel, and every
// group becomes a `tile.fusion` region whose `kind` says what kernel it
// is:
//
// - attention: QK^T, its scale and mask, a softmax along the keys, and the
//   product with V, where a row's keys fit the registers of one kernel;
// - contraction: a product or convolution with its epilogue, the
//   element-wise ops on its result (bias, activation, residual, cast) up
//   to the one value that leaves the group;
// - reduction: a reduction with the element-wise producers only the group
//   reads,
//   and, along rows (trailing axes kept), the later reductions and
//   element-wise ops of the same rows that a normalization or a softmax
//   is made of, up to the one value that leaves;
// - elementwise: chains and trees of element-wise ops.
//
// Groups are formed in that order, in program order within each kind, so
// an element-wise op goes to the contraction before it rather than to the
// reduction after it. A group takes an op only if every operand the op
// reads from the group's reach is the group's own (the region stays
// convex), and only while a cost model in bytes of memory traffic, with
// the kernels' resource limits, says the op pays: see Budget and
// `recomputeCost`. Reshapes join as views; the other layout ops
// (transpose, slice, ...) stay outside the regions: the targets read them
// in place or copy them.
//
// The targets lower the regions' bodies and dissolve them with
// `tile-inline-fusions mark-groups`, which tags each op with its group;
// their kernel passes build at most one group per kernel.
//
//===----------------------------------------------------------------------===//

#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Groups.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace aicc::tile {
#define GEN_PASS_DEF_TILEFUSEPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {

enum class Role { Contraction, Elementwise, Reduction, View, None };

Role roleOf(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return Role::None;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return Role::None;
  if (isa<MatmulOp, ConvOp>(op))
    return Role::Contraction;
  if (isa<UnaryOp, BinaryOp, CompareOp, SelectOp, CastOp, ClassifyOp>(op))
    return Role::Elementwise;
  if (isa<ReduceOp>(op))
    return Role::Reduction;
  if (isa<ReshapeOp>(op))
    return Role::View;
  return Role::None;
}

RankedTensorType typeOf(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

/// Bytes of a static tensor of numbers (0 for anything else).
int64_t bytesOf(Value value) {
  RankedTensorType type = typeOf(value);
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return 0;
  return type.getNumElements() *
         std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

bool isConstant(Value value) {
  return value.getDefiningOp() && matchPattern(value, m_Constant());
}

/// Whether a reduction runs along rows: its axes are the trailing ones and
/// it keeps them (a softmax's max and sum, a normalization's means).
bool reducesRows(ReduceOp op) {
  ArrayRef<int64_t> axes = op.getAxes();
  int64_t rank = typeOf(op.getInput()).getRank();
  if (!op.getKeepDims() || axes.empty() || axes.back() != rank - 1)
    return false;
  for (size_t i = 1; i < axes.size(); ++i)
    if (axes[i] != axes[i - 1] + 1)
      return false;
  return true;
}

/// Whether an op outside `set` reads `op`'s result.
bool readOutside(Operation *op, const llvm::SmallPtrSetImpl<Operation *> &set) {
  return llvm::any_of(op->getResult(0).getUsers(),
                      [&](Operation *user) { return !set.contains(user); });
}

/// What one group may still take: a kernel's operands and body live in
/// registers, so a group stops growing at these limits.
struct Budget {
  int64_t maxOps;
  int64_t maxInputs;
  /// Whether the kernel computes a value read broadcast once per element
  /// that reads it (element-wise kernels), not once per row held in a
  /// register (the rows of a reduction group).
  bool recomputes = true;
};

class Partition {
public:
  Partition(Block &block, const TileFusePassOptions &options)
      : block(block), options(options) {}

  void run() {
    if (options.attention)
      for (Operation &op : block)
        if (auto product = dyn_cast<MatmulOp>(op); product && !grouped(&op))
          formAttention(product);
    for (Operation &op : block)
      if (roleOf(&op) == Role::Contraction && !grouped(&op))
        formForward(&op, "contraction");
    for (Operation &op : block)
      if (auto reduce = dyn_cast<ReduceOp>(op);
          reduce && roleOf(&op) == Role::Reduction && !grouped(&op))
        formReduction(reduce);
    for (Operation &op : block)
      if (roleOf(&op) == Role::Elementwise && !grouped(&op))
        formForward(&op, "elementwise");
  }

  struct Group {
    StringRef kind;
    SmallVector<Operation *> ops;
  };
  SmallVector<Group> groups;

private:
  bool grouped(Operation *op) const { return groupOf.contains(op); }

  void add(StringRef kind, ArrayRef<Operation *> ops) {
    for (Operation *op : ops)
      groupOf[op] = groups.size();
    groups.push_back({kind, SmallVector<Operation *>(ops)});
  }

  /// The number of values of `ops` that ops outside them read.
  static unsigned escaping(ArrayRef<Operation *> ops) {
    llvm::SmallPtrSet<Operation *, 16> set(ops.begin(), ops.end());
    return llvm::count_if(ops,
                          [&](Operation *op) { return readOutside(op, set); });
  }

  /// The values from outside `ops` that they read, constants excluded
  /// (regions take copies of those).
  static unsigned externalInputs(ArrayRef<Operation *> ops) {
    llvm::SmallPtrSet<Operation *, 16> set(ops.begin(), ops.end());
    llvm::SmallPtrSet<Value, 8> inputs;
    for (Operation *op : ops)
      for (Value operand : op->getOperands())
        if (!isConstant(operand) &&
            !(operand.getDefiningOp() && set.contains(operand.getDefiningOp())))
          inputs.insert(operand);
    return inputs.size();
  }

  /// The traffic, in bytes, that taking the element-wise `op` into a group
  /// holding `members` adds: zero where it reads the members' values at
  /// its own elements; where it reads a member's smaller value broadcast
  /// (a bias computed in the graph), the kernel computes the member again
  /// for each of the op's elements that reuses one of its elements, and
  /// reads the member's inputs again, from memory where they are larger
  /// than the cache (`cache-bytes`; smaller ones stay there), against
  /// the member's result written and read back, and a launch, saved.
  int64_t recomputeCost(Operation *op,
                        const llvm::SmallPtrSetImpl<Operation *> &members) {
    int64_t cost = 0;
    int64_t elements = typeOf(op->getResult(0)).getNumElements();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      // Through reshapes of the group's values to what they view.
      while (def && members.contains(def) && roleOf(def) == Role::View)
        def = def->getOperand(0).getDefiningOp();
      if (!def || !members.contains(def) || roleOf(def) != Role::Elementwise)
        continue;
      int64_t produced = typeOf(operand).getNumElements();
      if (produced == 0 || produced >= elements)
        continue;
      int64_t inputs = 0;
      for (Value input : def->getOperands())
        if (bytesOf(input) > options.cacheBytes)
          inputs += bytesOf(input);
      int64_t again = inputs * (elements / produced - 1);
      int64_t saved = 2 * bytesOf(operand) + options.launchBytes;
      cost += std::max<int64_t>(0, again - saved);
    }
    return cost;
  }

  /// Grows a group from `seed` along the ops after it: an op joins when it
  /// has the role and shape `accepts` asks for, reads from the seed's
  /// reach only the group's values, and the traffic model lets it. Then
  /// keeps the longest prefix (in program order) that `valid` accepts.
  SmallVector<Operation *>
  grow(Operation *seed, SmallVector<Operation *> members,
       function_ref<bool(Operation *, ArrayRef<Operation *>)> accepts,
       function_ref<bool(ArrayRef<Operation *>)> valid, Budget budget) {
    size_t initial = members.size();
    llvm::SmallPtrSet<Operation *, 32> reach(members.begin(), members.end());
    llvm::SmallPtrSet<Operation *, 32> memberSet(members.begin(),
                                                 members.end());
    constexpr int kWindow = 128;
    int sinceLast = 0;
    for (Operation *op = seed->getNextNode(); op && sinceLast < kWindow;
         op = op->getNextNode(), ++sinceLast) {
      bool reached = false, onlyMembers = true;
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands()) {
          Operation *def = operand.getDefiningOp();
          if (!def || !reach.contains(def))
            continue;
          reached = true;
          onlyMembers &= nested == op && memberSet.contains(def);
        }
      });
      if (!reached)
        continue;
      reach.insert(op);
      sinceLast = 0;
      if (!onlyMembers || grouped(op) ||
          (int64_t)members.size() >= budget.maxOps || !accepts(op, members) ||
          (budget.recomputes && recomputeCost(op, memberSet) > 0))
        continue;
      members.push_back(op);
      if (externalInputs(members) > budget.maxInputs) {
        members.pop_back();
        continue;
      }
      memberSet.insert(op);
    }
    // The longest valid prefix: members come in program order, so every
    // prefix holds each op's producers among the members.
    size_t keep = initial;
    for (size_t size = initial + 1; size <= members.size(); ++size)
      if (valid(ArrayRef<Operation *>(members).take_front(size)))
        keep = size;
    members.truncate(keep);
    return members;
  }

  /// A product or convolution with its epilogue, or element-wise ops.
  void formForward(Operation *seed, StringRef kind) {
    RankedTensorType seedType = typeOf(seed->getResult(0));
    bool contraction = kind == "contraction";
    auto accepts = [&](Operation *op, ArrayRef<Operation *>) {
      // A reshape is a view: the ops after it read the same elements.
      if (roleOf(op) == Role::View)
        return true;
      if (roleOf(op) != Role::Elementwise)
        return false;
      RankedTensorType type = typeOf(op->getResult(0));
      // An epilogue runs on the contraction's sums, one element each.
      if (contraction)
        return type.getNumElements() == seedType.getNumElements();
      return type.getNumElements() >= seedType.getNumElements();
    };
    // The contraction's sums never leave the kernel once an epilogue takes
    // them: one value leaves. Element-wise groups may have several results.
    auto valid = [&](ArrayRef<Operation *> ops) {
      if (!contraction)
        return true;
      return escaping(ops) <= 1 &&
             llvm::all_of(seed->getResult(0).getUsers(), [&](Operation *u) {
               return llvm::is_contained(ops, u);
             });
    };
    Budget budget =
        contraction ? Budget{options.maxEpilogueOps + 1,
                             options.maxEpilogueInputs + seed->getNumOperands()}
                    : Budget{options.maxOps, options.maxInputs};
    add(kind, grow(seed, {seed}, accepts, valid, budget));
  }

  /// Removes from `members` the ops of `before` that an op outside
  /// `members` reads, and, in turn, the ops of `before` that those read.
  static void dropLeaking(SmallVector<Operation *> &members,
                          ArrayRef<Operation *> before) {
    for (bool changed = true; changed;) {
      changed = false;
      llvm::SmallPtrSet<Operation *, 16> set(members.begin(), members.end());
      for (Operation *op : before)
        if (set.contains(op) && readOutside(op, set)) {
          llvm::erase(members, op);
          changed = true;
          break;
        }
    }
  }

  /// A reduction with the element-wise ops of its input's shape before it
  /// that only the group reads (a cast to f32 that a normalization's mean
  /// and centring both read), and, for a reduction along rows, the row's
  /// later phases.
  void formReduction(ReduceOp reduce) {
    SmallVector<Operation *> before;
    SmallVector<Value> worklist{reduce.getInput()};
    Value input = reduce.getInput();
    while (!worklist.empty() && (int64_t)before.size() < options.maxOps) {
      Value value = worklist.pop_back_val();
      Operation *def = value.getDefiningOp();
      if (!def || def->getBlock() != &block || grouped(def) ||
          roleOf(def) != Role::Elementwise || llvm::is_contained(before, def) ||
          typeOf(value).getShape() != typeOf(input).getShape())
        continue;
      before.push_back(def);
      SmallVector<Operation *> candidate(before);
      candidate.push_back(reduce);
      if (externalInputs(candidate) > options.maxInputs) {
        before.pop_back();
        continue;
      }
      for (Value operand : def->getOperands())
        worklist.push_back(operand);
    }
    llvm::sort(before, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    ArrayRef<int64_t> full = typeOf(input).getShape();
    ArrayRef<int64_t> rows = typeOf(reduce.getResult()).getShape();
    auto accepts = [&](Operation *op, ArrayRef<Operation *> members) {
      if (auto next = dyn_cast<ReduceOp>(op))
        return roleOf(op) == Role::Reduction &&
               next.getAxes() == reduce.getAxes() && next.getKeepDims() &&
               typeOf(next.getInput()).getShape() == full &&
               llvm::count_if(members, llvm::IsaPred<ReduceOp>) <
                   options.maxRowReductions;
      if (roleOf(op) != Role::Elementwise)
        return false;
      ArrayRef<int64_t> shape = typeOf(op->getResult(0)).getShape();
      return shape == full || shape == rows;
    };
    // One value leaves: the last phase's (or a statistic's).
    auto valid = [](ArrayRef<Operation *> ops) { return escaping(ops) <= 1; };
    // Grown with every op before it that may join, then again without
    // those that an op outside the group reads (each would be a second
    // value leaving it, and cut the rows' phases short).
    for (int round = 0;; ++round) {
      SmallVector<Operation *> members(before);
      members.push_back(reduce);
      if (reducesRows(reduce))
        members = grow(reduce, members, accepts, valid,
                       Budget{options.maxOps, options.maxInputs,
                              /*recomputes=*/false});
      SmallVector<Operation *> kept(members);
      dropLeaking(kept, before);
      if (kept.size() == members.size() || round == 2) {
        add("reduction", kept);
        return;
      }
      llvm::erase_if(
          before, [&](Operation *op) { return !llvm::is_contained(kept, op); });
    }
  }

  /// Whether `op` is an op of this block, not grouped, whose result has
  /// exactly `uses` uses.
  bool available(Operation *op, unsigned uses) const {
    return op && op->getBlock() == &block && !grouped(op) &&
           op->getResult(0).hasNUses(uses);
  }

  /// The op defining `value` if it is an `OpTy` that is `available`.
  template <typename OpTy> OpTy only(Value value, unsigned uses = 1) {
    auto op = value.getDefiningOp<OpTy>();
    return op && available(op, uses) ? op : nullptr;
  }

  /// QK^T, element-wise ops on the scores (scale, mask), a softmax along
  /// the keys and the product with V, ending at `pv`, where a kernel can
  /// hold a row's scores and outputs in registers.
  void formAttention(MatmulOp pv) {
    auto div = only<BinaryOp>(pv.getLhs());
    if (!div || div.getKind() != BinaryKind::div || pv.getTransposeLhs())
      return;
    auto exp = only<UnaryOp>(div.getLhs(), 2);
    auto sum = only<ReduceOp>(div.getRhs());
    if (!exp || exp.getKind() != UnaryKind::exp || !sum ||
        sum.getKind() != ReduceKind::sum || sum.getInput() != exp.getResult() ||
        !reducesRows(sum) || sum.getAxes().size() != 1)
      return;
    auto sub = only<BinaryOp>(exp.getInput());
    if (!sub || sub.getKind() != BinaryKind::sub)
      return;
    auto max = only<ReduceOp>(sub.getRhs());
    if (!max || max.getKind() != ReduceKind::max || !max.getKeepDims() ||
        max.getInput() != sub.getLhs() || max.getAxes() != sum.getAxes())
      return;
    // The scores, back through element-wise ops that each take one operand
    // of the scores' shape from the chain, to QK^T.
    SmallVector<Operation *> chain;
    Value scores = sub.getLhs();
    RankedTensorType scoresType = typeOf(scores);
    MatmulOp qk;
    for (unsigned uses = 2; !qk && chain.size() <= 3; uses = 1) {
      Operation *def = scores.getDefiningOp();
      if (!available(def, uses))
        return;
      if (auto product = dyn_cast<MatmulOp>(def)) {
        qk = product;
        break;
      }
      if (roleOf(def) != Role::Elementwise)
        return;
      chain.push_back(def);
      Value next;
      for (Value operand : def->getOperands())
        if (typeOf(operand) == scoresType && operand.getDefiningOp() &&
            (isa<MatmulOp>(operand.getDefiningOp()) ||
             roleOf(operand.getDefiningOp()) == Role::Elementwise)) {
          if (next)
            return;
          next = operand;
        }
      if (!next)
        return;
      scores = next;
    }
    int64_t rank = scoresType.getRank();
    int64_t keys = scoresType.getShape().back();
    int64_t headDim = typeOf(pv.getResult()).getShape().back();
    if (!qk || !scoresType.hasStaticShape() ||
        !typeOf(pv.getResult()).hasStaticShape() || rank < 3 ||
        keys > options.maxAttentionKeys ||
        headDim > options.maxAttentionHeadDim || headDim % 16 != 0)
      return;
    SmallVector<Operation *> ops{qk};
    ops.append(chain.rbegin(), chain.rend());
    ops.append({max, sub, exp, sum, div, pv});
    add("attention", ops);
  }

  Block &block;
  const TileFusePassOptions &options;
  DenseMap<Operation *, unsigned> groupOf;
};

/// Wraps `ops` (program order) in a tile.fusion of `kind` placed after the
/// last of them; ops between them that read their values move after it.
/// Fails, changing nothing, where an op between them that reads their
/// values also feeds one of them.
LogicalResult wrap(StringRef kind, SmallVector<Operation *> ops) {
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());
  llvm::SetVector<Operation *> dependents;
  auto readsFrom = [&](Operation *op, auto &&set) {
    bool reads = false;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        reads |= operand.getDefiningOp() && set(operand.getDefiningOp());
    });
    return reads;
  };
  for (Operation *op = ops.front(); op != ops.back();) {
    op = op->getNextNode();
    if (members.contains(op)) {
      if (readsFrom(op,
                    [&](Operation *def) { return dependents.contains(def); }))
        return failure();
      continue;
    }
    if (readsFrom(op, [&](Operation *def) {
          return members.contains(def) || dependents.contains(def);
        }))
      dependents.insert(op);
  }

  llvm::SetVector<Value> inputs;
  SmallVector<Value> results;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (!isConstant(operand) && !(operand.getDefiningOp() &&
                                    members.contains(operand.getDefiningOp())))
        inputs.insert(operand);
    if (readOutside(op, members))
      results.push_back(op->getResult(0));
  }

  Operation *last = ops.back();
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  Location loc = last->getLoc();
  auto fusion = FusionOp::create(b, loc, ValueRange(results).getTypes(),
                                 inputs.getArrayRef());
  fusion->setAttr(kFusionKindAttr, b.getStringAttr(kind));
  SmallVector<Location> locations(inputs.size(), loc);
  Block *body =
      b.createBlock(&fusion.getBody(), {},
                    ValueRange(inputs.getArrayRef()).getTypes(), locations);
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), body->getArguments());
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (!mapping.contains(operand) && isConstant(operand))
        mapping.map(operand, b.clone(*operand.getDefiningOp())->getResult(0));
    b.clone(*op, mapping);
  }
  SmallVector<Value> yielded;
  for (Value result : results)
    yielded.push_back(mapping.lookup(result));
  YieldOp::create(b, loc, yielded);

  for (auto [result, replacement] : llvm::zip(results, fusion.getResults()))
    result.replaceUsesWithIf(replacement, [&](OpOperand &use) {
      return !members.contains(use.getOwner());
    });
  Operation *after = fusion;
  for (Operation *op : dependents) {
    op->moveAfter(after);
    after = op;
  }
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return success();
}

struct TileFusePass : aicc::tile::impl::TileFusePassBase<TileFusePass> {
  using Base::Base;
  void runOnOperation() override {
    TileFusePassOptions options;
    options.launchBytes = launchBytes;
    options.cacheBytes = cacheBytes;
    options.maxOps = maxOps;
    options.maxInputs = maxInputs;
    options.maxEpilogueOps = maxEpilogueOps;
    options.maxEpilogueInputs = maxEpilogueInputs;
    options.maxRowReductions = maxRowReductions;
    options.attention = attention;
    options.maxAttentionKeys = maxAttentionKeys;
    options.maxAttentionHeadDim = maxAttentionHeadDim;
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<FusionOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks) {
      Partition partition(*block, options);
      partition.run();
      for (Partition::Group &group : partition.groups) {
        if (succeeded(wrap(group.kind, group.ops)))
          continue;
        // Not convex after all: one region per op.
        for (Operation *op : group.ops)
          (void)wrap(group.kind, {op});
      }
    }
  }
};

} // namespace
