//===- WGMMAMatmul.cpp - Contractions on Hopper's warpgroup MMA ----------===//
//
// The sm_90a form of the tensor-core contraction kernel: a block of 2
// warpgroups (256 threads) computes a 128 x BN output tile, each warpgroup
// 64 rows of it with wgmma.mma_async m64nBNk16, reading A and B straight
// from shared memory through matrix descriptors. The operands reach shared
// memory through cp.async (16 bytes per copy, L1 bypassed) in STAGES
// buffers of 64-deep slices, copied STAGES - 2 slices ahead of the one the
// tensor cores work on: at slice i, after the copies of slice i are
// complete and visible (cp.async.wait_group, fence.proxy.async, barrier),
// slice i + STAGES - 2 is copied into the buffer that slice i - 2 used,
// whose products every warpgroup waited for at the end of slice i - 1
// (wgmma.wait_group 1 keeps one slice's products in flight).
//
// Shared tiles use the 128-byte swizzle: a 128-byte row holds 64 halves,
// and its 16-byte piece p is stored at piece p ^ (row % 8), so that the 8
// rows of a 1024-byte pattern spread over all banks. A (and B when it is
// k-contiguous) is stored as rows of 64 k; B contiguous along n as
// columns of 64 n, each a run of rows of 64 n, one row per k.
//
// 8-bit integers (u8 or s8, summed in i32) and fp8 (e4m3 or e5m2, summed
// in f32) take m64nBNk32 from slices of 128 k, the same bytes: both
// operands k-contiguous (wgmma transposes 16-bit elements only), copied by
// TMA or in cp.async pieces of 16.
//
//===----------------------------------------------------------------------===//

#include "MMAKernel.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <functional>

using namespace mlir;

namespace aicc::gpu::mma {
namespace {
/// Bytes of one swizzled row, and of the pattern of 8 rows the swizzle
/// repeats over (every tile starts on one).
constexpr int64_t kSwizzleRow = 128;
constexpr int64_t kSwizzleAtom = 1024;
/// Warps in a warpgroup, and rows of the output one warpgroup computes.
constexpr int64_t kWarpgroupWarps = 4;
constexpr int64_t kWarpgroupRows = 64;
/// Floats after each row of a staged output tile: with 8, the 8-byte
/// stores of a half-warp (rows lane / 4, columns 2 (lane % 4)) fall on
/// distinct banks.
constexpr int64_t kStagedPad = 8;
/// Rows of blocks a group of the launch's blocks spans, and the bytes of
/// B past which blocks go in groups (see emitWgmma): a third of the H100's
/// 50 MiB L2. Measured at 8192^3: 1.467 ms against 1.62 in rows (f16);
/// BERT-base's and ViT-B/16's products, whose B fits, ran 2-5% slower in
/// groups.
constexpr int64_t kGroupRows = 8;
constexpr int64_t kGroupedBBytes = 16 << 20;

/// The 64-bit wgmma descriptor of a shared tile at byte address `address`
/// with 128-byte swizzling: the address and the two byte strides in units
/// of 16 bytes (bits 0-13, 16-29 and 32-45), swizzle mode 1 in bits 62-63.
/// `leadingBytes` separates 64-element groups along the tile's contiguous
/// dimension (unused for k-major tiles, whose k16 step stays inside one
/// row), `strideBytes` groups of 8 rows.
Value descriptor(Emitter &e, Value address, int64_t leadingBytes,
                 int64_t strideBytes) {
  OpBuilder &b = e.b;
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, e.loc, i64, v).getResult();
  };
  Value word = arith::IndexCastUIOp::create(b, e.loc, i64, address);
  word = arith::AndIOp::create(b, e.loc, word, constant(0x3FFFF));
  word = arith::ShRUIOp::create(b, e.loc, word, constant(4));
  int64_t fields = ((leadingBytes >> 4) << 16) | ((strideBytes >> 4) << 32) |
                   (int64_t(1) << 62);
  return arith::OrIOp::create(b, e.loc, word, constant(fields));
}

/// The shared-memory byte address `address` (an index) as a pointer into
/// shared memory.
Value sharedPointerAt(Emitter &e, Value address) {
  return LLVM::IntToPtrOp::create(
      e.b, e.loc, LLVM::LLVMPointerType::get(e.b.getContext(), 3),
      arith::IndexCastUIOp::create(e.b, e.loc, e.b.getI64Type(), address), {});
}
} // namespace

