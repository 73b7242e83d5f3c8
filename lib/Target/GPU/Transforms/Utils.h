//===- Utils.h - Helpers shared by the GPU passes ---------------*- C++ -*-===//

#ifndef AICC_LIB_TARGET_GPU_TRANSFORMS_UTILS_H
#define AICC_LIB_TARGET_GPU_TRANSFORMS_UTILS_H

#include "AiccGPU/IR/AiccGPUDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::linalg {
class GenericOp;
} // namespace mlir::linalg

namespace aicc::gpu {

/// Constants and views of buffers (view-like ops, casts, reshapes): free to
/// recompute wherever they are needed.
bool isConstantOrView(mlir::Operation *op);

/// Whether `value` is a TMA tensor map's address as outlining builds it:
/// an i64 cast of an `nvgpu.tma.create.descriptor` (kTensorMapBox).
bool isTensorMapAddress(mlir::Value value);

/// What kernel outlining clones into a launch rather than pass to it:
/// constants, views and side-effect-free ops without regions, but not a
/// tensor map's address.
bool isSinkable(mlir::Operation *op);

/// Index arithmetic for the passes that build kernels: constants, sums,
/// products, quotients and remainders by constants, bounds checks.
struct IndexBuilder {
  mlir::OpBuilder &b;
  mlir::Location loc;

  mlir::Value index(int64_t v);
  mlir::Value add(mlir::Value x, mlir::Value y);
  /// x + y (x itself for 0).
  mlir::Value add(mlir::Value x, int64_t y);
  /// x * y (x itself for 1).
  mlir::Value mul(mlir::Value x, int64_t y);
  /// x / y, unsigned (x itself for 1).
  mlir::Value div(mlir::Value x, int64_t y);
  /// x % y, unsigned.
  mlir::Value rem(mlir::Value x, int64_t y);
  /// x < bound, unsigned.
  mlir::Value less(mlir::Value x, int64_t bound);
  /// x && y, where a null operand stands for true.
  mlir::Value both(mlir::Value x, mlir::Value y);
  /// The indices of row-major position `linear` in a space of `extents`.
  llvm::SmallVector<mlir::Value> delinearize(mlir::Value linear,
                                             llvm::ArrayRef<int64_t> extents);
  /// The row-major position of `indices` in a space of `extents`.
  mlir::Value linearize(llvm::ArrayRef<mlir::Value> indices,
                        llvm::ArrayRef<int64_t> extents);
  /// The indices `map` gives for `loops`.
  llvm::SmallVector<mlir::Value> apply(mlir::AffineMap map,
                                       llvm::ArrayRef<mlir::Value> loops);
};

/// `v`, a float or a vector of floats, as `to` (the same shape): extended,
/// truncated, or between f16 and bf16 through f32.
mlir::Value convertFloat(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                         mlir::Type to);

/// Whether `lanes` consecutive elements of `type` along its last
/// dimension, from an index that is a multiple of `lanes`, are one
/// naturally aligned vector: whole-byte elements of a power-of-two width,
/// the last dimension contiguous, the offset and every other stride (but
/// those of dimensions of extent 1) multiples of `lanes` (buffers
/// themselves start at least 64-byte aligned).
bool rowVectorsAligned(mlir::MemRefType type, int64_t lanes);

/// The most elements one access along a row takes (8 halves, 4 floats at
/// 16 bytes).
constexpr int64_t kMaxRowVector = 8;

/// The widest vector a kernel reads and writes rows with: a power of two
/// up to kMaxRowVector elements and `vectorBytes` per access of the
/// narrowest of the row accesses' element widths `elementBits`, for which
/// `fits(lanes)` holds (the trip count divides, an access is aligned); 1
/// if there is none or no row access.
int64_t widestRowVector(llvm::ArrayRef<unsigned> elementBits,
                        unsigned vectorBytes,
                        llvm::function_ref<bool(int64_t)> fits);

/// The `lanes` elements of `memref` from `indices` on along its last
/// dimension (rowVectorsAligned), one aligned vector load, as scalars.
llvm::SmallVector<mlir::Value>
loadRowVector(mlir::OpBuilder &b, mlir::Location loc, mlir::Value memref,
              mlir::ValueRange indices, int64_t lanes);

/// Stores `elements` into `memref` from `indices` on along its last
/// dimension with one aligned vector store.
void storeRowVector(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::ValueRange elements, mlir::Value memref,
                    mlir::ValueRange indices);

/// GPU workgroup (shared) memory, as a memref memory space.
mlir::Attribute workgroupSpace(mlir::MLIRContext *context);

/// A launch of `grid` blocks (x, y, z) of `threads` threads along x, its
/// body empty but for the terminator; `b` is left before the terminator.
mlir::gpu::LaunchOp createLaunch(mlir::OpBuilder &b, mlir::Location loc,
                                 llvm::ArrayRef<int64_t> grid, int64_t threads);

/// The linalg.generic ops under `root` that no gpu.launch holds yet, in
/// walk order.
llvm::SmallVector<mlir::linalg::GenericOp, 0>
genericsOutsideLaunches(mlir::Operation *root);

/// Calls `rewrite` on each generic outside launches until none is left
/// that it rewrites: a rewrite (true) may erase ops around the one it
/// matched (a fill before, an epilogue after), so the search starts over;
/// a failure stops it.
mlir::LogicalResult rewriteGenericsOutsideLaunches(
    mlir::Operation *root,
    llvm::function_ref<mlir::FailureOr<bool>(mlir::linalg::GenericOp)> rewrite);

/// The scalar `fill` writes to every element of its one output (through
/// the identity, no reduction), if it is such a fill: a scalar input it
/// yields, or a constant; null otherwise.
mlir::Value fillValue(mlir::linalg::GenericOp fill);

/// `fillValue(fill)` if `fill` (possibly null) writes exactly `buffer`
/// (the same value, not another view of its memory); null otherwise.
mlir::Value fillValueOf(mlir::linalg::GenericOp fill, mlir::Value buffer);

/// `fillValue(fill)` for use at `b`'s insertion point, outside the fill: a
/// constant the fill's body defines is defined again there.
mlir::Value fillValueAt(mlir::OpBuilder &b, mlir::linalg::GenericOp fill);

/// The buffer `v` is a view of (itself if none).
mlir::Value viewRoot(mlir::Value v);

/// The op after `op` past side-effect-free ops and allocations (views,
/// constants, an output's allocation), or null at the block's end.
mlir::Operation *nextWithEffects(mlir::Operation *op);

/// The op before `op` past side-effect-free ops and allocations, or null
/// at the block's start.
mlir::Operation *previousWithEffects(mlir::Operation *op);

} // namespace aicc::gpu

#endif // AICC_LIB_TARGET_GPU_TRANSFORMS_UTILS_H
