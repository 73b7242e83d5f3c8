//===- PlanMemory.cpp - Intermediate buffers in one arena -----------------===//
//
// The runtime allocates one arena per execution context, once; every
// intermediate buffer of a static size that lives in the function's entry
// block becomes a view of it. Offsets come from a greedy first-fit over
// buffers sorted by size, which keeps the arena close to the peak of the
// simultaneously live bytes.
//
//===----------------------------------------------------------------------===//

#include "aicc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace aicc {
#define GEN_PASS_DEF_PLANMEMORYPASS
#include "aicc/Transforms/Passes.h.inc"
} // namespace aicc

using namespace mlir;

namespace {
constexpr int64_t kArenaAlignment = 64;

/// Bytes a buffer of `type` occupies, or failure for element types the
/// arena does not hold.
FailureOr<int64_t> bufferBytes(MemRefType type) {
  Type element = type.getElementType();
  int64_t elementBytes;
  if (element.isIndex())
    elementBytes = 8;
  else if (element.isIntOrFloat())
    elementBytes = (element.getIntOrFloatBitWidth() + 7) / 8;
  else
    return failure();
  return type.getNumElements() * elementBytes;
}

struct Buffer {
  memref::AllocOp alloc;
  int64_t bytes;
  int64_t begin; // position of the alloc in the entry block
  int64_t end;   // position of the last use of any alias
  int64_t offset = -1;
};

struct PlanMemoryPass : aicc::impl::PlanMemoryPassBase<PlanMemoryPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func.isPrivate())
      return;
    Block &entry = func.getBody().front();

    llvm::DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : entry)
      position[&op] = index++;

    BufferViewFlowAnalysis aliases(func);
    SmallVector<Buffer> buffers;
    for (Operation &op : entry) {
      auto alloc = dyn_cast<memref::AllocOp>(op);
      if (!alloc)
        continue;
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace())
        continue;
      FailureOr<int64_t> bytes = bufferBytes(type);
      // Empty buffers get an offset too: a view of no bytes is still a
      // buffer the code can name.
      if (failed(bytes))
        continue;
      std::optional<int64_t> end = lastUse(alloc, aliases, position, entry);
      if (!end)
        continue;
      buffers.push_back({alloc, *bytes, position[alloc], *end});
    }

    int64_t arenaSize = assignOffsets(buffers);

    MLIRContext *context = &getContext();
    auto arenaType = MemRefType::get({arenaSize}, IntegerType::get(context, 8));
    unsigned arenaIndex = func.getNumArguments();
    if (failed(func.insertArgument(
            arenaIndex, arenaType,
            DictionaryAttr::get(
                context, {NamedAttribute(StringAttr::get(context, "aicc.arena"),
                                         UnitAttr::get(context))}),
            func.getLoc())))
      return signalPassFailure();
    Value arena = func.getArgument(arenaIndex);
    func->setAttr("aicc.arena_size",
                  IntegerAttr::get(IntegerType::get(context, 64), arenaSize));

    for (Buffer &buffer : buffers) {
      OpBuilder builder(buffer.alloc);
      Value offset = arith::ConstantIndexOp::create(
          builder, buffer.alloc.getLoc(), buffer.offset);
      Value view = memref::ViewOp::create(builder, buffer.alloc.getLoc(),
                                          buffer.alloc.getType(), arena, offset,
                                          ValueRange());
      buffer.alloc.replaceAllUsesWith(view);
      buffer.alloc.erase();
    }
  }

  /// The position of the last entry-block op that uses the buffer through
  /// any alias, or nothing when the buffer escapes the function.
  static std::optional<int64_t>
  lastUse(memref::AllocOp alloc, const BufferViewFlowAnalysis &aliases,
          const llvm::DenseMap<Operation *, int64_t> &position, Block &entry) {
    int64_t end = position.lookup(alloc);
    for (Value alias : aliases.resolve(alloc.getResult())) {
      for (Operation *user : alias.getUsers()) {
        if (isa<func::ReturnOp, func::CallOp, memref::DeallocOp>(user))
          return std::nullopt;
        Operation *ancestor = entry.findAncestorOpInBlock(*user);
        if (!ancestor)
          return std::nullopt;
        end = std::max(end, position.lookup(ancestor));
      }
    }
    return end;
  }

  /// Greedy first fit, largest buffers first; returns the arena size.
  static int64_t assignOffsets(SmallVectorImpl<Buffer> &buffers) {
    SmallVector<Buffer *> order;
    for (Buffer &buffer : buffers)
      order.push_back(&buffer);
    llvm::stable_sort(order, [](const Buffer *a, const Buffer *b) {
      return a->bytes > b->bytes;
    });
    auto alignUp = [](int64_t value) {
      return (value + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
    };
    int64_t arenaSize = 0;
    SmallVector<Buffer *> placed;
    for (Buffer *buffer : order) {
      // Placed buffers alive at the same time, by offset.
      SmallVector<Buffer *> live;
      for (Buffer *other : placed)
        if (other->begin <= buffer->end && buffer->begin <= other->end)
          live.push_back(other);
      llvm::sort(live, [](const Buffer *a, const Buffer *b) {
        return a->offset < b->offset;
      });
      int64_t offset = 0;
      for (Buffer *other : live) {
        if (offset + buffer->bytes <= other->offset)
          break;
        offset = std::max(offset, alignUp(other->offset + other->bytes));
      }
      buffer->offset = offset;
      arenaSize = std::max(arenaSize, alignUp(offset + buffer->bytes));
      placed.push_back(buffer);
    }
    return arenaSize;
  }
};
} // namespace