SmallVector<Value> Kernel::swizzledOffsets(Emitter &e, const Operand &operand,
                                           ArrayRef<Coordinates> coordinates) {
  // Pieces of 16 bytes: pieceElements halves or 8-bit integers; 8-bit
  // operands come along k only.
  int64_t rowElements = kSwizzleRow * 8 / half.getIntOrFloatBitWidth();
  int64_t rowHalves = kSwizzleRow / 2;
  SmallVector<Value> offsets;
  for (const Coordinates &at : coordinates) {
    // The 128-byte row of the piece, the piece in it, and the first
    // element of its 64-element column.
    Value row, piece, column = e.index(0);
    if (operand.access == Access::KVector) {
      row = at.row;
      piece = e.div(at.col, pieceElements);
    } else {
      row = at.col;
      piece =
          e.rem(e.div(at.row, kVectorElements), rowHalves / kVectorElements);
      column = e.mul(e.div(at.row, rowHalves), tiles.bk * rowHalves);
    }
    Value swizzled = arith::XOrIOp::create(e.b, e.loc, piece, e.rem(row, 8));
    int64_t perRow =
        operand.access == Access::KVector ? rowElements : rowHalves;
    offsets.push_back(e.add(e.add(column, e.mul(row, perRow)),
                            e.mul(swizzled, pieceElements)));
  }
  return offsets;
}

void Kernel::copySlice(
    Emitter &e, const Operand &operand, ArrayRef<Coordinates> coordinates,
    Value k0, Value tileRow0, Value shared,
    llvm::function_ref<SmallVector<Value>(size_t)> destination) {
  SmallVector<SliceAccess> accesses =
      sliceAccesses(e, operand, coordinates, k0, tileRow0, /*clamp=*/true);
  auto token = nvgpu::DeviceAsyncTokenType::get(e.b.getContext());
  for (auto [i, access] : llvm::enumerate(accesses)) {
    // Past an edge the copy reads nothing and fills the piece with zeros.
    Value sourceElements;
    if (access.valid)
      sourceElements = arith::SelectOp::create(
          e.b, e.loc, access.valid, e.index(pieceElements), e.index(0));
    nvgpu::DeviceAsyncCopyOp::create(e.b, e.loc, token, shared, destination(i),
                                     operand.memref, access.indices,
                                     e.b.getIndexAttr(pieceElements),
                                     sourceElements, e.b.getUnitAttr());
  }
}

