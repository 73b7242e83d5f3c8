//===- Epilogue.cpp - Element-wise ops run on a contraction's sums --------===//

#include "Epilogue.h"

#include "Tile/Transforms/Groups.h"
#include "Utils.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using aicc::gpu::Epilogue;

namespace {
/// Clones the epilogue's payload into `b` with its block arguments bound
/// by `mapping` (its loops at `loops`, for linalg.index); the yielded
/// value.
Value clonePayload(OpBuilder &b, const Epilogue &epilogue, IRMapping &mapping,
                   ArrayRef<Value> loops) {
  Block *body = epilogue.op.getBody();
  for (Operation &op : body->without_terminator()) {
    auto index = dyn_cast<linalg::IndexOp>(op);
    if (index && !loops.empty()) {
      mapping.map(index.getResult(), loops[index.getDim()]);
      continue;
    }
    b.clone(op, mapping);
  }
  return mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
}

/// Whether `op` only fills a buffer allocated after `contraction` (the zero
/// border of a padded copy that the epilogue then writes the inside of):
/// it touches nothing the contraction reads or writes, so it may move
/// before it.
bool fillsLaterBuffer(Operation *op, Operation *contraction) {
  auto fill = dyn_cast<linalg::GenericOp>(op);
  if (!fill || fill.getNumDpsInits() != 1 || !aicc::gpu::fillValue(fill))
    return false;
  auto alloc = aicc::gpu::viewRoot(fill.getDpsInits()[0])
                   .getDefiningOp<memref::AllocOp>();
  return alloc && alloc->getBlock() == contraction->getBlock() &&
         contraction->isBeforeInBlock(alloc);
}

/// The contraction output's element type: the sum is rounded to it before
/// the epilogue sees it, as it would be if stored.
Type sumType(const Epilogue &epilogue) {
  return cast<MemRefType>(
             epilogue.op.getDpsInputOperand(epilogue.operand)->get().getType())
      .getElementType();
}
} // namespace

