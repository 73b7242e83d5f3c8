//===- KernelTiles.cpp - Tilings of the kernels besides products ----------===//

#include "KernelTiles.h"

#include "MMAKernel.h"

#include "Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace aicc::gpu;

namespace {
/// Registers of an attention thread kept for addresses, indices and the
/// fragments in flight; the rest may hold its accumulators.
constexpr int64_t kAttentionReservedRegisters = 63;
/// Most warps of an attention block (K and V are copied once per block:
/// more rows a block copy them fewer times, but leave blocks fewer).
constexpr int64_t kMaxAttentionWarps = 4;
/// Rows of an mma.sync tile (a warp's query rows).
constexpr int64_t kAttentionWarpRows = 16;
/// The most keys and the widest head the attention kernel has been run
/// with (the register bound allows a little more of one for less of the
/// other; untried, it is not taken).
constexpr int64_t kAttentionMaxKeys = 256;
constexpr int64_t kAttentionMaxHeadDim = 128;

int64_t blocksOf(int64_t rows, int64_t rowsPerBlock, int64_t batches) {
  return llvm::divideCeilSigned(rows, rowsPerBlock) * batches;
}

Attribute encode(MLIRContext *context, ArrayRef<SmallVector<int64_t>> levels,
                 StringRef target,
                 aicc::tile::KernelConfigAttrInterface config) {
  Builder b(context);
  SmallVector<DenseI64ArrayAttr> tiles;
  for (ArrayRef<int64_t> level : levels)
    tiles.push_back(b.getDenseI64ArrayAttr(level));
  return aicc::tile::EncodingAttr::get(context, tiles, {},
                                       b.getStringAttr(target), config);
}
} // namespace

std::optional<GPULimits> aicc::gpu::optionLimits(Operation *op, StringRef pass,
                                                 Vendor vendor,
                                                 ArrayRef<std::string> archs,
                                                 int64_t multiprocessors) {
  std::optional<GPULimits> limits = tightestLimits(archs, vendor);
  if (!limits) {
    op->emitError(pass) << ": no " << stringifyVendor(vendor)
                        << " limits known for the architectures '"
                        << llvm::join(archs, ",") << "'";
    return std::nullopt;
  }
  if (multiprocessors < 0) {
    op->emitError(pass) << ": multiprocessors must not be negative";
    return std::nullopt;
  }
  if (multiprocessors > 0)
    limits->multiprocessors = multiprocessors;
  return limits;
}

RowTiling aicc::gpu::chooseRowTiling(int64_t rows, const GPULimits &limits,
                                     int64_t maxThreads) {
  // At least one hardware warp (a 64-lane wave holds two row warps).
  int64_t fewest = std::max<int64_t>(1, limits.warpSize / kWarpLanes);
  int64_t warps = std::max(
      fewest, std::min(maxThreads, limits.maxThreadsPerBlock) / kWarpLanes);
  while (warps > fewest && blocksOf(rows, warps, 1) < limits.multiprocessors)
    warps /= 2;
  return {std::max(warps, fewest)};
}

int64_t aicc::gpu::chooseElementwiseThreads(int64_t items,
                                            const GPULimits &limits,
                                            int64_t maxThreads) {
  int64_t warp = limits.warpSize;
  int64_t threads = std::max(
      warp, std::min(maxThreads, limits.maxThreadsPerBlock) / warp * warp);
  // Blocks that pack a multiprocessor's threads whole (1024 of sm_86's
  // 1536 would leave a third of them idle).
  while (threads > warp && limits.maxThreadsPerMultiprocessor % threads != 0)
    threads -= warp;
  // Blocks spread over idle multiprocessors: each has its own load units.
  while (threads > warp && blocksOf(items, threads, 1) < limits.multiprocessors)
    threads = std::max(warp, threads / 2 / warp * warp);
  // No more warps than the loop needs (a GPU of one multiprocessor: one
  // block).
  return std::min<int64_t>(threads, llvm::alignTo(items, warp));
}

int64_t aicc::gpu::attentionSharedBytes(int64_t warps, int64_t keys,
                                        int64_t headDim) {
  return (kAttentionWarpRows * warps + 2 * llvm::alignTo(keys, 16)) *
         (headDim + mma::kPad) * 2;
}

