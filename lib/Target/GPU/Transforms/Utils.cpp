//===- Utils.cpp - Helpers shared by the GPU passes -----------------------===//

#include "Utils.h"

#include "aicc/Target/GPU/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace {
/// Reads and writes memory: an op that orders, waits for or performs
/// accesses to shared memory.
template <typename Op>
struct ReadWriteEffects
    : MemoryEffectOpInterface::ExternalModel<ReadWriteEffects<Op>, Op> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

/// A warp's matrix product reads and writes registers only.
struct NoEffects
    : MemoryEffectOpInterface::ExternalModel<NoEffects, NVVM::MmaOp> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {}
};

template <typename... Ops> void attachReadWrite(MLIRContext &context) {
  (Ops::template attachInterface<ReadWriteEffects<Ops>>(context), ...);
}
} // namespace

void aicc::gpu::registerKernelOpEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, mlir::gpu::GPUDialect *) {
    attachReadWrite<mlir::gpu::BarrierOp>(*context);
  });
  registry.addExtension(+[](MLIRContext *context, NVVM::NVVMDialect *) {
    NVVM::MmaOp::attachInterface<NoEffects>(*context);
    attachReadWrite<NVVM::CpAsyncCommitGroupOp, NVVM::CpAsyncWaitGroupOp,
                    NVVM::FenceProxyOp, NVVM::WgmmaFenceAlignedOp,
                    NVVM::WgmmaGroupSyncAlignedOp, NVVM::WgmmaWaitGroupSyncOp,
                    NVVM::WgmmaMmaAsyncOp>(*context);
    // The TMA copies of the wgmma kernel and their mbarriers.
    attachReadWrite<NVVM::PrefetchOp, NVVM::MBarrierInitOp,
                    NVVM::FenceMbarrierInitOp, NVVM::MBarrierArriveExpectTxOp,
                    NVVM::MBarrierTryWaitParityOp,
                    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(*context);
  });
}

bool aicc::gpu::isConstantOrView(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<ViewLikeOpInterface, memref::CastOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp>(op);
}

bool aicc::gpu::isTensorMapAddress(Value value) {
  auto cast = value.getDefiningOp<UnrealizedConversionCastOp>();
  return cast && cast.getInputs().size() == 1 &&
         cast.getInputs().front().getDefiningOp<nvgpu::TmaCreateDescriptorOp>();
}

bool aicc::gpu::isSinkable(Operation *op) {
  // A tensor map's address stays a kernel parameter.
  if (op->getNumResults() == 1 && isTensorMapAddress(op->getResult(0)))
    return false;
  return isConstantOrView(op) ||
         (isMemoryEffectFree(op) && op->getNumRegions() == 0);
}

using aicc::gpu::IndexBuilder;

Value IndexBuilder::index(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value IndexBuilder::add(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}
Value IndexBuilder::add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
Value IndexBuilder::mul(Value x, int64_t y) {
  return y == 1 ? x : arith::MulIOp::create(b, loc, x, index(y)).getResult();
}
Value IndexBuilder::div(Value x, int64_t y) {
  return y == 1 ? x : arith::DivUIOp::create(b, loc, x, index(y)).getResult();
}
Value IndexBuilder::rem(Value x, int64_t y) {
  return arith::RemUIOp::create(b, loc, x, index(y));
}
Value IndexBuilder::less(Value x, int64_t bound) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                               index(bound));
}
Value IndexBuilder::both(Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return arith::AndIOp::create(b, loc, x, y);
}

SmallVector<Value> IndexBuilder::delinearize(Value linear,
                                             ArrayRef<int64_t> extents) {
  SmallVector<Value> indices(extents.size());
  for (size_t d = extents.size(); d-- > 0;) {
    indices[d] = d == 0 ? linear : rem(linear, extents[d]);
    if (d != 0)
      linear = div(linear, extents[d]);
  }
  return indices;
}
Value IndexBuilder::linearize(ArrayRef<Value> indices,
                              ArrayRef<int64_t> extents) {
  if (indices.empty())
    return index(0);
  Value linear = indices.front();
  for (size_t d = 1; d < indices.size(); ++d)
    linear = add(mul(linear, extents[d]), indices[d]);
  return linear;
}

SmallVector<Value> IndexBuilder::apply(AffineMap map, ArrayRef<Value> loops) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults())
    indices.push_back(affine::expandAffineExpr(b, loc, e, loops, {}));
  return indices;
}

Value aicc::gpu::convertFloat(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  unsigned fromBits = getElementTypeOrSelf(from).getIntOrFloatBitWidth();
  unsigned toBits = getElementTypeOrSelf(to).getIntOrFloatBitWidth();
  if (fromBits < toBits)
    return arith::ExtFOp::create(b, loc, to, v);
  if (fromBits > toBits)
    return arith::TruncFOp::create(b, loc, to, v);
  // f16 <-> bf16 through f32.
  Type f32 = b.getF32Type();
  if (auto vector = dyn_cast<VectorType>(to))
    f32 = vector.clone(f32);
  return arith::TruncFOp::create(b, loc, to,
                                 arith::ExtFOp::create(b, loc, f32, v));
}

Attribute aicc::gpu::workgroupSpace(MLIRContext *context) {
  return mlir::gpu::AddressSpaceAttr::get(
      context, mlir::gpu::GPUDialect::getWorkgroupAddressSpace());
}

mlir::gpu::LaunchOp aicc::gpu::createLaunch(OpBuilder &b, Location loc,
                                            ArrayRef<int64_t> grid,
                                            int64_t threads) {
  assert(grid.size() == 3 && "a grid has three dimensions");
  auto size = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value one = size(1);
  auto launch =
      mlir::gpu::LaunchOp::create(b, loc, size(grid[0]), size(grid[1]),
                                  size(grid[2]), size(threads), one, one);
  b.setInsertionPointToEnd(&launch.getBody().front());
  auto terminator = mlir::gpu::TerminatorOp::create(b, loc);
  b.setInsertionPoint(terminator);
  return launch;
}

