//===- FuseSiblings.cpp - Independent element-wise ops as one op ----------===//
//
// Horizontal fusion of element-wise work: all-parallel generics over one
// iteration space that do not depend on each other become one generic with
// all their results, decided by a traffic model (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "aicc/Transforms/Passes.h"

#include "Fusion.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace aicc {
#define GEN_PASS_DEF_FUSESIBLINGSPASS
#include "aicc/Transforms/Passes.h.inc"
} // namespace aicc

using namespace mlir;

namespace {
/// The bytes of a statically shaped tensor; 0 for anything else.
int64_t bytesOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return 0;
  return type.getNumElements() *
         llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
}

/// Whether `user` reads its operand `use` as a contraction or another
/// reduction (seen through reshapes, slices and casts), or writes into it:
/// such readers match dedicated kernels (products, attention, row
/// reductions) whose producers must stay as they are.
bool readAsReductionOrInit(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
          tensor::ExtractSliceOp, tensor::CastOp>(user))
    return llvm::any_of(user->getResult(0).getUses(), readAsReductionOrInit);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
  if (!linalgOp)
    return false;
  return linalgOp.isDpsInit(&use) || linalgOp.getNumReductionLoops() != 0;
}

/// Whether `op` may be merged with siblings at all; the reason otherwise.
LogicalResult mergeable(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || !aicc::cpu::allParallel(op))
    return failure();
  if (op.getNumDpsInputs() == 0)
    return failure(); // A fill: a reduction's accumulator, or a constant.
  for (int64_t range : op.getStaticLoopRanges())
    if (ShapedType::isDynamic(range))
      return failure();
  for (OpOperand &init : op.getDpsInitsMutable())
    if (op.payloadUsesValueFromOperand(&init))
      return failure();
  for (Operation &bodyOp : op.getBody()->without_terminator())
    if (bodyOp.getNumRegions() != 0 || !isMemoryEffectFree(&bodyOp))
      return failure();
  // A reduction's reader is the last step of its row kernel on the GPUs (a
  // mean's division, a softmax's normalization), a contraction's reader
  // its epilogue.
  for (Value input : op.getDpsInputs()) {
    linalg::LinalgOp producer = aicc::cpu::producerThroughReshapes(input);
    if (producer && producer.getNumReductionLoops() != 0)
      return failure();
  }
  if (aicc::cpu::readsContraction(op, true))
    return failure();
  for (Value result : op->getResults())
    if (llvm::any_of(result.getUses(), readAsReductionOrInit))
      return failure();
  return success();
}

/// Ops to merge into one, in block order, and what the traffic model
/// counts of them.
struct Group {
  SmallVector<linalg::GenericOp> members;
  SmallVector<int64_t> ranges;
  /// The distinct inputs, each with the map it is read through.
  llvm::SmallDenseSet<std::pair<Value, AffineMap>> inputs;
  int64_t inputBytes = 0, outputBytes = 0, outputs = 0, bodyOps = 0;
  /// Each member's inputs, results and launch, counted apart.
  int64_t apartBytes = 0;
  /// Whether an op read a member's result: no later op can join, since that
  /// reader would come before it.
  bool closed = false;
};

struct FuseSiblingsPass : aicc::impl::FuseSiblingsPassBase<FuseSiblingsPass> {
  using Base::Base;

  /// What `op` adds to `group`: its distinct new inputs, and its bytes,
  /// tensors and body ops.
  struct Addition {
    llvm::SmallDenseSet<std::pair<Value, AffineMap>> inputs;
    int64_t newInputBytes = 0, inputBytes = 0, outputBytes = 0, bodyOps = 0;
  };
  Addition addition(const Group &group, linalg::GenericOp op) const {
    Addition add;
    for (OpOperand *input : op.getDpsInputOperands()) {
      add.inputBytes += bytesOf(input->get());
      std::pair<Value, AffineMap> key{input->get(),
                                      op.getMatchingIndexingMap(input)};
      if (!group.inputs.contains(key) && add.inputs.insert(key).second)
        add.newInputBytes += bytesOf(input->get());
    }
    for (Value result : op->getResults())
      add.outputBytes += bytesOf(result);
    add.bodyOps = op.getBody()->getOperations().size() - 1;
    return add;
  }

  /// Makes `op` the group's last member.
  void add(Group &group, linalg::GenericOp op, const Addition &add) {
    group.members.push_back(op);
    group.inputs.insert(add.inputs.begin(), add.inputs.end());
    group.inputBytes += add.newInputBytes;
    group.outputBytes += add.outputBytes;
    group.outputs += op.getNumDpsInits();
    group.bodyOps += add.bodyOps;
    group.apartBytes += add.inputBytes + add.outputBytes + int64_t(launchBytes);
  }