std::optional<Epilogue> aicc::gpu::findEpilogue(linalg::GenericOp contraction,
                                                Operation *absorbedFill) {
  Value out = contraction.getDpsInits()[0];
  if (!out.getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  // Views, constants and fresh allocations (the epilogue's output) may
  // stand in between: none touches memory; so may fills of buffers
  // allocated after the contraction.
  Operation *next = aicc::gpu::nextWithEffects(contraction);
  while (next && fillsLaterBuffer(next, contraction))
    next = aicc::gpu::nextWithEffects(next);
  auto consumer = dyn_cast_or_null<linalg::GenericOp>(next);
  // tile-fuse's groups: an epilogue is an op of the contraction's.
  if (!consumer || consumer.getNumReductionLoops() != 0 ||
      consumer.getNumDpsInits() != 1 || consumer->getNumResults() != 0 ||
      !aicc::tile::mayShareKernel(contraction, consumer))
    return std::nullopt;
  Epilogue epilogue{consumer, 0, {}, {}, {}};
  // `out` holds the sums from `start` (its fill, or the contraction) to the
  // consumer, which alone reads them, maybe through reshapes (of an
  // identity-layout buffer: the same elements in the same order). Uses
  // before `start` are of the buffer's earlier contents, uses after the
  // consumer of later ones if the first of them fills it anew
  // (bufferization gives a second product the buffer of the first, and
  // one reshape of it to both).
  Block *block = consumer->getBlock();
  Operation *start = absorbedFill ? absorbedFill : contraction.getOperation();
  Operation *reuse = nullptr;
  Value read, written;
  SmallVector<Value> pending{out};
  while (!pending.empty()) {
    Value buffer = pending.pop_back_val();
    for (OpOperand &use : buffer.getUses()) {
      Operation *user = use.getOwner();
      if (isa<ViewLikeOpInterface>(user) && user->getNumResults() == 1) {
        pending.push_back(user->getResult(0));
        continue;
      }
      // Other aliases of the buffer (a select, a loop carrying it, strided
      // metadata) would need their own walk: none is expected here.
      Operation *top = block->findAncestorOpInBlock(*user);
      auto isMemRef = [](Type t) { return isa<BaseMemRefType>(t); };
      if (!top || llvm::any_of(user->getResultTypes(), isMemRef) ||
          llvm::any_of(top->getResultTypes(), isMemRef))
        return std::nullopt;
      if (top->isBeforeInBlock(start) || top == absorbedFill ||
          top == contraction)
        continue;
      if (consumer->isBeforeInBlock(top)) {
        if (!reuse || top->isBeforeInBlock(reuse))
          reuse = top;
        continue;
      }
      if (user == consumer && consumer.isDpsInit(&use)) {
        written = buffer; // in place, if it reads the same value
        continue;
      }
      if (user != consumer || read)
        return std::nullopt; // another reader, or read twice
      read = buffer;
    }
  }
  // An op that rewrites the sums where they are (a variance's division)
  // leaves in the buffer what later ops read: any later use is fine.
  bool inPlace = written && written == read;
  if (!read || (written && !inPlace))
    return std::nullopt;
  if (inPlace)
    reuse = nullptr;
  for (Value v = read; v != out;) {
    Operation *view = v.getDefiningOp();
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(view))
      return std::nullopt;
    epilogue.views.insert(epilogue.views.begin(), view);
    v = view->getOperand(0);
  }
  if (reuse) {
    auto fill = dyn_cast<linalg::GenericOp>(reuse);
    if (!fill || fill.getNumDpsInits() != 1 || fill.getDpsInits()[0] != out ||
        !aicc::gpu::fillValue(fill))
      return std::nullopt;
  }
  Value result = consumer.getDpsInits()[0];
  auto outType = cast<MemRefType>(out.getType());
  auto readType = cast<MemRefType>(read.getType());
  auto resultType = cast<MemRefType>(result.getType());
  if (!outType.getLayout().isIdentity() ||
      resultType.getRank() != readType.getRank() ||
      !consumer.getIndexingMapsArray().back().isIdentity() ||
      !consumer.getBody()->getArguments().back().use_empty())
    return std::nullopt;
  // Run in the contraction's kernel, the op writes while other blocks
  // still read the contraction's operands.
  Value resultRoot = aicc::gpu::viewRoot(result);
  for (Value input : contraction.getDpsInputs())
    if (aicc::gpu::viewRoot(input) == resultRoot)
      epilogue.overwritesOperands = true;
  std::optional<unsigned> operand;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    // An input that is the output itself, read where it is written (a
    // residual sum bufferized in place), is read by each element's thread
    // before it writes there.
    bool sameElement = input->get() == result &&
                       consumer.getMatchingIndexingMap(input).isIdentity();
    if (aicc::gpu::viewRoot(input->get()) == resultRoot &&
        !(inPlace && input->get() == read) && !sameElement)
      return std::nullopt;
    if (input->get() != read)
      continue;
    AffineMap map = consumer.getMatchingIndexingMap(input);
    if (operand || !map.isPermutation())
      return std::nullopt;
    operand = input->getOperandNumber();
    if (!map.isIdentity())
      for (AffineExpr e : map.getResults())
        epilogue.readLoops.push_back(cast<AffineDimExpr>(e).getPosition());
  }
  if (!operand)
    return std::nullopt;
  // The op's loops (its output's shape) are what it reads, permuted.
  for (int64_t d = 0; d < readType.getRank(); ++d) {
    unsigned loop = epilogue.readLoops.empty() ? d : epilogue.readLoops[d];
    if (resultType.getDimSize(loop) != readType.getDimSize(d))
      return std::nullopt;
  }
  epilogue.operand = *operand;
  Type sum = sumType(epilogue);
  if (!isa<FloatType>(sum) && !sum.isSignlessInteger(32))
    return std::nullopt;
  epilogue.outShape.assign(outType.getShape().begin(),
                           outType.getShape().end());
  epilogue.loopShape.assign(readType.getShape().begin(),
                            readType.getShape().end());
  // What stands between moves before the contraction, whose kernel will use
  // it (the epilogue's output allocation, say, and its fill); nothing there
  // depends on the contraction, which has no results.
  for (Operation *op = contraction->getNextNode(); op != consumer;) {
    Operation *following = op->getNextNode();
    op->moveBefore(contraction);
    op = following;
  }
  return epilogue;
}

SmallVector<Value> Epilogue::loops(OpBuilder &b, Location loc,
                                   ArrayRef<Value> outIndices) const {
  SmallVector<Value> read = readIndices(b, loc, outIndices);
  if (readLoops.empty())
    return read;
  SmallVector<Value> result(read.size());
  for (auto [d, loop] : llvm::enumerate(readLoops))
    result[loop] = read[d];
  return result;
}