Value aicc::gpu::fillValue(linalg::GenericOp fill) {
  if (fill.getNumDpsInits() != 1 || fill.getNumReductionLoops() != 0 ||
      !fill.getIndexingMapsArray().back().isIdentity())
    return {};
  Value yielded = fill.getBody()->getTerminator()->getOperand(0);
  if (auto argument = dyn_cast<BlockArgument>(yielded)) {
    if (argument.getOwner() != fill.getBody() ||
        argument.getArgNumber() >= fill.getNumDpsInputs())
      return {};
    Value input = fill.getDpsInputOperand(argument.getArgNumber())->get();
    return isa<ShapedType>(input.getType()) ? Value() : input;
  }
  return matchPattern(yielded, m_Constant()) ? yielded : Value();
}

SmallVector<linalg::GenericOp, 0>
aicc::gpu::genericsOutsideLaunches(Operation *root) {
  SmallVector<linalg::GenericOp, 0> ops;
  root->walk([&](linalg::GenericOp op) {
    if (!op->getParentOfType<mlir::gpu::LaunchOp>())
      ops.push_back(op);
  });
  return ops;
}

LogicalResult aicc::gpu::rewriteGenericsOutsideLaunches(
    Operation *root, function_ref<FailureOr<bool>(linalg::GenericOp)> rewrite) {
  bool rewrote = true;
  while (rewrote) {
    rewrote = false;
    for (linalg::GenericOp op : genericsOutsideLaunches(root)) {
      FailureOr<bool> done = rewrite(op);
      if (failed(done))
        return failure();
      if (*done) {
        rewrote = true;
        break;
      }
    }
  }
  return success();
}

Value aicc::gpu::fillValueOf(linalg::GenericOp fill, Value buffer) {
  if (!fill || fill.getNumDpsInits() != 1 || fill.getDpsInits()[0] != buffer)
    return {};
  return fillValue(fill);
}

Value aicc::gpu::fillValueAt(OpBuilder &b, linalg::GenericOp fill) {
  Value value = fillValue(fill);
  if (Operation *def = value ? value.getDefiningOp() : nullptr;
      def && fill->isAncestor(def))
    return b.clone(*def)->getResult(0);
  return value;
}

Value aicc::gpu::viewRoot(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

namespace {
bool withoutEffects(Operation *op) {
  return isPure(op) || isa<memref::AllocOp>(op);
}
} // namespace

Operation *aicc::gpu::nextWithEffects(Operation *op) {
  Operation *next = op->getNextNode();
  while (next && withoutEffects(next))
    next = next->getNextNode();
  return next;
}

Operation *aicc::gpu::previousWithEffects(Operation *op) {
  Operation *previous = op->getPrevNode();
  while (previous && withoutEffects(previous))
    previous = previous->getPrevNode();
  return previous;
}

bool aicc::gpu::rowVectorsAligned(MemRefType type, int64_t lanes) {
  Type element = type.getElementType();
  if (type.getRank() == 0 || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() < 8 ||
      !llvm::isPowerOf2_32(element.getIntOrFloatBitWidth()))
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 || ShapedType::isDynamic(offset) ||
      offset % lanes != 0)
    return false;
  // A dimension of extent 1 is only ever indexed by 0: its stride moves
  // nothing.
  return llvm::all_of(
      llvm::seq<int64_t>(0, type.getRank() - 1), [&](int64_t i) {
        return type.getDimSize(i) == 1 ||
               (!ShapedType::isDynamic(strides[i]) && strides[i] % lanes == 0);
      });
}

int64_t aicc::gpu::widestRowVector(ArrayRef<unsigned> elementBits,
                                   unsigned vectorBytes,
                                   llvm::function_ref<bool(int64_t)> fits) {
  if (elementBits.empty())
    return 1;
  int64_t narrowest = *llvm::min_element(elementBits) / 8;
  for (int64_t lanes = llvm::bit_floor(static_cast<uint64_t>(
           std::min<int64_t>(kMaxRowVector, vectorBytes / narrowest)));
       lanes > 1; lanes /= 2)
    if (fits(lanes))
      return lanes;
  return 1;
}

namespace {
/// The alignment of `lanes` elements of `type` from a multiple of `lanes`
/// (rowVectorsAligned): the vector's size, up to the widest access.
llvm::MaybeAlign rowVectorAlignment(MemRefType type, int64_t lanes) {
  return llvm::MaybeAlign(
      std::min<uint64_t>(16, lanes * type.getElementTypeBitWidth() / 8));
}
} // namespace

SmallVector<Value> aicc::gpu::loadRowVector(OpBuilder &b, Location loc,
                                            Value memref, ValueRange indices,
                                            int64_t lanes) {
  auto type = cast<MemRefType>(memref.getType());
  Value vector = vector::LoadOp::create(
      b, loc, VectorType::get({lanes}, type.getElementType()), memref, indices,
      false, rowVectorAlignment(type, lanes));
  SmallVector<Value> elements;
  for (int64_t j = 0; j < lanes; ++j)
    elements.push_back(vector::ExtractOp::create(b, loc, vector, j));
  return elements;
}

void aicc::gpu::storeRowVector(OpBuilder &b, Location loc, ValueRange elements,
                               Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t lanes = elements.size();
  Value vector = vector::FromElementsOp::create(
      b, loc, VectorType::get({lanes}, type.getElementType()), elements);
  vector::StoreOp::create(b, loc, vector, memref, indices, false,
                          rowVectorAlignment(type, lanes));
}
