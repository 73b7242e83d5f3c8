//===- TileAndVectorize.cpp - Micro-kernels from upstream tiling ----------===//
//
// Matrix work on the CPU, built entirely from upstream transformations:
// tileConsumerAndFuseProducersUsingSCF gives each thread an output tile and
// each register tile its own accumulator initialization; linalg::vectorize
// turns the innermost tile into a vector.contract of a column by a row;
// hoisting loop-invariant subsets keeps the accumulators in registers
// across the reduction loop. The result is the outer-product micro-kernel
// hand-written BLAS libraries use, with edges handled by masking.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/Support/MathExtras.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPUTILEANDVECTORIZEPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {

/// A contraction and the loop dimensions that play M, N and K. `panels`
/// is the N dimension just outside `n` in the output when the right-hand
/// side comes packed in panels of `n` columns (-1 otherwise).
struct Contraction {
  linalg::LinalgOp op;
  unsigned m, n, k;
  int64_t panels = -1;
};

std::optional<Contraction> matchContraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() || op.hasDynamicShape())
    return std::nullopt;
  Type accumulator = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!isa<FloatType>(accumulator) && !accumulator.isInteger(32))
    return std::nullopt;
  if (!linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return std::nullopt;
  // Vectors run along the output's innermost dimension; it must be an N
  // dimension so that the right-hand operand supplies contiguous rows.
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (output.getNumResults() == 0)
    return std::nullopt;
  auto innermost = dyn_cast<AffineDimExpr>(output.getResults().back());
  if (!innermost)
    return std::nullopt;
  unsigned n = innermost.getPosition();
  unsigned m;
  if (llvm::is_contained(dims->n, n)) {
    m = dims->m.back();
  } else if (llvm::is_contained(dims->m, n)) {
    // The operands play the other roles; the loop roles are symmetric.
    m = dims->n.back();
  } else {
    return std::nullopt;
  }
  Contraction c{op, m, n, dims->k.back()};
  if (output.getNumResults() >= 2)
    if (auto outer = dyn_cast<AffineDimExpr>(
            output.getResults()[output.getNumResults() - 2]))
      if (outer.getPosition() != m &&
          (llvm::is_contained(dims->n, outer.getPosition()) ||
           llvm::is_contained(dims->m, outer.getPosition())))
        c.panels = outer.getPosition();
  return c;
}

/// Fuses only the fills that initialize accumulators.
scf::SCFTileAndFuseOptions::ControlFnTy fuseFills() {
  return
      [](tensor::ExtractSliceOp, OpResult producer,
         bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (isa<linalg::FillOp>(producer.getOwner()))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      };
}

/// Tiles `op` with `sizes`, fusing the fills it reads, and replaces its
/// uses by the tiled loops' results.
FailureOr<scf::SCFTileAndFuseResult>
tileWithFills(RewriterBase &rewriter, linalg::LinalgOp op,
              ArrayRef<OpFoldResult> sizes,
              scf::SCFTilingOptions::LoopType loopType) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(sizes);
  tiling.setLoopType(loopType);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(fuseFills());
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(result))
    return failure();
  for (auto [original, replacement] : result->replacements)
    rewriter.replaceAllUsesWith(original, replacement);
  return result;
}

/// Tiles `op` with `sizes`, fusing the fill of its accumulator; returns the
/// tiled contraction and its fused fill (if any).
FailureOr<std::pair<linalg::LinalgOp, linalg::FillOp>>
tileAndFuseFill(RewriterBase &rewriter, linalg::LinalgOp op,
                ArrayRef<OpFoldResult> sizes,
                scf::SCFTilingOptions::LoopType loopType) {
  FailureOr<scf::SCFTileAndFuseResult> result =
      tileWithFills(rewriter, op, sizes, loopType);
  if (failed(result))
    return failure();
  linalg::LinalgOp tiled;
  linalg::FillOp fill;
  for (Operation *t : result->tiledAndFusedOps) {
    if (auto f = dyn_cast<linalg::FillOp>(t))
      fill = f;
    else if (auto l = dyn_cast<linalg::LinalgOp>(t))
      tiled = l;
  }
  if (!tiled)
    return failure();
  return std::make_pair(tiled, fill);
}

/// A read of a filled tensor is the fill value.
struct ReadOfFill : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto fill = read.getBase().getDefiningOp<linalg::FillOp>();
    if (!fill || read.getMask() || read.hasOutOfBoundsDim())
      return rewriter.notifyMatchFailure(read,
                                         "not an in-bounds read of a fill");
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     fill.getInputs()[0]);
    return success();
  }
};