SmallVector<Value> Epilogue::readIndices(OpBuilder &b, Location loc,
                                         ArrayRef<Value> outIndices) const {
  if (outShape == loopShape)
    return SmallVector<Value>(outIndices);
  // The same row-major position in both shapes, found group by group: the
  // shortest runs of dimensions of equal element count (a reshape's
  // reassociation), unit dimensions apart (an output's is 0, a loop's gets
  // 0). A run of one dimension on each side passes its index through, so
  // that only reshaped dimensions cost divisions.
  aicc::gpu::IndexBuilder e{b, loc};
  SmallVector<Value> result;
  size_t i = 0, j = 0;
  while (i < outShape.size() || j < loopShape.size()) {
    if (i < outShape.size() && outShape[i] == 1) {
      ++i;
      continue;
    }
    if (j < loopShape.size() && loopShape[j] == 1) {
      result.push_back(e.index(0));
      ++j;
      continue;
    }
    if (i == outShape.size() || j == loopShape.size()) // (empty shapes)
      return e.delinearize(e.linearize(outIndices, outShape), loopShape);
    size_t outEnd = i + 1, loopEnd = j + 1;
    int64_t outCount = outShape[i], loopCount = loopShape[j];
    while (outCount != loopCount) {
      if (outCount < loopCount && outEnd < outShape.size())
        outCount *= outShape[outEnd++];
      else if (outCount > loopCount && loopEnd < loopShape.size())
        loopCount *= loopShape[loopEnd++];
      else // (empty shapes)
        return e.delinearize(e.linearize(outIndices, outShape), loopShape);
    }
    ArrayRef<int64_t> outRun = ArrayRef(outShape).slice(i, outEnd - i);
    ArrayRef<int64_t> loopRun = ArrayRef(loopShape).slice(j, loopEnd - j);
    ArrayRef<Value> indices = outIndices.slice(i, outEnd - i);
    Value linear =
        indices.size() == 1 ? indices[0] : e.linearize(indices, outRun);
    if (loopRun.size() == 1)
      result.push_back(linear);
    else
      llvm::append_range(result, e.delinearize(linear, loopRun));
    i = outEnd;
    j = loopEnd;
  }
  return result;
}

void Epilogue::erase(Value out) const {
  op.erase();
  for (Operation *view : llvm::reverse(views))
    if (view->use_empty())
      view->erase();
  if (out.use_empty())
    out.getDefiningOp()->erase();
}

void aicc::gpu::storeThroughEpilogue(OpBuilder &b, Location loc,
                                     const Epilogue &epilogue,
                                     ArrayRef<Value> sums,
                                     ArrayRef<Value> outIndices) {
  linalg::GenericOp op = epilogue.op;
  SmallVector<Value> first = epilogue.loops(b, loc, outIndices);
  Block *body = op.getBody();
  int64_t lanes = sums.size();
  unsigned last = first.size() - 1;
  auto at = [&](OpOperand *input, ArrayRef<Value> loops) {
    return aicc::gpu::IndexBuilder{b, loc}.apply(
        op.getMatchingIndexingMap(input), loops);
  };
  // The inputs read along the last loop as rows: one vector load each.
  DenseMap<unsigned, SmallVector<Value>> rows;
  if (lanes > 1)
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<MemRefType>(input->get().getType());
      AffineMap map = op.getMatchingIndexingMap(input);
      if (input->getOperandNumber() == epilogue.operand || !type ||
          map.getNumResults() == 0 ||
          !storesRows(map, last, type.getShape().back(), input->get(),
                      std::nullopt, lanes))
        continue;
      rows[input->getOperandNumber()] = aicc::gpu::loadRowVector(
          b, loc, input->get(), at(input, first), lanes);
    }
  SmallVector<Value> results;
  for (auto [e, sum] : llvm::enumerate(sums)) {
    // Element e follows the first along the last loop.
    SmallVector<Value> indices(first);
    indices.back() = aicc::gpu::IndexBuilder{b, loc}.add(indices.back(), e);
    IRMapping mapping;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value;
      unsigned number = input->getOperandNumber();
      if (number == epilogue.operand) {
        value = aicc::gpu::convertFloat(b, loc, sum, sumType(epilogue));
      } else if (auto row = rows.find(number); row != rows.end()) {
        value = row->second[e];
      } else if (isa<MemRefType>(input->get().getType())) {
        value =
            memref::LoadOp::create(b, loc, input->get(), at(input, indices));
      } else {
        value = input->get();
      }
      mapping.map(body->getArgument(number), value);
    }
    results.push_back(clonePayload(b, epilogue, mapping, indices));
  }
  Value out = op.getDpsInits()[0];
  if (results.size() == 1)
    memref::StoreOp::create(b, loc, results[0], out, first);
  else
    aicc::gpu::storeRowVector(b, loc, results, out, first);
}