  /// Whether `op` may join `group`, where it would be the last member: every
  /// reader of the group's results comes after `op` (so none is `op`, and
  /// nothing `op` reads depends on the group), and the merge passes the
  /// traffic model and the size limits. Adds it if so.
  bool join(Group &group, linalg::GenericOp op) {
    if (group.closed || op.getStaticLoopRanges() != group.ranges)
      return false;
    Block *block = op->getBlock();
    for (linalg::GenericOp member : group.members)
      for (Operation *user : member->getUsers()) {
        Operation *reader = block->findAncestorOpInBlock(*user);
        if (!reader || reader == op || !op->isBeforeInBlock(reader)) {
          group.closed = true;
          return false;
        }
      }
    Addition more = addition(group, op);
    int64_t apart =
        group.apartBytes + more.inputBytes + more.outputBytes + launchBytes;
    int64_t merged = group.inputBytes + more.newInputBytes + group.outputBytes +
                     more.outputBytes + launchBytes;
    int64_t operands = group.inputs.size() + more.inputs.size() +
                       group.outputs + op.getNumDpsInits();
    if ((apart - merged) * 100 < minSavedPercent * apart ||
        operands > maxOperands || group.bodyOps + more.bodyOps > maxBodyOps)
      return false;
    add(group, op, more);
    return true;
  }

  /// A group of the single op `op`.
  Group start(linalg::GenericOp op) {
    Group group;
    group.ranges = op.getStaticLoopRanges();
    add(group, op, addition(group, op));
    return group;
  }

  /// Replaces the group's members by one generic, where the last stood.
  void merge(RewriterBase &rewriter, ArrayRef<linalg::GenericOp> members) {
    linalg::GenericOp last = members.back();
    rewriter.setInsertionPoint(last);
    SmallVector<Value> inputs, outputs;
    SmallVector<AffineMap> inputMaps, outputMaps;
    SmallVector<Type> resultTypes;
    SmallVector<Location> locations;
    llvm::DenseMap<std::pair<Value, AffineMap>, unsigned> inputIndex;
    for (linalg::GenericOp member : members) {
      locations.push_back(member.getLoc());
      for (OpOperand *input : member.getDpsInputOperands()) {
        std::pair<Value, AffineMap> key{input->get(),
                                        member.getMatchingIndexingMap(input)};
        if (inputIndex.try_emplace(key, inputs.size()).second) {
          inputs.push_back(key.first);
          inputMaps.push_back(key.second);
        }
      }
      for (OpOperand &init : member.getDpsInitsMutable()) {
        outputs.push_back(init.get());
        outputMaps.push_back(member.getMatchingIndexingMap(&init));
      }
      llvm::append_range(resultTypes, member->getResultTypes());
    }
    SmallVector<AffineMap> maps(inputMaps);
    llvm::append_range(maps, outputMaps);
    SmallVector<utils::IteratorType> iterators(last.getNumLoops(),
                                               utils::IteratorType::parallel);
    auto merged = linalg::GenericOp::create(
        rewriter, rewriter.getFusedLoc(locations), resultTypes, inputs, outputs,
        maps, iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
          SmallVector<Value> yielded;
          unsigned output = inputs.size();
          for (linalg::GenericOp member : members) {
            IRMapping mapping;
            Block *body = member.getBody();
            for (OpOperand *input : member.getDpsInputOperands())
              mapping.map(
                  body->getArgument(input->getOperandNumber()),
                  args[inputIndex.lookup(
                      {input->get(), member.getMatchingIndexingMap(input)})]);
            for (OpOperand &init : member.getDpsInitsMutable())
              mapping.map(body->getArgument(init.getOperandNumber()),
                          args[output++]);
            for (Operation &op : body->without_terminator())
              b.clone(op, mapping);
            for (Value value : body->getTerminator()->getOperands())
              yielded.push_back(mapping.lookupOrDefault(value));
          }
          linalg::YieldOp::create(b, loc, yielded);
        });
    unsigned result = 0;
    for (linalg::GenericOp member : members) {
      unsigned count = member->getNumResults();
      rewriter.replaceOp(member, merged->getResults().slice(result, count));
      result += count;
    }
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks) {
      // Groups that may still grow, and those that cannot (a reader of
      // theirs came first), which no later op is tried against.
      SmallVector<Group> open, closed;
      for (Operation &op : *block) {
        auto generic = dyn_cast<linalg::GenericOp>(op);
        if (!generic || failed(mergeable(generic)))
          continue;
        if (!llvm::any_of(open,
                          [&](Group &group) { return join(group, generic); }))
          open.push_back(start(generic));
        for (Group &group : open)
          if (group.closed)
            closed.push_back(std::move(group));
        llvm::erase_if(open, [](const Group &group) { return group.closed; });
      }
      for (SmallVector<Group> *groups : {&open, &closed})
        for (Group &group : *groups)
          if (group.members.size() > 1)
            merge(rewriter, group.members);
    }
  }
};
} // namespace