/// A write that covers a whole filled tensor makes the fill dead.
struct OverwriteOfFill : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    auto fill = write.getBase().getDefiningOp<linalg::FillOp>();
    if (!fill || write.getMask() || write.hasOutOfBoundsDim() ||
        !write.getPermutationMap().isMinorIdentity())
      return rewriter.notifyMatchFailure(write, "not a plain write of a fill");
    auto type = dyn_cast<RankedTensorType>(write.getBase().getType());
    if (!type || type.getShape() != write.getVectorType().getShape() ||
        !llvm::all_of(write.getIndices(),
                      [](Value v) { return isZeroInteger(v); }))
      return rewriter.notifyMatchFailure(write, "does not cover the fill");
    rewriter.modifyOpInPlace(
        write, [&] { write.getBaseMutable().assign(fill.getOutputs()[0]); });
    return success();
  }
};

/// What an outlined task is called in profiles (aicc-cpu-outline-parallel).
constexpr StringLiteral kTaskName = "aicc.task_name";
constexpr StringLiteral kKernelMarker = "__aicc_cpu_kernel__";
constexpr StringLiteral kFillMarker = "__aicc_cpu_fill__";
constexpr StringLiteral kPieceMarker = "__aicc_cpu_piece__";
constexpr StringLiteral kRowsMarker = "__aicc_cpu_rows__";
constexpr StringLiteral kRowPieceMarker = "__aicc_cpu_row_piece__";

/// An element-wise op the vectorizer turns into plain vector loads and
/// stores along its innermost dimension.
bool isVectorizableElementwise(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.getNumLoops() == 0 || op.getNumParallelLoops() != op.getNumLoops() ||
      op.getNumDpsInits() != 1 || isa<linalg::FillOp>(op))
    return false;
  // Broadcasts of unit dimensions (d0, d1, 0, 0) read one element.
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;
  // The output walks its innermost dimension with the innermost loop.
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto last = dyn_cast<AffineDimExpr>(output.getResults().back());
  if (!last || last.getPosition() != op.getNumLoops() - 1)
    return false;
  // Booleans are bytes in memory but bits in vectors: leave them scalar.
  for (Value operand : op->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8)
      return false;
  }
  for (Operation &inner : op.getBlock()->without_terminator())
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) &&
        !isa<linalg::IndexOp>(inner))
      return false;
  return true;
}

/// Drops the masks of contractions: their masked-off lanes read the
/// padding value (zero) and are never stored, so computing them is
/// harmless, and an unmasked contraction lowers to plain FMAs.
void unmaskContractions(RewriterBase &rewriter, Operation *root) {
  SmallVector<vector::MaskOp> masks;
  root->walk([&](vector::MaskOp mask) {
    if (isa_and_nonnull<vector::ContractionOp>(mask.getMaskableOp()))
      masks.push_back(mask);
  });
  for (vector::MaskOp mask : masks) {
    Operation *contract = mask.getMaskableOp();
    rewriter.setInsertionPoint(mask);
    Operation *clone = rewriter.clone(*contract);
    rewriter.replaceOp(mask, clone->getResults());
  }
}

/// Whether `op` loops over nothing (a dimension of size 0): it computes
/// nothing, and tiling it would divide by its zero extent.
bool hasEmptyLoop(linalg::LinalgOp op) {
  return llvm::is_contained(op.getStaticLoopRanges(), 0);
}