std::optional<AttentionTiling>
aicc::gpu::chooseAttentionTiling(int64_t batches, int64_t queries, int64_t keys,
                                 int64_t headDim, const GPULimits &limits,
                                 std::string &why) {
  if (limits.vendor != Vendor::nvidia) {
    why = "the attention kernel runs on NVIDIA's mma.sync";
    return std::nullopt;
  }
  if (keys > kAttentionMaxKeys || headDim > kAttentionMaxHeadDim) {
    why = "more than " + std::to_string(kAttentionMaxKeys) +
          " keys or a head dimension past " +
          std::to_string(kAttentionMaxHeadDim);
    return std::nullopt;
  }
  // A warp's 16 rows: m16n8 score tiles across the padded keys and output
  // tiles across the head dimension, 4 f32 a thread each.
  int64_t keysPadded = llvm::alignTo(keys, 16);
  int64_t registers = keysPadded / 2 + headDim / 2;
  int64_t budget = limits.maxRegistersPerThread - kAttentionReservedRegisters;
  if (registers > budget) {
    why = std::to_string(registers) + " accumulator registers a thread (" +
          std::to_string(keys) + " keys, head dimension " +
          std::to_string(headDim) + ") past the " + std::to_string(budget) +
          " a thread may keep";
    return std::nullopt;
  }
  auto shared = [&](int64_t warps) {
    return attentionSharedBytes(warps, keys, headDim);
  };
  int64_t warps = kMaxAttentionWarps;
  while (warps > 1 && (blocksOf(queries, kAttentionWarpRows * warps, batches) <
                           limits.multiprocessors ||
                       shared(warps) > limits.sharedPerBlock))
    warps /= 2;
  if (shared(warps) > limits.sharedPerBlock) {
    why = "its Q rows, K and V take " + std::to_string(shared(warps)) +
          " bytes of shared memory, past a block's " +
          std::to_string(limits.sharedPerBlock);
    return std::nullopt;
  }
  return AttentionTiling{warps, shared(warps)};
}

WaveTiling aicc::gpu::chooseWaveTiling(int64_t m, int64_t n, int64_t batches,
                                       const GPULimits &limits) {
  int64_t tilesM = llvm::divideCeilSigned(m, kWaveTile);
  int64_t tilesN = llvm::divideCeilSigned(n, kWaveTile);
  for (WaveTiling t : {WaveTiling{2, 2}, WaveTiling{2, 1}})
    if (t.wavesM * t.wavesN * limits.warpSize <= limits.maxThreadsPerBlock &&
        tilesM >= t.wavesM && tilesN >= t.wavesN &&
        llvm::divideCeilSigned(tilesM, t.wavesM) *
                llvm::divideCeilSigned(tilesN, t.wavesN) * batches >=
            limits.multiprocessors)
      return t;
  return {1, 1};
}

Attribute aicc::gpu::encodeRowTiling(MLIRContext *context, const RowTiling &t,
                                     int64_t reduced, StringRef target) {
  return encode(context, {{t.warps, reduced}, {1, reduced}}, target,
                RowsConfigAttr::get(context, t.warps, kWarpLanes));
}

Attribute aicc::gpu::encodeAttentionTiling(MLIRContext *context,
                                           const AttentionTiling &t,
                                           int64_t keys, int64_t headDim,
                                           StringRef target) {
  int64_t keysPadded = llvm::alignTo(keys, 16);
  return encode(context,
                {{kAttentionWarpRows * t.warps, keysPadded, headDim},
                 {kAttentionWarpRows, keysPadded, headDim},
                 {kAttentionWarpRows, 8, 16}},
                target,
                AttentionConfigAttr::get(context, t.warps, t.sharedBytes));
}

Attribute aicc::gpu::encodeWaveTiling(MLIRContext *context, const WaveTiling &t,
                                      StringRef target) {
  return encode(context,
                {{kWaveTile * t.wavesM, kWaveTile * t.wavesN, 2},
                 {kWaveTile, kWaveTile, 2},
                 {kWaveTile, kWaveTile, 2}},
                target, MFMAConfigAttr::get(context, t.wavesM, t.wavesN));
}

Attribute aicc::gpu::encodeElementwiseTiling(MLIRContext *context,
                                             const ElementwiseTiling &t,
                                             StringRef target) {
  return encode(context, {{t.threads * t.lanes}, {t.lanes}}, target,
                ElementwiseConfigAttr::get(context, t.threads, t.lanes));
}

aicc::tile::KernelConfigAttrInterface aicc::gpu::recordedConfig(Operation *op) {
  auto encoding =
      dyn_cast_or_null<aicc::tile::EncodingAttr>(op->getAttr(kTilesAttr));
  return encoding ? encoding.getConfig()
                  : aicc::tile::KernelConfigAttrInterface();
}

std::optional<RowTiling> aicc::gpu::recordedRowTiling(Operation *op) {
  if (auto config = dyn_cast_or_null<RowsConfigAttr>(recordedConfig(op)))
    return RowTiling{config.getWarps()};
  return std::nullopt;
}

std::optional<AttentionTiling>
aicc::gpu::recordedAttentionTiling(Operation *op) {
  if (auto config = dyn_cast_or_null<AttentionConfigAttr>(recordedConfig(op)))
    return AttentionTiling{config.getWarps(), config.getShared()};
  return std::nullopt;
}

std::optional<WaveTiling> aicc::gpu::recordedWaveTiling(Operation *op) {
  if (auto config = dyn_cast_or_null<MFMAConfigAttr>(recordedConfig(op)))
    return WaveTiling{config.getWavesM(), config.getWavesN()};
  return std::nullopt;
}

std::optional<ElementwiseTiling>
aicc::gpu::recordedElementwiseTiling(Operation *op) {
  if (auto config = dyn_cast_or_null<ElementwiseConfigAttr>(recordedConfig(op)))
    return ElementwiseTiling{config.getThreads(), config.getLanes()};
  return std::nullopt;
}
