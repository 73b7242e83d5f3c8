//===- ChooseTiles.cpp - Tilings of the GPU kernels, recorded in the IR ---===//
//
// The GPU targets' tile-tile step: records on each op that a kernel pass
// will build a kernel from the tiling that kernel will use, as a
// #tile.encoding in `aicc.tiles`, from the target's limits (Limits.h):
// tensor-core contractions (Tiles.cpp), attention chains, row kernels and
// rocm's MFMA products (KernelTiles.cpp); run again with `loops` once the
// rest are loops, the element-wise kernels aicc-gpu-map-to-launches builds
// from them.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "KernelTiles.h"
#include "LaneBody.h"
#include "MMAKernel.h"

#include "Tile/IR/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/StringMap.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUCHOOSETILESPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {
using namespace aicc::gpu::mma;
using aicc::gpu::GPULimits;
using aicc::gpu::kTilesAttr;
using aicc::gpu::Origin;

struct GPUChooseTilesPass
    : aicc::gpu::impl::GPUChooseTilesPassBase<GPUChooseTilesPass> {
  using GPUChooseTilesPassBase::GPUChooseTilesPassBase;

  void runOnOperation() override {
    std::optional<GPULimits> limits =
        aicc::gpu::optionLimits(getOperation(), "aicc-gpu-choose-tiles", vendor,
                                archs, multiprocessors);
    if (!limits)
      return signalPassFailure();
    if (blockSize < 1 || vectorBytes < 0) {
      getOperation().emitError("aicc-gpu-choose-tiles: block-size must be "
                               "positive and vector-bytes not negative");
      return signalPassFailure();
    }
    if (loops)
      return chooseLoopTiles(*limits);
    std::optional<TileShape> forced;
    if (failed(checkTilingOptions(getOperation(), "aicc-gpu-choose-tiles",
                                  operandType, tile, wgmma, forced)))
      return signalPassFailure();
    llvm::StringMap<std::string> tuned;
    for (const std::string &entry : choices) {
      auto [signature, spec] = StringRef(entry).split('=');
      if (signature.empty() || spec.empty()) {
        getOperation().emitError("aicc-gpu-choose-tiles: choice '")
            << entry << "' is not SIGNATURE=TILING";
        return signalPassFailure();
      }
      tuned[signature] = spec.str();
    }

    // Attention chains first, as bufferization left them: their ops become
    // one kernel and get no tiling of their own.
    llvm::SmallPtrSet<Operation *, 16> inAttention;
    if (attention) {
      for (linalg::GenericOp op :
           aicc::gpu::genericsOutsideLaunches(getOperation())) {
        std::optional<aicc::gpu::AttentionChain> chain =
            aicc::gpu::matchAttentionChain(op);
        if (!chain || llvm::any_of(chain->ops, [&](Operation *member) {
              return inAttention.contains(member);
            }))
          continue;
        std::string why;
        std::optional<aicc::gpu::AttentionTiling> tiling =
            aicc::gpu::chooseAttentionTiling(chain->batches, chain->queries,
                                             chain->keys, chain->headDim,
                                             *limits, why);
        // (Else the chain is left to separate kernels.)
        if (!tiling)
          continue;
        op->setAttr(kTilesAttr, aicc::gpu::encodeAttentionTiling(
                                    &getContext(), *tiling, chain->keys,
                                    chain->headDim, target));
        inAttention.insert(chain->ops.begin(), chain->ops.end());
      }
    }

    for (linalg::GenericOp op :
         aicc::gpu::genericsOutsideLaunches(getOperation())) {
      if (inAttention.contains(op))
        continue;
      if (vendor == aicc::gpu::Vendor::amd) {
        if (std::optional<aicc::gpu::MFMAProduct> product =
                aicc::gpu::matchMFMAProduct(op)) {
          op->setAttr(kTilesAttr, aicc::gpu::encodeWaveTiling(
                                      &getContext(),
                                      aicc::gpu::chooseWaveTiling(
                                          product->m, product->n,
                                          product->batches, *limits),
                                      target));
          continue;
        }
      } else if (FailureOr<bool> recorded =
                     recordContraction(op, *limits, forced, tuned);
                 failed(recorded)) {
        return signalPassFailure();
      } else if (*recorded) {
        continue;
      }
      if (std::optional<aicc::gpu::RowKernel> kernel =
              aicc::gpu::matchRowKernel(op, minReduction, maxThreadOutputs))
        op->setAttr(kTilesAttr, aicc::gpu::encodeRowTiling(
                                    &getContext(),
                                    aicc::gpu::chooseRowTiling(
                                        kernel->rows, *limits, blockSize),
                                    kernel->reduced, target));
    }
  }

  /// Records the tiling of each element-wise kernel: the top-level loops
  /// aicc-gpu-map-to-launches maps (elementwiseLoops), each thread the
  /// widest vector its rows allow (LaneBody) and the blocks as
  /// chooseElementwiseThreads makes them.
  void chooseLoopTiles(const GPULimits &limits) {
    if (getOperation().isExternal())
      return;
    for (scf::ParallelOp loop :
         aicc::gpu::elementwiseLoops(getOperation().getBody().front())) {
      SmallVector<int64_t> counts = aicc::gpu::constantTripCounts(loop);
      int64_t lanes = aicc::gpu::LaneBody(loop).lanes(
          counts.back(),
          std::min<int64_t>(vectorBytes, aicc::gpu::kWidestLaneAccessBytes));
      int64_t items = 1;
      for (int64_t count : counts)
        items *= count;
      if (items == 0)
        continue;
      items /= lanes;
      aicc::gpu::ElementwiseTiling tiling{
          aicc::gpu::chooseElementwiseThreads(items, limits, blockSize), lanes};
      loop->setAttr(kTilesAttr, aicc::gpu::encodeElementwiseTiling(
                                    &getContext(), tiling, target));
    }
  }

  /// Records the tiling of `op` where it is a tensor-core contraction
  /// (true; its operands prepared as aicc-gpu-mma-matmul prepares them).
  FailureOr<bool> recordContraction(linalg::GenericOp op,
                                    const GPULimits &limits,
                                    const std::optional<TileShape> &forced,
                                    const llvm::StringMap<std::string> &tuned) {
    std::optional<PreparedContraction> prepared =
        prepareContraction(op, operandType, wgmma);
    if (!prepared)
      return false;
    op = prepared->op;
    const ContractionShape &shape = prepared->shape;
    std::string signature = contractionSignature(shape);
    FailureOr<TileShape> chosen =
        chooseAdmittedTiles(*prepared, "aicc-gpu-choose-tiles",
                            limits.multiprocessors, forced, tile);
    if (failed(chosen))
      return failure();
    TileShape tiles = *chosen;
    // (A forced wgmma tiling leaves what wgmma cannot take to the model.)
    Origin origin = forced && tiles == *forced ? Origin::forced : Origin::model;
    auto entry = tuned.find(signature);
    if (!forced && entry != tuned.end()) {
      FailureOr<TileShape> parsed = parseTiles(entry->second, wgmma);
      if (succeeded(parsed) && admits(shape, *parsed)) {
        tiles = *parsed;
        origin = Origin::tuned;
      } else {
        op.emitWarning("aicc-gpu-choose-tiles: the tuned tiling ")
            << entry->second << " of " << signature
            << " is not one this contraction can run; using the model's";
      }
    } else if (!forced && candidate >= 0) {
      SmallVector<TileShape> candidates =
          tileCandidates(shape, limits.multiprocessors);
      if (candidate < static_cast<int64_t>(candidates.size())) {
        tiles = candidates[candidate];
        origin = Origin::candidate;
      }
    }
    op->setAttr(kTilesAttr, encodeTiles(&getContext(), tiles, shape.half,
                                        signature, origin, target));
    return true;
  }
};
} // namespace