std::optional<Kernel::TensorMapRead>
Kernel::tensorMapRead(const Operand &operand) const {
  using Index = TensorMapRead::Index;
  auto type = dyn_cast<MemRefType>(operand.memref.getType());
  if (!type || !type.hasStaticShape() || type.getElementType() != half ||
      c.k.size() != 1 || operand.access == Access::Scalar)
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  int64_t elementBytes = half.getIntOrFloatBitWidth() / 8;
  int64_t alignElements = kPieceBytes / elementBytes;
  int64_t rowElements = kSwizzleRow / elementBytes;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset % alignElements ||
      llvm::any_of(strides, ShapedType::isDynamic) || strides.back() != 1)
    return std::nullopt;
  // The runtime encodes maps of the model's buffers, which hold the
  // function's arguments and allocations, not of constants in globals.
  Value root = operand.memref;
  while (Operation *def = root.getDefiningOp()) {
    if (isa<memref::AllocOp>(def))
      break;
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      root = view.getViewSource();
    else if (auto same = dyn_cast<memref::CastOp>(def))
      root = same.getSource();
    else
      return std::nullopt;
  }
  ArrayRef<unsigned> rowLoops = operand.rowLoops;
  unsigned kLoop = c.k.front();
  bool kInner = operand.access == Access::KVector;

  // What indexes each dimension, loops of extent 1 read as 0.
  MLIRContext *context = operand.map.getContext();
  SmallVector<AffineExpr> zeroed;
  for (unsigned loop = 0; loop < operand.map.getNumDims(); ++loop)
    zeroed.push_back(c.bounds[loop] == 1 ? getAffineConstantExpr(0, context)
                                         : getAffineDimExpr(loop, context));
  TensorMapRead read;
  SmallVector<int64_t> rowDims;
  llvm::SmallDenseSet<unsigned, 8> seen;
  for (auto [d, result] : llvm::enumerate(operand.map.getResults())) {
    AffineExpr expr = result.replaceDims(zeroed);
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      if (constant.getValue() != 0)
        return std::nullopt;
      read.dims.push_back({Index::Zero, 0});
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || !seen.insert(dim.getPosition()).second)
      return std::nullopt;
    unsigned loop = dim.getPosition();
    if (loop == kLoop) {
      read.dims.push_back({Index::K, loop});
    } else if (llvm::is_contained(rowLoops, loop)) {
      // The rows in their order over consecutive dimensions, each as long
      // as its loop and laid out so that they collapse into one.
      size_t j = rowDims.size();
      if (rowLoops[j] != loop || type.getDimSize(d) != c.bounds[loop] ||
          (j > 0 && (rowDims.back() + 1 != int64_t(d) ||
                     strides[d - 1] != strides[d] * type.getDimSize(d))))
        return std::nullopt;
      rowDims.push_back(d);
      if (j == 0)
        read.dims.push_back({Index::Rows, loop});
    } else if (llvm::is_contained(c.batch, loop)) {
      read.dims.push_back({Index::Batch, loop});
    } else {
      return std::nullopt;
    }
  }
  if (rowDims.size() != rowLoops.size() || !seen.contains(kLoop) ||
      read.dims.back().first != (kInner ? Index::K : Index::Rows) ||
      read.dims.size() > 5)
    return std::nullopt;
  // The dimensions once collapsed: strides in bytes, multiples of 16 below
  // 2^40.
  for (int64_t d = 0; d < type.getRank();) {
    ReassociationIndices group = {d};
    if (!rowDims.empty() && d == rowDims.front())
      group = ReassociationIndices(rowDims.begin(), rowDims.end());
    int64_t stride = strides[group.back()];
    if (group.back() + 1 < type.getRank() &&
        (stride % alignElements || stride >= (int64_t(1) << 39)))
      return std::nullopt;
    d = group.back() + 1;
    read.collapse.push_back(std::move(group));
  }
  if (int64_t(read.collapse.size()) == type.getRank())
    read.collapse.clear();
  for (auto [index, loop] : read.dims)
    read.box.push_back(index == Index::K ? tiles.bk
                       : index == Index::Rows
                           ? (kInner ? operand.tileRows : rowElements)
                           : 1);
  if (!kInner)
    read.boxes = operand.tileRows / rowElements;
  return read;
}

void Kernel::copyBoxes(Emitter &e, const TensorMapRead &read, Value map,
                       Value tile, Value barrier, Value k0, Value tileRow0) {
  using Index = TensorMapRead::Index;
  OpBuilder &b = e.b;
  Type i32 = b.getI32Type();
  int64_t elementBytes = half.getIntOrFloatBitWidth() / 8;
  int64_t boxBytes = elementBytes;
  for (int64_t extent : read.box)
    boxBytes *= extent;
  for (int64_t i = 0; i < read.boxes; ++i) {
    // Coordinates innermost first; box i of B along n starts 64 i columns
    // further, its tile bk rows of 128 bytes further.
    SmallVector<Value> coordinates;
    for (auto [index, loop] : llvm::reverse(read.dims)) {
      Value at = index == Index::K       ? k0
                 : index == Index::Batch ? blockLoops[loop]
                 : index == Index::Rows
                     ? e.add(tileRow0, i * kSwizzleRow / elementBytes)
                     : e.index(0);
      coordinates.push_back(arith::IndexCastOp::create(b, e.loc, i32, at));
    }
    // The cluster's window, which holds this block's shared memory (the
    // destination form PTX 8.0 has).
    Value destination = LLVM::AddrSpaceCastOp::create(
        b, e.loc, LLVM::LLVMPointerType::get(b.getContext(), 7),
        sharedPointerAt(e, e.add(tile, i * boxBytes)));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, e.loc, destination, map, coordinates, barrier, ValueRange{}, Value(),
        Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
        NVVM::CTAGroupKindAttr(), Value());
  }
}

std::pair<Operand, Operand> Kernel::wgmmaOperands(Value shared) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Operand a{
      op.getDpsInputs()[0], maps[0], c.m, m, tiles.bm, true, accessA, shared};
  Operand bOperand{op.getDpsInputs()[1],       maps[1], c.n,   n, tiles.bn,
                   accessB == Access::KVector, accessB, shared};
  return {a, bOperand};
}