struct CPUTileAndVectorizePass
    : aicc::cpu::impl::CPUTileAndVectorizePassBase<CPUTileAndVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *context = &getContext();
    SmallVector<Contraction> contractions;
    func.walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<scf::ForallOp>() || hasEmptyLoop(op))
        return;
      if (std::optional<Contraction> c = matchContraction(op))
        contractions.push_back(*c);
    });
    IRRewriter rewriter(context);
    for (Contraction &c : contractions)
      (void)tileContraction(rewriter, c);

    // Everything else that loops over enough elements shares its outer
    // parallel dimensions among the threads.
    SmallVector<linalg::LinalgOp> others;
    func.walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<scf::ForallOp>() &&
          op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
          !hasEmptyLoop(op))
        others.push_back(op);
    });
    for (linalg::LinalgOp op : others) {
      bool rows = isVectorizableElementwise(op);
      if (rows)
        op->setAttr(kRowsMarker, UnitAttr::get(context));
      (void)distribute(rewriter, op);
    }

    // Peeled loops have static bounds; canonicalization makes the slices,
    // and so the tiled kernels, statically shaped.
    canonicalize(func);

    SmallVector<linalg::LinalgOp> kernels;
    SmallVector<linalg::FillOp> fills;
    func.walk([&](Operation *op) {
      if (op->hasAttr(kKernelMarker))
        kernels.push_back(cast<linalg::LinalgOp>(op));
      if (op->hasAttr(kFillMarker))
        fills.push_back(cast<linalg::FillOp>(op));
    });
    for (linalg::FillOp fill : fills)
      fill->removeAttr(kFillMarker);
    for (linalg::LinalgOp kernel : kernels)
      splitColumns(rewriter, kernel);
    canonicalize(func);
    SmallVector<linalg::LinalgOp> pieces;
    func.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kPieceMarker))
        pieces.push_back(op);
    });
    for (linalg::LinalgOp piece : pieces) {
      piece->removeAttr(kPieceMarker);
      vectorizePiece(rewriter, piece);
    }

    // Element-wise ops: rows of a few vector registers, the edge peeled.
    SmallVector<linalg::LinalgOp> rowOps;
    func.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kRowsMarker))
        rowOps.push_back(op);
    });
    for (linalg::LinalgOp op : rowOps)
      splitRows(rewriter, op);
    canonicalize(func);
    SmallVector<linalg::LinalgOp> rowPieces;
    func.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kRowPieceMarker))
        rowPieces.push_back(op);
    });
    for (linalg::LinalgOp piece : rowPieces) {
      piece->removeAttr(kRowPieceMarker);
      if (piece.hasDynamicShape())
        continue;
      rewriter.setInsertionPoint(piece);
      SmallVector<int64_t> sizes = rowVectorSizes(piece);
      SmallVector<bool> scalable(sizes.size(), false);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, piece, sizes, scalable);
      if (succeeded(result))
        rewriter.replaceOp(piece, result->replacements);
    }
    unmaskContractions(rewriter, func);
    {
      RewritePatternSet patterns(context);
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
      (void)applyPatternsGreedily(func, std::move(patterns));
    }
    canonicalize(func);
  }

  void canonicalize(func::FuncOp func) {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<ReadOfFill, OverwriteOfFill>(context);
    linalg::populateLinalgTilingCanonicalizationPatterns(patterns);
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, context);
    (void)applyPatternsGreedily(func, std::move(patterns));
  }

  /// Tiles the outer parallel dimensions of `op` into an scf.forall of at
  /// most `kMaxTasks` tasks of at least `kMinTaskWork` iterations each.
  LogicalResult distribute(RewriterBase &rewriter, linalg::LinalgOp op) {
    constexpr int64_t kMinTaskWork = 1 << 14;
    constexpr int64_t kMaxTasks = 64;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t work = 1;
    for (int64_t r : ranges)
      work *= std::max<int64_t>(r, 1);
    int64_t tasks = std::min(kMaxTasks, work / kMinTaskWork);
    if (tasks < 2)
      return failure();
    // Tiling computes the operand slices of sums and scaled dimensions, not
    // of modular indexing (tile, broadcast by repetition).
    for (AffineMap map : op.getIndexingMapsArray())
      for (AffineExpr result : map.getResults())
        if (result
                .walk([](AffineExpr e) {
                  return e.getKind() == AffineExprKind::Mod ||
                                 e.getKind() == AffineExprKind::FloorDiv ||
                                 e.getKind() == AffineExprKind::CeilDiv
                             ? WalkResult::interrupt()
                             : WalkResult::advance();
                })
                .wasInterrupted())
          return failure();
    MLIRContext *context = &getContext();
    auto iterators = op.getIteratorTypesArray();
    SmallVector<OpFoldResult> sizes(
        op.getNumLoops(), IntegerAttr::get(IndexType::get(context), 0));
    // Split outer parallel dimensions until there are enough tasks.
    int64_t made = 1;
    for (unsigned d = 0; d < op.getNumLoops() && made < tasks; ++d) {
      if (iterators[d] != utils::IteratorType::parallel)
        break;
      int64_t want = std::min<int64_t>(ranges[d], (tasks + made - 1) / made);
      // A divisor of the dimension, so that every task's tile is static.
      int64_t size = (ranges[d] + want - 1) / want;
      while (ranges[d] % size != 0)
        ++size;
      sizes[d] = IntegerAttr::get(IndexType::get(context), size);
      made *= (ranges[d] + size - 1) / size;
    }
    if (made < 2)
      return failure();
    FailureOr<scf::SCFTileAndFuseResult> result = tileWithFills(
        rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForallOp);
    if (failed(result))
      return failure();
    if (!result->loops.empty()) {
      std::string name = "loop";
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
        name = llvm::all_of(generic.getIteratorTypesArray(),
                            [](utils::IteratorType t) {
                              return t == utils::IteratorType::parallel;
                            })
                   ? "elementwise"
                   : "reduction";
      else
        name = op->getName().stripDialect().str();
      result->loops.front()->setAttr(kTaskName, StringAttr::get(context, name));
    }
    return success();
  }

  /// Sizes of the register tile, by loop dimension, recorded on kernels.
  SmallVector<int64_t> vectorSizes(linalg::LinalgOp op) {
    auto attr = op->getAttrOfType<DenseI64ArrayAttr>(kKernelMarker);
    return SmallVector<int64_t>(attr.asArrayRef());
  }

  LogicalResult tileContraction(RewriterBase &rewriter, Contraction c) {
    MLIRContext *context = &getContext();
    SmallVector<int64_t> ranges = c.op.getStaticLoopRanges();
    unsigned loops = c.op.getNumLoops();
    auto index = [&](int64_t v) -> OpFoldResult {
      return IntegerAttr::get(IndexType::get(context), v);
    };
    auto parallelOnes = [&]() {
      SmallVector<OpFoldResult> sizes(loops, index(0));
      for (unsigned d = 0; d < loops; ++d)
        if (c.op.getIteratorTypesArray()[d] == utils::IteratorType::parallel)
          sizes[d] = index(1);
      return sizes;
    };
    int64_t rows = std::min(registerM.getValue(), ranges[c.m]);
    int64_t columns = registerN.getValue();
    // Short products (a matrix-vector product at M = 1) keep as many
    // independent accumulators as a full tile by widening it: at 1 x 32 the
    // FMAs of one row would wait on each other's latency.
    while (rows * 2 * columns <= registerM * registerN &&
           2 * columns <= ranges[c.n] && c.panels < 0)
      columns *= 2;

    // 1. Output tiles for the threads: multiples of the register tile,
    // dividing the output evenly where a divisor is close.
    // Sizes that divide the dimension keep every tile static (register
    // tiles then peel into static remainders); otherwise a multiple of the
    // register tile, and the edge tiles take the generic path.
    auto threadSize = [&](int64_t total, int64_t target, int64_t unit) {
      if (total <= target + target / 2)
        return total;
      for (int64_t size = target; size >= target / 2; --size)
        if (total % size == 0)
          return size;
      for (int64_t size = target + 1; size <= 2 * target; ++size)
        if (total % size == 0)
          return size;
      return std::max<int64_t>(unit, target / unit * unit);
    };
    SmallVector<OpFoldResult> threadTile = parallelOnes();
    threadTile[c.m] = index(threadSize(ranges[c.m], tileM, rows));
    threadTile[c.n] = index(threadSize(ranges[c.n], tileN, columns));
    // Packed panels: a thread takes as many panels as fill its columns.
    if (c.panels >= 0 && ranges[c.n] < tileN)
      threadTile[c.panels] = index(threadSize(
          ranges[c.panels], std::max<int64_t>(1, tileN / ranges[c.n]), 1));
    auto level0 = tileAndFuseFill(rewriter, c.op, threadTile,
                                  scf::SCFTilingOptions::LoopType::ForallOp);
    if (failed(level0))
      return failure();
    // Names the task after its work, for profiles: matmul_MxNxK.
    if (auto forall = level0->first->getParentOfType<scf::ForallOp>())
      forall->setAttr(
          kTaskName,
          StringAttr::get(context, "matmul_" + std::to_string(ranges[c.m]) +
                                       "x" + std::to_string(ranges[c.n]) + "x" +
                                       std::to_string(ranges[c.k])));

    // 2. Blocks of the reduction, so that a block of the right-hand
    // operand stays in the L1 cache while the register tiles of a column
    // sweep the rows of the output tile.
    linalg::LinalgOp threadOp = level0->first;
    bool blocked = ranges[c.k] > tileK;
    if (blocked) {
      SmallVector<OpFoldResult> kBlock(loops, index(0));
      kBlock[c.k] = index(tileK);
      scf::SCFTilingOptions blocking;
      blocking.setTileSizes(kBlock);
      rewriter.setInsertionPoint(threadOp);
      FailureOr<scf::SCFTilingResult> blockedResult = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(threadOp.getOperation()), blocking);
      if (failed(blockedResult))
        return failure();
      rewriter.replaceOp(threadOp, blockedResult->replacements);
      threadOp = cast<linalg::LinalgOp>(blockedResult->tiledOps.front());
    }

    // 3. Register tiles, columns outer, each initializing its accumulator
    // unless the reduction is blocked (then the fill stays per thread
    // tile); the partial tiles at the edges are peeled off so that the
    // others are static.
    SmallVector<OpFoldResult> registerTile = parallelOnes();
    registerTile[c.m] = index(rows);
    registerTile[c.n] = index(columns);
    SmallVector<int64_t> interchange;
    for (unsigned d = 0; d < loops; ++d)
      if (d != c.m && d != c.n &&
          c.op.getIteratorTypesArray()[d] == utils::IteratorType::parallel)
        interchange.push_back(d);
    interchange.push_back(c.n);
    interchange.push_back(c.m);
    for (unsigned d = 0; d < loops; ++d)
      if (c.op.getIteratorTypesArray()[d] == utils::IteratorType::reduction)
        interchange.push_back(d);
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(registerTile);
    tiling.setInterchange(interchange);
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    options.setFusionControlFn(
        blocked ? scf::SCFTileAndFuseOptions::ControlFnTy(
                      [](tensor::ExtractSliceOp, OpResult, bool)
                          -> std::optional<
                              scf::SCFTileAndFuseOptions::ControlFnResult> {
                        return std::nullopt;
                      })
                : fuseFills());
    rewriter.setInsertionPoint(threadOp);
    FailureOr<scf::SCFTileAndFuseResult> level1 =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(threadOp.getOperation()), options);
    if (failed(level1))
      return failure();
    for (auto [original, replacement] : level1->replacements)
      rewriter.replaceAllUsesWith(original, replacement);

    SmallVector<int64_t> sizes(loops, 1);
    sizes[c.m] = rows;
    sizes[c.n] = columns;
    for (Operation *t : level1->tiledAndFusedOps) {
      if (isa<linalg::FillOp>(t)) {
        t->setAttr(kFillMarker, UnitAttr::get(context));
      } else if (isa<linalg::LinalgOp>(t)) {
        t->setAttr(kKernelMarker, DenseI64ArrayAttr::get(context, sizes));
        // The fill's sizes follow from the kernel's output map.
      }
    }
    for (LoopLikeOpInterface loop : level1->loops) {
      auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
      scf::ForOp partial;
      if (forOp)
        (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
    }
    return success();
  }

  /// Tiles an element-wise op into rows of `4 * lanes` elements along its
  /// innermost dimension (all outer dimensions one at a time) and peels the
  /// partial row, marking the static pieces for vectorization.
  void splitRows(RewriterBase &rewriter, linalg::LinalgOp op) {
    op->removeAttr(kRowsMarker);
    if (!isVectorizableElementwise(op))
      return;
    MLIRContext *context = &getContext();
    unsigned loops = op.getNumLoops();
    int64_t inner = op.getStaticLoopRanges()[loops - 1];
    int64_t width = std::min<int64_t>(inner, 4 * lanes.getValue());
    SmallVector<OpFoldResult> sizes(
        loops, IntegerAttr::get(IndexType::get(context), 1));
    sizes[loops - 1] = IntegerAttr::get(IndexType::get(context), width);
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(sizes);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), tiling);
    if (failed(tiled))
      return;
    tiled->tiledOps.front()->setAttr(kRowPieceMarker, UnitAttr::get(context));
    rewriter.replaceOp(op, tiled->replacements);
    if (tiled->loops.empty())
      return;
    auto loop = cast<scf::ForOp>(tiled->loops.back().getOperation());
    scf::ForOp rest;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, rest);
  }

  /// The vector shape of a row piece: its own shape, except that a row
  /// whose length is not a whole number of registers (7 or 14 elements of
  /// a 7x7 or 14x14 plane) widens to the next power of two up to a
  /// register, then whole registers, and reads and writes it under a mask
  /// (not where the body divides integers).
  /// Odd-length vectors would otherwise be split into scalars by the
  /// backend; a masked access is one instruction on AVX2 and AVX-512.
  SmallVector<int64_t> rowVectorSizes(linalg::LinalgOp piece) {
    // Masked-off lanes hold whatever the padding read gave them; integer
    // division traps on a zero there.
    for (Operation &inner : piece.getBlock()->without_terminator())
      if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
              arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(
              inner))
        return {};
    SmallVector<int64_t> sizes = piece.getStaticLoopRanges();
    int64_t &row = sizes.back();
    int64_t granule = std::min<int64_t>(
        lanes.getValue(), static_cast<int64_t>(llvm::PowerOf2Ceil(row)));
    int64_t padded = llvm::alignTo(row, granule);
    if (padded == row)
      return {};
    row = padded;
    return sizes;
  }

  /// The N dimension of a kernel: the loop of its output's innermost
  /// dimension.
  static unsigned columnDim(linalg::LinalgOp kernel) {
    AffineMap output =
        kernel.getMatchingIndexingMap(kernel.getDpsInitOperand(0));
    return cast<AffineDimExpr>(output.getResults().back()).getPosition();
  }

  /// An edge tile wider than a register but not a multiple of it splits
  /// into whole registers and a narrower rest (49 columns of 16 lanes: 48, 1),
  /// each static: odd-sized vectors would otherwise be split by the backend.
  void splitColumns(RewriterBase &rewriter, linalg::LinalgOp kernel) {
    kernel->removeAttr(kKernelMarker);
    unsigned n = columnDim(kernel);
    int64_t width = kernel.getStaticLoopRanges()[n];
    MLIRContext *context = &getContext();
    if (kernel.hasDynamicShape() || width <= lanes || width % lanes == 0) {
      kernel->setAttr(kPieceMarker, UnitAttr::get(context));
      return;
    }
    // All whole registers in one piece: they share the reduction loop as
    // independent accumulators.
    SmallVector<OpFoldResult> sizes(
        kernel.getNumLoops(), IntegerAttr::get(IndexType::get(context), 0));
    sizes[n] = IntegerAttr::get(IndexType::get(context),
                                width / lanes.getValue() * lanes.getValue());
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(sizes);
    rewriter.setInsertionPoint(kernel);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(kernel.getOperation()), tiling);
    if (failed(tiled)) {
      kernel->setAttr(kPieceMarker, UnitAttr::get(context));
      return;
    }
    tiled->tiledOps.front()->setAttr(kPieceMarker, UnitAttr::get(context));
    rewriter.replaceOp(kernel, tiled->replacements);
    // The peeled rest is a clone of the tiled op and keeps the marker.
    auto loop = cast<scf::ForOp>(tiled->loops.front().getOperation());
    scf::ForOp rest;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, rest);
  }

  void vectorizePiece(RewriterBase &rewriter, linalg::LinalgOp kernel) {
    MLIRContext *context = &getContext();
    unsigned loops = kernel.getNumLoops();
    SmallVector<OpFoldResult> step(
        loops, IntegerAttr::get(IndexType::get(context), 0));
    for (unsigned d = 0; d < loops; ++d)
      if (kernel.getIteratorTypesArray()[d] == utils::IteratorType::reduction)
        step[d] = IntegerAttr::get(IndexType::get(context), 1);
    scf::SCFTilingOptions stepping;
    stepping.setTileSizes(step);
    rewriter.setInsertionPoint(kernel);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(kernel.getOperation()), stepping);
    if (failed(tiled))
      return;
    rewriter.replaceOp(kernel, tiled->replacements);
    Operation *inner = tiled->tiledOps.front();
    // Only statically shaped tiles become vector code; the rare dynamic
    // edge tile stays a loop nest.
    if (cast<linalg::LinalgOp>(inner).hasDynamicShape())
      return;
    rewriter.setInsertionPoint(inner);
    FailureOr<linalg::VectorizationResult> result =
        linalg::vectorize(rewriter, inner, {}, {}, false, false, false,
                          /*createNamedContraction=*/true);
    if (failed(result))
      return;
    rewriter.replaceOp(inner, result->replacements);
    // Keep the accumulators in registers across the reduction loops.
    // Each round hoists one level of subsets (the tile's slice, then the
    // vector transfers of it).
    for (LoopLikeOpInterface loop : llvm::reverse(tiled->loops)) {
      for (int round = 0; round < 4; ++round) {
        size_t before = loop.getRegionIterArgs().size();
        // Indices must be the same values, defined outside the loop.
        moveLoopInvariantCode(loop);
        DominanceInfo dominance;
        eliminateCommonSubExpressions(rewriter, dominance, loop->getParentOp());
        loop = hoistLoopInvariantSubsets(rewriter, loop);
        if (loop.getRegionIterArgs().size() == before)
          break;
      }
    }
  }
};
} // namespace
