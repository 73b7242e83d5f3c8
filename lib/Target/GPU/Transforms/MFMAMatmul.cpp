//===- MFMAMatmul.cpp - Matrix products on AMD matrix cores ---------------===//

#include "aicc/Target/GPU/Passes.h"

#include "Contraction.h"
#include "Cost.h"
#include "KernelTiles.h"
#include "Utils.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUMFMAMATMULPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {
using aicc::gpu::kWaveLanes;
using aicc::gpu::kWaveTile;
constexpr int64_t kAccumulators = 16;

/// A matrix product's loops: batch loops, then m, n and k.
struct Product {
  SmallVector<unsigned> batch;
  unsigned m, n, k;
};

/// A contraction with one m, one n and one k loop, projected permutation
/// maps and an f32 accumulator, over f32 or f16 operands.
std::optional<Product> matchProduct(linalg::GenericOp op) {
  std::optional<aicc::gpu::Contraction> contraction =
      aicc::gpu::matchContraction(op);
  if (!contraction || contraction->m.size() != 1 ||
      contraction->n.size() != 1 || contraction->k.size() != 1)
    return std::nullopt;
  if (!cast<MemRefType>(op.getDpsInits()[0].getType()).getElementType().isF32())
    return std::nullopt;
  for (Value input : op.getDpsInputs()) {
    Type element = cast<MemRefType>(input.getType()).getElementType();
    if (!element.isF32() && !element.isF16())
      return std::nullopt;
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (AffineMap map : maps)
    if (!map.isProjectedPermutation())
      return std::nullopt;
  unsigned k = contraction->k.front();
  if (!maps[0].isFunctionOfDim(k) || !maps[1].isFunctionOfDim(k))
    return std::nullopt;
  // Loops of extent 1 have no role in the contraction; here they run as
  // batch loops of one.
  Product result{contraction->batch, contraction->m.front(),
                 contraction->n.front(), k};
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
    if (contraction->bounds[loop] == 1 &&
        op.getIteratorTypesArray()[loop] == utils::IteratorType::parallel)
      result.batch.push_back(loop);
  llvm::sort(result.batch);
  return result;
}

struct Emitter : aicc::gpu::IndexBuilder {
  /// operand[map(loops)] as f32 where `inRange`, else 0.
  Value load(Value operand, AffineMap map, ArrayRef<Value> loops,
             Value inRange) {
    SmallVector<Value> indices;
    for (AffineExpr e : map.getResults())
      indices.push_back(loops[cast<AffineDimExpr>(e).getPosition()]);
    auto read = scf::IfOp::create(
        b, loc, inRange,
        [&](OpBuilder &nb, Location l) {
          Value v = memref::LoadOp::create(nb, l, operand, indices);
          if (!v.getType().isF32())
            v = arith::ExtFOp::create(nb, l, nb.getF32Type(), v);
          scf::YieldOp::create(nb, l, v);
        },
        [&](OpBuilder &nb, Location l) {
          scf::YieldOp::create(
              nb, l,
              arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(0.0))
                  .getResult());
        });
    return read.getResult(0);
  }
};

