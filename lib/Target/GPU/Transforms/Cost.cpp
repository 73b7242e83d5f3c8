//===- Cost.cpp - What a kernel computes and moves ------------------------===//

#include "Cost.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace {

/// Whether `op` is floating-point arithmetic: an arith or math op yielding
/// floats that is not a constant, a conversion or a select.
bool isFloatArithmetic(Operation &op) {
  Dialect *dialect = op.getDialect();
  if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect) ||
      op.getNumResults() != 1 ||
      !isa<FloatType>(getElementTypeOrSelf(op.getResult(0).getType())))
    return false;
  return !isa<arith::ConstantOp, arith::ExtFOp, arith::TruncFOp,
              arith::SIToFPOp, arith::UIToFPOp, arith::BitcastOp,
              arith::SelectOp>(op);
}

/// The elements of a scalar (1) or vector type.
int64_t elementCount(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

/// The bytes of a buffer of `type`, if it has a static shape of whole-byte
/// integers or floats.
std::optional<int64_t> bufferBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!type.hasStaticShape() || !element.isIntOrFloat())
    return std::nullopt;
  return type.getNumElements() *
         static_cast<int64_t>((element.getIntOrFloatBitWidth() + 7) / 8);
}

/// The allocation `v` views: through view-like ops up to a function
/// argument, a global, or a memref.view of the arena (one planned buffer).
Value allocationOf(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>()) {
    if (isa<memref::ViewOp>(view))
      break;
    v = view.getViewSource();
  }
  return v;
}

} // namespace

int64_t aicc::gpu::floatOps(Operation &op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return countFlops(linalgOp);
  int64_t trips = 1;
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (lower && upper && step && *step > 0)
      trips = *upper > *lower ? (*upper - *lower + *step - 1) / *step : 0;
  }
  int64_t total = 0;
  for (Region &region : op.getRegions())
    for (Block &block : region)
      total += floatOps(block);
  total *= trips;
  if (isFloatArithmetic(op)) {
    int64_t elements = elementCount(op.getResult(0).getType());
    total += isa<math::FmaOp>(op) ? 2 * elements : elements;
  }
  return total;
}

int64_t aicc::gpu::floatOps(Block &body) {
  int64_t total = 0;
  for (Operation &op : body)
    total += floatOps(op);
  return total;
}

int64_t aicc::gpu::countFlops(linalg::LinalgOp op) {
  int64_t iterations = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return 0;
    iterations *= range;
  }
  return iterations * floatOps(*op.getBlock());
}

void aicc::gpu::recordFlops(mlir::gpu::LaunchOp launch, int64_t flops,
                            bool tensorCores, unsigned operandBits) {
  MLIRContext *context = launch.getContext();
  int64_t before = 0;
  if (auto recorded = launch->getAttrOfType<IntegerAttr>(kLaunchFlops))
    before = recorded.getInt();
  launch->setAttr(kLaunchFlops, IntegerAttr::get(IntegerType::get(context, 64),
                                                 before + flops));
  if (tensorCores)
    launch->setAttr(kLaunchMath,
                    MathUnitAttr::get(context, operandBits <= 16
                                                   ? MathUnit::tensor16
                                                   : MathUnit::tensor32));
}

namespace {

/// How a launch uses a buffer it captures: read at positions that are
/// themselves read from memory (a gather's table), or otherwise; written.
struct Use {
  bool direct = false, indirect = false, written = false;
};

/// Whether an index of `load` is computed from a value read from memory.
bool indexedByLoadedValue(Operation *load, ValueRange indices) {
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  options.omitUsesFromAbove = false;
  llvm::SetVector<Operation *> slice;
  for (Value index : indices)
    (void)getBackwardSlice(index, &slice, options);
  return llvm::any_of(slice, [](Operation *op) {
    return isa<memref::LoadOp, vector::LoadOp>(op);
  });
}

void classifyUses(Value buffer, mlir::gpu::LaunchOp launch, Use &use) {
  for (OpOperand &operand : buffer.getUses()) {
    Operation *user = operand.getOwner();
    if (!launch->isProperAncestor(user))
      continue;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      classifyUses(view->getResult(0), launch, use);
    } else if (auto load = dyn_cast<memref::LoadOp>(user)) {
      (indexedByLoadedValue(load, load.getIndices()) ? use.indirect
                                                     : use.direct) = true;
    } else if (auto load = dyn_cast<vector::LoadOp>(user)) {
      (indexedByLoadedValue(load, load.getIndices()) ? use.indirect
                                                     : use.direct) = true;
    } else {
      use.direct = true;
      if (isa<memref::StoreOp, vector::StoreOp, vector::TransferWriteOp>(user))
        use.written = true;
    }
  }
}

} // namespace

int64_t aicc::gpu::launchBytes(mlir::gpu::LaunchOp launch) {
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(launch.getBody(), above);
  struct Allocation {
    int64_t bytes = 0;
    Use use;
  };
  llvm::MapVector<Value, Allocation> allocations;
  int64_t writtenElements = 0;
  for (Value v : above) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || mlir::gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type))
      continue;
    std::optional<int64_t> bytes = bufferBytes(type);
    if (!bytes)
      continue;
    Allocation &allocation = allocations[allocationOf(v)];
    allocation.bytes += *bytes;
    Use use;
    classifyUses(v, launch, use);
    if (use.written)
      writtenElements += type.getNumElements();
    allocation.use.direct |= use.direct;
    allocation.use.indirect |= use.indirect;
  }
  int64_t total = 0;
  for (auto &[value, allocation] : allocations) {
    auto type = cast<MemRefType>(value.getType());
    int64_t bytes = allocation.bytes;
    if (std::optional<int64_t> whole = bufferBytes(type))
      bytes = std::min(bytes, *whole);
    // A table read only at loaded positions (a gather) is read about one
    // element per element the launch writes, not whole.
    if (allocation.use.indirect && !allocation.use.direct)
      bytes = std::min(bytes, writtenElements *
                                  static_cast<int64_t>(
                                      (type.getElementTypeBitWidth() + 7) / 8));
    total += bytes;
  }
  return total;
}
