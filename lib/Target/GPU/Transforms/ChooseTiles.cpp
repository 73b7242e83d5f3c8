//===- ChooseTiles.cpp - Tilings of contractions, recorded in the IR -----===//
//
// Records on each tensor-core contraction the tiling its kernel will use
// (Tiles.cpp), as a #tile.encoding that aicc-gpu-mma-matmul reads.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "MMAKernel.h"

#include "Tile/IR/TileDialect.h"

#include "llvm/ADT/StringMap.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUCHOOSETILESPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {
using namespace aicc::gpu::mma;

struct GPUChooseTilesPass
    : aicc::gpu::impl::GPUChooseTilesPassBase<GPUChooseTilesPass> {
  using GPUChooseTilesPassBase::GPUChooseTilesPassBase;

  void runOnOperation() override {
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

    for (linalg::GenericOp op :
         aicc::gpu::genericsOutsideLaunches(getOperation())) {
      std::optional<PreparedContraction> prepared =
          prepareContraction(op, operandType, wgmma);
      if (!prepared)
        continue;
      op = prepared->op;
      const ContractionShape &shape = prepared->shape;
      std::string signature = contractionSignature(shape);
      FailureOr<TileShape> chosen = chooseAdmittedTiles(
          *prepared, "aicc-gpu-choose-tiles", multiprocessors, forced, tile);
      if (failed(chosen))
        return signalPassFailure();
      TileShape tiles = *chosen;
      // (A forced wgmma tiling leaves what wgmma cannot take to the model.)
      StringRef origin = forced && tiles == *forced ? "forced" : "model";
      auto entry = tuned.find(signature);
      if (!forced && entry != tuned.end()) {
        FailureOr<TileShape> parsed = parseTiles(entry->second, wgmma);
        if (succeeded(parsed) && admits(shape, *parsed)) {
          tiles = *parsed;
          origin = "tuned";
        } else {
          op.emitWarning("aicc-gpu-choose-tiles: the tuned tiling ")
              << entry->second << " of " << signature
              << " is not one this contraction can run; using the model's";
        }
      } else if (!forced && candidate >= 0) {
        SmallVector<TileShape> candidates =
            tileCandidates(shape, multiprocessors);
        if (candidate < static_cast<int64_t>(candidates.size())) {
          tiles = candidates[candidate];
          origin = "candidate";
        }
      }
      op->setAttr(kTilesAttr, encodeTiles(&getContext(), tiles, shape.half,
                                          signature, origin));
    }
  }
};
} // namespace