/// Replaces the product `op` by a launch of one wave per 32x32 tile, `t`'s
/// waves a block.
void emitMFMA(linalg::GenericOp op, const Product &product,
              const aicc::gpu::WaveTiling &t) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Emitter e{{b, loc}};
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t m = bounds[product.m], n = bounds[product.n], k = bounds[product.k];
  int64_t batches = 1;
  for (unsigned loop : product.batch)
    batches *= bounds[loop];
  int64_t blockM = kWaveTile * t.wavesM, blockN = kWaveTile * t.wavesN;
  gpu::LaunchOp launch = aicc::gpu::createLaunch(
      b, loc, {(n + blockN - 1) / blockN, (m + blockM - 1) / blockM, batches},
      kWaveLanes * t.wavesM * t.wavesN);
  aicc::gpu::recordFlops(launch, aicc::gpu::countFlops(op),
                         /*tensorCores=*/true,
                         getElementTypeOrSelf(op.getDpsInputs()[0].getType())
                             .getIntOrFloatBitWidth());

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value a = op.getDpsInputs()[0], bm = op.getDpsInputs()[1];
  Value c = op.getDpsInits()[0];
  Value lane = launch.getThreadIds().x;
  Value tileN = e.mul(launch.getBlockIds().x, blockN);
  Value tileM = e.mul(launch.getBlockIds().y, blockM);
  // The wave's own tile of the block's.
  if (t.wavesM * t.wavesN > 1) {
    Value wave = arith::DivUIOp::create(b, loc, lane, e.index(kWaveLanes));
    lane = arith::RemUIOp::create(b, loc, lane, e.index(kWaveLanes));
    Value waveN = arith::RemUIOp::create(b, loc, wave, e.index(t.wavesN));
    Value waveM = arith::DivUIOp::create(b, loc, wave, e.index(t.wavesN));
    tileN = e.add(tileN, e.mul(waveN, kWaveTile));
    tileM = e.add(tileM, e.mul(waveM, kWaveTile));
  }
  Value column = arith::RemUIOp::create(b, loc, lane, e.index(kWaveTile));
  Value half = arith::DivUIOp::create(b, loc, lane, e.index(kWaveTile));

  // The loop indices of this wave's batch element, the others filled in
  // per access.
  SmallVector<Value> loops(op.getNumLoops(), e.index(0));
  Value rest = launch.getBlockIds().z;
  for (unsigned loop : llvm::reverse(product.batch)) {
    Value count = e.index(bounds[loop]);
    loops[loop] = arith::RemUIOp::create(b, loc, rest, count);
    rest = arith::DivUIOp::create(b, loc, rest, count);
  }

  // Accumulator element j of this lane: C[8 (j / 4) + 4 (l / 32) + j % 4]
  // [l % 32] of the tile.
  auto accumulatorRow = [&](int64_t j) {
    return e.add(e.add(tileM, e.mul(half, 4)), e.index(8 * (j / 4) + j % 4));
  };
  Value outColumn = e.add(tileN, column);
  Value columnInRange = e.less(outColumn, n);
  auto accType = VectorType::get({kAccumulators}, b.getF32Type());
  Value acc = arith::ConstantOp::create(
      b, loc, accType, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));
  for (int64_t j = 0; j < kAccumulators; ++j) {
    Value row = accumulatorRow(j);
    loops[product.m] = row;
    loops[product.n] = outColumn;
    Value v = e.load(c, maps[2], loops, e.both(e.less(row, m), columnInRange));
    acc = vector::InsertOp::create(b, loc, v, acc, j);
  }

  // Two k per step: lane l brings A[m0 + l % 32][k0 + l / 32] and
  // B[k0 + l / 32][n0 + l % 32].
  Value aRow = e.add(tileM, column);
  auto loop = scf::ForOp::create(b, loc, e.index(0), e.index(k), e.index(2),
                                 ValueRange{acc});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kk = e.add(loop.getInductionVar(), half);
    Value kInRange = e.less(kk, k);
    loops[product.k] = kk;
    loops[product.m] = aRow;
    Value x = e.load(a, maps[0], loops, e.both(e.less(aRow, m), kInRange));
    loops[product.n] = outColumn;
    Value y = e.load(bm, maps[1], loops, e.both(columnInRange, kInRange));
    Value next = amdgpu::MFMAOp::create(
        b, loc, accType, b.getI32IntegerAttr(kWaveTile),
        b.getI32IntegerAttr(kWaveTile), b.getI32IntegerAttr(2),
        b.getI32IntegerAttr(1), x, y, loop.getRegionIterArg(0));
    scf::YieldOp::create(b, loc, next);
  }
  acc = loop.getResult(0);
  for (int64_t j = 0; j < kAccumulators; ++j) {
    Value row = accumulatorRow(j);
    loops[product.m] = row;
    loops[product.n] = outColumn;
    SmallVector<Value> indices;
    for (AffineExpr expr : maps[2].getResults())
      indices.push_back(loops[cast<AffineDimExpr>(expr).getPosition()]);
    Value v = vector::ExtractOp::create(b, loc, acc, j);
    auto store =
        scf::IfOp::create(b, loc, e.both(e.less(row, m), columnInRange),
                          /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(store.thenBlock()->getTerminator());
    memref::StoreOp::create(b, loc, v, c, indices);
  }
  op.erase();
}

struct GPUMFMAMatmulPass
    : aicc::gpu::impl::GPUMFMAMatmulPassBase<GPUMFMAMatmulPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, Product>> products;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      if (std::optional<Product> product = matchProduct(op))
        products.push_back({op, *product});
    });
    // The products aicc-gpu-choose-tiles gave a tiling, with its waves a
    // block.
    for (auto &[op, product] : products) {
      std::optional<aicc::gpu::WaveTiling> t =
          aicc::gpu::recordedWaveTiling(op);
      if (!t)
        continue;
      emitMFMA(op, product, *t);
    }
  }
};
} // namespace

std::optional<aicc::gpu::MFMAProduct>
aicc::gpu::matchMFMAProduct(linalg::GenericOp op) {
  std::optional<Product> product = matchProduct(op);
  if (!product)
    return std::nullopt;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  MFMAProduct result{bounds[product->m], bounds[product->n], 1};
  for (unsigned loop : product->batch)
    result.batches *= bounds[loop];
  return result;
}