bool aicc::gpu::storesRows(AffineMap outMap, unsigned inner, int64_t extent,
                           Value out, const std::optional<Epilogue> &epilogue,
                           int64_t lanes) {
  auto last = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  return last && last.getPosition() == inner && extent % lanes == 0 &&
         llvm::none_of(
             outMap.getResults().drop_back(),
             [&](AffineExpr r) { return r.isFunctionOfDim(inner); }) &&
         (epilogue ? epilogueStoresRows(*epilogue, lanes)
                   : rowVectorsAligned(cast<MemRefType>(out.getType()), lanes));
}

void aicc::gpu::storeContractionSums(OpBuilder &b, Location loc,
                                     ArrayRef<Value> sums, Value out,
                                     ArrayRef<Value> indices,
                                     const std::optional<Epilogue> &epilogue) {
  if (epilogue)
    return storeThroughEpilogue(b, loc, *epilogue, sums, indices);
  Type element = cast<MemRefType>(out.getType()).getElementType();
  SmallVector<Value> values;
  for (Value sum : sums)
    values.push_back(convertFloat(b, loc, sum, element));
  if (values.size() > 1)
    storeRowVector(b, loc, values, out, indices);
  else
    memref::StoreOp::create(b, loc, values[0], out, indices);
}

bool aicc::gpu::epilogueStoresRows(const Epilogue &epilogue, int64_t lanes) {
  auto out = cast<MemRefType>(epilogue.op.getDpsInits()[0].getType());
  return !epilogue.loopShape.empty() && !epilogue.outShape.empty() &&
         (epilogue.readLoops.empty() ||
          epilogue.readLoops.back() + 1 == epilogue.readLoops.size()) &&
         epilogue.loopShape.back() % lanes == 0 &&
         epilogue.outShape.back() % lanes == 0 &&
         aicc::gpu::rowVectorsAligned(out, lanes);
}

void aicc::gpu::sumSplits(OpBuilder &b, Location loc, Value workspace,
                          Value out, bool overwrite,
                          const std::optional<Epilogue> &epilogue) {
  assert((overwrite || !epilogue) && "an epilogue needs a fresh output");
  auto wsType = cast<MemRefType>(workspace.getType());
  auto outType = cast<MemRefType>(out.getType());
  ArrayRef<int64_t> planeShape = wsType.getShape().drop_front();
  int64_t rank = planeShape.size();
  int64_t splits = wsType.getDimSize(0);
  SmallVector<Value> inputs;
  for (int64_t s = 0; s < splits; ++s) {
    SmallVector<OpFoldResult> offsets(rank + 1, b.getIndexAttr(0));
    offsets[0] = b.getIndexAttr(s);
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(1)};
    for (int64_t d : planeShape)
      sizes.push_back(b.getIndexAttr(d));
    SmallVector<OpFoldResult> strides(rank + 1, b.getIndexAttr(1));
    auto planeType = memref::SubViewOp::inferRankReducedResultType(
        planeShape, wsType, offsets, sizes, strides);
    inputs.push_back(
        memref::SubViewOp::create(b, loc, cast<MemRefType>(planeType),
                                  workspace, offsets, sizes, strides));
  }
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> maps(splits, identity);
  // The epilogue's other inputs follow the planes, indexed as before.
  SmallVector<OpOperand *> extra;
  if (epilogue)
    for (OpOperand *input : epilogue->op.getDpsInputOperands())
      if (input->getOperandNumber() != epilogue->operand) {
        extra.push_back(input);
        inputs.push_back(input->get());
        maps.push_back(epilogue->op.getMatchingIndexingMap(input));
      }
  maps.push_back(identity);
  Value target = epilogue ? epilogue->op.getDpsInits()[0] : out;
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, loc, inputs, ValueRange{target}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum = args[0];
        for (Value plane : args.take_front(splits).drop_front())
          sum = arith::AddFOp::create(nb, nloc, sum, plane);
        if (!overwrite) {
          // Without an epilogue the old value is the output's own.
          Value old = args.back();
          sum = arith::AddFOp::create(
              nb, nloc, aicc::gpu::convertFloat(nb, nloc, old, nb.getF32Type()),
              sum);
        }
        if (!epilogue) {
          linalg::YieldOp::create(
              nb, nloc,
              aicc::gpu::convertFloat(nb, nloc, sum, outType.getElementType()));
          return;
        }
        Block *body = epilogue->op.getBody();
        IRMapping mapping;
        mapping.map(body->getArgument(epilogue->operand),
                    aicc::gpu::convertFloat(nb, nloc, sum, sumType(*epilogue)));
        for (auto [input, arg] : llvm::zip(extra, args.drop_front(splits)))
          mapping.map(body->getArgument(input->getOperandNumber()), arg);
        linalg::YieldOp::create(nb, nloc,
                                clonePayload(nb, *epilogue, mapping, {}));
      });
}