void Kernel::emitWgmma(Emitter &e) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  MLIRContext *context = b.getContext();
  bool integer = half.isInteger(8);
  int64_t elementBytes = half.getIntOrFloatBitWidth() / 8;
  int64_t aElements = tiles.bm * tiles.bk, bElements = tiles.bn * tiles.bk;
  int64_t stageElements = aElements + bElements;
  mlir::gpu::LaunchOp launch = aicc::gpu::createLaunch(
      b, loc,
      {(n + tiles.bn - 1) / tiles.bn, (m + tiles.bm - 1) / tiles.bm, batches},
      tiles.threads());
  recordWork(launch);
  // Two blocks of 3 stages share a multiprocessor only if each thread
  // keeps to 128 registers: outlining tells ptxas so (nvvm.minctasm).
  // Not with 256 columns, whose accumulators alone take 128 registers.
  if (tiles.stages == 3 && tiles.bn <= 128)
    launch->setAttr(kMinBlocksPerMultiprocessor, b.getI32IntegerAttr(2));

  // The stages, from the first 1024-byte boundary of the block's shared
  // buffer on (outlining makes it dynamic shared memory).
  Value raw = memref::AllocaOp::create(
      b, loc,
      MemRefType::get({wgmmaSharedBytes(tiles)}, b.getI8Type(),
                      MemRefLayoutAttrInterface{},
                      aicc::gpu::workgroupSpace(context)));
  Value rawAddress =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, raw);
  Value shift = e.rem(arith::SubIOp::create(b, loc, e.index(kSwizzleAtom),
                                            e.rem(rawAddress, kSwizzleAtom)),
                      kSwizzleAtom);
  Value shared = memref::ViewOp::create(
      b, loc,
      MemRefType::get({tiles.stages * stageElements}, half,
                      MemRefLayoutAttrInterface{},
                      aicc::gpu::workgroupSpace(context)),
      raw, shift, ValueRange{});
  Value sharedAddress = e.add(rawAddress, shift);

  auto [a, bOperand] = wgmmaOperands(shared);
  blockLoops.assign(op.getNumLoops(), e.index(0));
  e.delinearize(launch.getBlockIds().z, c.batch, c.bounds, blockLoops);
  Value thread = launch.getThreadIds().x;
  Value lane = e.rem(thread, kWarp);
  Value warp = e.div(thread, kWarp);
  Value warpgroup = e.div(warp, kWarpgroupWarps);
  // Blocks are started in order of their linear index (x fastest). Taken
  // as rows of blocks, one wave of them would read a few row panels of A
  // and all of B; where B is larger than L2 holds, they are taken as
  // columns of kGroupRows blocks instead: a wave then reads that many row
  // panels and a few column panels of B, which stay in L2 for the group's
  // other rows. (The last group holds the rows left.)
  int64_t gridX = (n + tiles.bn - 1) / tiles.bn;
  int64_t gridY = (m + tiles.bm - 1) / tiles.bm;
  Value blockM = launch.getBlockIds().y, blockN = launch.getBlockIds().x;
  if (gridY > kGroupRows && n * k * elementBytes > kGroupedBBytes) {
    Value linear = e.add(e.mul(blockM, gridX), blockN);
    Value group = e.div(linear, kGroupRows * gridX);
    Value inGroup = e.rem(linear, kGroupRows * gridX);
    Value firstRow = e.mul(group, kGroupRows);
    // Rows in this group: kGroupRows, or what the last group has left.
    Value rows = arith::MinUIOp::create(
        b, loc, e.index(kGroupRows),
        arith::SubIOp::create(b, loc, e.index(gridY), firstRow));
    blockM = e.add(firstRow, arith::RemUIOp::create(b, loc, inGroup, rows));
    blockN = arith::DivUIOp::create(b, loc, inGroup, rows);
  }
  Value tileM = e.mul(blockM, tiles.bm);
  Value tileN = e.mul(blockN, tiles.bn);

  int64_t slices = (k + tiles.bk - 1) / tiles.bk;
  int64_t ahead = tiles.stages - 2;
  // With TMA, one thread copies each slice's boxes, which complete on the
  // slice's stage's mbarrier (after the stages, 8 bytes each): every
  // thread waits for its phase, slice / stages % 2, before the products.
  std::optional<TensorMapRead> readA, readB;
  if (tma) {
    readA = tensorMapRead(a);
    readB = tensorMapRead(bOperand);
    if (!readA || !readB)
      readA.reset();
  }
  Type i32 = b.getI32Type();
  Value barriers =
      e.add(sharedAddress, tiles.stages * stageElements * elementBytes);
  auto barrierAt = [&](Value slice) {
    return sharedPointerAt(
        e, e.add(barriers, e.mul(e.rem(slice, tiles.stages), 8)));
  };
  std::function<void(Value)> copy;
  SmallVector<Coordinates> atA, atB;
  SmallVector<Value> offsetsA, offsetsB;
  if (readA) {
    // The maps' addresses: kernel parameters once outlined.
    auto mapAddress = [&](const Operand &operand, const TensorMapRead &read) {
      // Rows over several dimensions: a view that collapses them, made
      // before the launch.
      Value buffer = operand.memref;
      if (!read.collapse.empty()) {
        OpBuilder host(launch);
        buffer =
            memref::CollapseShapeOp::create(host, loc, buffer, read.collapse);
      }
      auto marker = UnrealizedConversionCastOp::create(
          b, loc, TypeRange{b.getI64Type()}, ValueRange{buffer});
      marker->setAttr(aicc::gpu::kTensorMapBox,
                      b.getDenseI64ArrayAttr(read.box));
      return LLVM::IntToPtrOp::create(b, loc,
                                      LLVM::LLVMPointerType::get(context),
                                      marker.getResult(0), {})
          .getResult();
    };
    Value mapA = mapAddress(a, *readA), mapB = mapAddress(bOperand, *readB);
    Value first = e.less(thread, 1);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(
          scf::IfOp::create(b, loc, first, false).thenBlock()->getTerminator());
      for (Value map : {mapA, mapB})
        NVVM::PrefetchOp::create(b, loc, NVVM::PrefetchCacheLevelAttr(),
                                 NVVM::CacheEvictionPriorityAttr(), map,
                                 Value(), /*tensormap=*/true);
      Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
      for (int64_t s = 0; s < tiles.stages; ++s)
        NVVM::MBarrierInitOp::create(b, loc, barrierAt(e.index(s)), one,
                                     Value());
      NVVM::FenceMbarrierInitOp::create(b, loc);
    }
    mlir::gpu::BarrierOp::create(b, loc);
    Value sliceBytes = arith::ConstantIntOp::create(
        b, loc, i32, (aElements + bElements) * elementBytes);
    copy = [&, mapA, mapB, first, sliceBytes](Value slice) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(
          scf::IfOp::create(b, loc, first, false).thenBlock()->getTerminator());
      Value barrier = barrierAt(slice);
      NVVM::MBarrierArriveExpectTxOp::create(
          b, loc, Type(), barrier, sliceBytes, NVVM::MemScopeKind::CTA, false,
          Value());
      Value tile = e.add(sharedAddress, e.mul(e.rem(slice, tiles.stages),
                                              stageElements * elementBytes));
      Value k0 = e.mul(slice, tiles.bk);
      copyBoxes(e, *readA, mapA, tile, barrier, k0, tileM);
      copyBoxes(e, *readB, mapB, e.add(tile, aElements * elementBytes), barrier,
                k0, tileN);
    };
  } else {
    atA = coordinates(e, a, thread);
    atB = coordinates(e, bOperand, thread);
    offsetsA = swizzledOffsets(e, a, atA);
    offsetsB = swizzledOffsets(e, bOperand, atB);
    copy = [&](Value slice) {
      Value stage = e.mul(e.rem(slice, tiles.stages), stageElements);
      Value k0 = e.mul(slice, tiles.bk);
      copySlice(e, a, atA, k0, tileM, shared, [&](size_t i) {
        return SmallVector<Value>{e.add(stage, offsetsA[i])};
      });
      Value stageB = e.add(stage, aElements);
      copySlice(e, bOperand, atB, k0, tileN, shared, [&](size_t i) {
        return SmallVector<Value>{e.add(stageB, offsetsB[i])};
      });
    };
  }
  // cp.async: every slice commits one group, empty or not, so that a wait
  // for all but the newest `ahead - 1` groups is a wait for the current
  // slice.
  for (int64_t s = 0; s < ahead; ++s) {
    if (s < slices)
      copy(e.index(s));
    if (!readA)
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  Type sumType = accumulatorType(half);
  auto accType = LLVM::LLVMStructType::getLiteral(
      context, SmallVector<Type>(tiles.bn / 2, sumType));
  auto operandType = [&](unsigned input) {
    if (integer)
      return c.unsignedInput[input] ? NVVM::WGMMATypes::u8
                                    : NVVM::WGMMATypes::s8;
    if (isa<Float8E4M3FNType>(half))
      return NVVM::WGMMATypes::e4m3;
    if (isa<Float8E5M2Type>(half))
      return NVVM::WGMMATypes::e5m2;
    return half.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  };
  bool bKMajor = accessB == Access::KVector;
  Value zero = LLVM::ZeroOp::create(b, loc, accType);
  auto loop = scf::ForOp::create(b, loc, e.index(0), e.index(slices),
                                 e.index(1), ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value slice = loop.getInductionVar();
    if (readA) {
      // TMA and wgmma both work through the async proxy: the barrier's
      // phase makes the slice visible.
      Value phase = e.rem(e.div(slice, tiles.stages), 2);
      NVVM::MBarrierTryWaitParityOp::create(
          b, loc, barrierAt(slice),
          arith::IndexCastUIOp::create(b, loc, i32, phase),
          arith::ConstantIntOp::create(b, loc, i32, 0x989680));
    } else {
      NVVM::CpAsyncWaitGroupOp::create(b, loc, ahead - 1);
      // cp.async writes through the generic proxy, wgmma reads through the
      // async one.
      NVVM::FenceProxyOp::create(
          b, loc, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
    }
    // Every warpgroup is past the products of slice - 2, whose stage the
    // next copy fills.
    mlir::gpu::BarrierOp::create(b, loc);
    Value next = e.add(slice, ahead);
    auto copyNext = scf::IfOp::create(b, loc, e.less(next, slices), false);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPoint(copyNext.thenBlock()->getTerminator());
      copy(next);
    }
    if (!readA)
      NVVM::CpAsyncCommitGroupOp::create(b, loc);

    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    Value stageAddress =
        e.add(sharedAddress,
              e.mul(e.rem(slice, tiles.stages), stageElements * elementBytes));
    Value aAddress =
        e.add(stageAddress, e.mul(warpgroup, kWarpgroupRows * kSwizzleRow));
    Value bAddress = e.add(stageAddress, aElements * elementBytes);
    Value sums = loop.getRegionIterArgs()[0];
    // Each product is 32 bytes deep: k16 of halves, k32 of bytes.
    int64_t depth = 32 / elementBytes;
    for (int64_t ks = 0; ks < tiles.bk; ks += depth) {
      // k-major tiles step 32 bytes along their rows, n-major ones 16 rows.
      Value descA =
          descriptor(e, e.add(aAddress, ks * elementBytes), 16, kSwizzleAtom);
      Value descB = bKMajor ? descriptor(e, e.add(bAddress, ks * elementBytes),
                                         16, kSwizzleAtom)
                            : descriptor(e, e.add(bAddress, ks * kSwizzleRow),
                                         tiles.bk * kSwizzleRow, kSwizzleAtom);
      sums = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, accType, sums, descA, descB,
          NVVM::MMAShapeAttr::get(context, kWarpgroupRows, tiles.bn, depth),
          operandType(0), operandType(1),
          integer ? NVVM::WGMMATypes::s32 : NVVM::WGMMATypes::f32,
          NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
          NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
          bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          NVVM::MMAIntOverflowAttr());
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
    scf::YieldOp::create(b, loc, sums);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  if (int64_t lanes = stagedLanes()) {
    storeStaged(e, loop.getResult(0), raw, shift, thread, tileM, tileN, lanes);
    return;
  }

  // Per warp, the accumulators of n8 tile t are registers 4t..4t+3: rows
  // lane / 4 and lane / 4 + 8 of the warp's 16, columns 2 (lane % 4) and
  // the next, as mma.sync's.
  auto pairType = VectorType::get({2, 2}, sumType);
  Value pairZero = arith::ConstantOp::create(
      b, loc, pairType, cast<TypedAttr>(b.getZeroAttr(pairType)));
  SmallVector<Value> sums;
  for (int64_t t = 0; t < tiles.bn / 8; ++t) {
    Value tile = pairZero;
    for (int64_t r = 0; r < 4; ++r)
      tile = vector::InsertOp::create(
          b, loc,
          LLVM::ExtractValueOp::create(b, loc, loop.getResult(0), 4 * t + r),
          tile, ArrayRef<int64_t>{r / 2, r % 2});
    sums.push_back(tile);
  }
  storeSums(e, sums, lane, e.mul(warp, 16), e.index(0), tileM, tileN, Value(),
            Value());
}

int64_t Kernel::stagedLanes() {
  int64_t tileBytes = tiles.bm * (tiles.bn + kStagedPad) * 4;
  if (!overwrite ||
      tileBytes > tiles.stages * (tiles.bm + tiles.bn) * kWgmmaSliceBytes)
    return 0;
  AffineMap outMap = op.getIndexingMapsArray()[2];
  unsigned inner = c.n.back();
  for (int64_t lanes : {8, 4})
    if (tiles.bn % lanes == 0 &&
        tiles.bm * tiles.bn / lanes % tiles.threads() == 0 &&
        aicc::gpu::storesRows(outMap, inner, c.bounds[inner],
                              op.getDpsInits()[0], epilogue, lanes))
      return lanes;
  return 0;
}

void Kernel::storeStaged(Emitter &e, Value accumulators, Value raw, Value shift,
                         Value thread, Value tileM, Value tileN,
                         int64_t lanes) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int64_t pitch = tiles.bn + kStagedPad;
  // The copies still committed are empty groups; once every thread is
  // past its last products, the stages are free.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  mlir::gpu::BarrierOp::create(b, loc);
  Value tile = memref::ViewOp::create(
      b, loc,
      MemRefType::get({tiles.bm * pitch}, accumulatorType(half),
                      MemRefLayoutAttrInterface{},
                      aicc::gpu::workgroupSpace(b.getContext())),
      raw, shift, ValueRange{});
  // Per warp, the accumulators of n8 tile t are registers 4t..4t+3: rows
  // lane / 4 and lane / 4 + 8 of the warp's 16, columns 2 (lane % 4) and
  // the next.
  Value lane = e.rem(thread, kWarp);
  Value row0 = e.add(e.mul(e.div(thread, kWarp), 16), e.div(lane, 4));
  Value col0 = e.mul(e.rem(lane, 4), 2);
  for (int64_t t = 0; t < tiles.bn / 8; ++t)
    for (int64_t i = 0; i < 2; ++i) {
      SmallVector<Value> pair;
      for (int64_t j = 0; j < 2; ++j)
        pair.push_back(LLVM::ExtractValueOp::create(b, loc, accumulators,
                                                    4 * t + 2 * i + j));
      Value at = e.add(e.mul(e.add(row0, 8 * i), pitch), e.add(col0, 8 * t));
      aicc::gpu::storeRowVector(b, loc, pair, tile, at);
    }
  mlir::gpu::BarrierOp::create(b, loc);

  // Vector v of the tile (rows of BN / lanes) is thread v % threads's,
  // at step v / threads.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value out = op.getDpsInits()[0];
  int64_t perRow = tiles.bn / lanes;
  for (int64_t step = 0; step < tiles.bm * perRow / tiles.threads(); ++step) {
    Value vector = e.add(thread, step * tiles.threads());
    Value row = e.div(vector, perRow);
    Value col = e.mul(e.rem(vector, perRow), lanes);
    SmallVector<Value> sums = aicc::gpu::loadRowVector(
        b, loc, tile, e.add(e.mul(row, pitch), col), lanes);
    Value outRow = e.add(tileM, row), outCol = e.add(tileN, col);
    Value valid;
    if (m % tiles.bm)
      valid = e.less(outRow, m);
    if (n % tiles.bn)
      valid = e.both(valid, e.less(outCol, n));
    OpBuilder::InsertionGuard guard(b);
    if (valid) {
      auto store = scf::IfOp::create(b, loc, valid, false);
      b.setInsertionPoint(store.thenBlock()->getTerminator());
    }
    SmallVector<Value> loops(blockLoops);
    e.delinearize(outRow, c.m, c.bounds, loops);
    e.delinearize(outCol, c.n, c.bounds, loops);
    aicc::gpu::storeContractionSums(b, loc, sums, out, e.apply(maps[2], loops),
                                    epilogue);
  }
}

} // namespace aicc::gpu::mma
