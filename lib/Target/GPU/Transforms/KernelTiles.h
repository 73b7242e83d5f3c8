//===- KernelTiles.h - Tilings of the kernels besides products -*- C++ -*-===//
//
// aicc-gpu-choose-tiles' models for the row kernels (aicc-gpu-warp-
// reductions), the attention kernel (aicc-gpu-flash-attention), rocm's
// MFMA products (aicc-gpu-mfma-matmul) and the element-wise kernels
// (aicc-gpu-map-to-launches), from the target's limits
// (Limits.h), and their #tile.encoding form in the `aicc.tiles` attribute
// (Tiles.cpp has the tensor-core contractions').
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_GPU_TRANSFORMS_KERNELTILES_H
#define AICC_LIB_TARGET_GPU_TRANSFORMS_KERNELTILES_H

#include "Limits.h"

#include "AiccGPU/IR/AiccGPUDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Operation.h"

#include <optional>
#include <string>

namespace aicc::gpu {

/// The MFMA tile (v_mfma_f32_32x32x2f32) one wave computes.
constexpr int64_t kWaveTile = 32;

/// The kernels each pass would build from an op, as sizes; each is
/// defined beside its pass, with the pass's own matcher.

/// aicc-gpu-warp-reductions: a warp per output of `rows` outputs, each
/// reducing `reduced` terms (its thresholds as the pass's options).
struct RowKernel {
  int64_t rows, reduced;
};
std::optional<RowKernel> matchRowKernel(mlir::linalg::GenericOp op,
                                        int64_t minReduction,
                                        int64_t maxThreadOutputs);

/// aicc-gpu-flash-attention: the chain that ends at `output` (O = P V),
/// whatever its sizes, and its ops (the nine of the chain, and the
/// producers of Q and K it reads through).
struct AttentionChain {
  int64_t batches, queries, keys, headDim;
  llvm::SmallVector<mlir::Operation *> ops;
};
std::optional<AttentionChain>
matchAttentionChain(mlir::linalg::GenericOp output);

/// aicc-gpu-mfma-matmul: a `batches` x M x N product.
struct MFMAProduct {
  int64_t m, n, batches;
};
std::optional<MFMAProduct> matchMFMAProduct(mlir::linalg::GenericOp op);

/// The limits a pass's `archs` and `multiprocessors` options name
/// (multiprocessors 0: the archs'); none, with an error on `op` naming
/// `pass`, where the architectures are not `vendor`'s or not known.
std::optional<GPULimits> optionLimits(mlir::Operation *op, llvm::StringRef pass,
                                      Vendor vendor,
                                      llvm::ArrayRef<std::string> archs,
                                      int64_t multiprocessors);

/// A row kernel: a warp per output row, `warps` rows a block.
struct RowTiling {
  int64_t warps;
};

/// Warps (of 32 lanes, the row kernel's) a block of `rows` rows: the most
/// (within `maxThreads` and the block's thread limit) while the blocks
/// still fill the multiprocessors, halved while they do not, down to one
/// hardware warp (two on 64-lane waves).
RowTiling chooseRowTiling(int64_t rows, const GPULimits &limits,
                          int64_t maxThreads);

/// The attention kernel: 16 query rows a warp, `warps` warps a block; all
/// keys of a row at once. `sharedBytes`: Q's rows of the block, K and V.
struct AttentionTiling {
  int64_t warps;
  int64_t sharedBytes;
};

/// Bytes of shared memory an attention block of `warps` warps takes: its
/// Q rows, K and V (keys padded to 16), rows padded by 8 halves.
int64_t attentionSharedBytes(int64_t warps, int64_t keys, int64_t headDim);

/// The attention kernel's tiling of `batches` x `queries` rows of `keys`
/// keys and head dimension `headDim` in 2-byte halves: none (`why` says
/// why) when a thread's scores and output accumulators would not stay in
/// its registers or a block's K and V not fit its shared memory. Four
/// warps a block, fewer while that leaves multiprocessors idle or the
/// shared memory short.
std::optional<AttentionTiling>
chooseAttentionTiling(int64_t batches, int64_t queries, int64_t keys,
                      int64_t headDim, const GPULimits &limits,
                      std::string &why);

/// An MFMA product: one wave per 32x32 output tile, `wavesM` x `wavesN`
/// waves a block.
struct WaveTiling {
  int64_t wavesM, wavesN;
};

/// Waves a block of an M x N (times `batches`) product: 2 x 2 (one per
/// SIMD of a compute unit, sharing A's and B's rows in its cache), 2 x 1
/// or 1 x 1, the first whose blocks still fill the compute units.
WaveTiling chooseWaveTiling(int64_t m, int64_t n, int64_t batches,
                            const GPULimits &limits);

/// An element-wise kernel (aicc-gpu-map-to-launches): a thread per `lanes`
/// consecutive iterations of the loop's innermost loop (LaneBody), the
/// iterations numbered in row-major order, `threads` threads a block.
struct ElementwiseTiling {
  int64_t threads, lanes;
};

/// Threads a block of an element-wise kernel of `items` threads: the most
/// (within `maxThreads` and the block's limit, in whole hardware warps)
/// whose blocks pack a multiprocessor's threads whole, halved while the
/// blocks leave multiprocessors idle, and no more warps than `items`
/// needs; at least one hardware warp.
int64_t chooseElementwiseThreads(int64_t items, const GPULimits &limits,
                                 int64_t maxThreads);

/// The encodings, as `aicc_gpu.tiles` (kTilesAttr) carries them, each with
/// its kind's #aicc_gpu configuration and `target` the name of the target
/// they are for.
/// Rows: tiles over (rows, reduced) [warps x R, 1 x R].
mlir::Attribute encodeRowTiling(mlir::MLIRContext *context, const RowTiling &t,
                                int64_t reduced, llvm::StringRef target);
/// Attention: tiles over (queries, keys, head dimension), block, warp and
/// mma.sync instruction.
mlir::Attribute encodeAttentionTiling(mlir::MLIRContext *context,
                                      const AttentionTiling &t, int64_t keys,
                                      int64_t headDim, llvm::StringRef target);
/// MFMA: tiles over (M, N, K), block, wave and instruction.
mlir::Attribute encodeWaveTiling(mlir::MLIRContext *context,
                                 const WaveTiling &t, llvm::StringRef target);
/// Element-wise: tiles over the loop's iterations flattened in row-major
/// order, a block's and a thread's.
mlir::Attribute encodeElementwiseTiling(mlir::MLIRContext *context,
                                        const ElementwiseTiling &t,
                                        llvm::StringRef target);

/// The configuration of `op`'s recorded tiling, or null.
aicc::tile::KernelConfigAttrInterface recordedConfig(mlir::Operation *op);

/// The recorded tilings, read back; none unless `op` carries one of that
/// kind.
std::optional<RowTiling> recordedRowTiling(mlir::Operation *op);
std::optional<AttentionTiling> recordedAttentionTiling(mlir::Operation *op);
std::optional<WaveTiling> recordedWaveTiling(mlir::Operation *op);
std::optional<ElementwiseTiling> recordedElementwiseTiling(mlir::Operation *op);

} // namespace aicc::gpu

#endif // AICC_LIB_TARGET_GPU_TRANSFORMS_KERNELTILES_H
