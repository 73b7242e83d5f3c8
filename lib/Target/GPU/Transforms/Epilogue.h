//===- Epilogue.h - Element-wise ops on a contraction's sums ----*- C++ -*-===//

#ifndef AICC_LIB_TARGET_GPU_TRANSFORMS_EPILOGUE_H
#define AICC_LIB_TARGET_GPU_TRANSFORMS_EPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace aicc::gpu {

/// An element-wise op right after a contraction that is the only reader
/// of the contraction's output, a buffer of its own: a bias, an
/// activation, a residual, a cast or a transpose, computed on each sum as
/// the kernel stores it, so that the sums never go to memory.
struct Epilogue {
  /// (An op handle: mutable so that const epilogues can query it.)
  mutable mlir::linalg::GenericOp op;
  /// The op's input that is the contraction's output (or a reshape of it).
  unsigned operand;
  /// Shapes of the contraction's output and of what the op reads of it
  /// (the same elements in the same row-major order, when a reshape lies
  /// between): the op's loops, unless `readLoops` permutes them.
  llvm::SmallVector<int64_t> outShape, loopShape;
  /// The reshapes between them, outermost first.
  llvm::SmallVector<mlir::Operation *> views;
  /// The loop of the op that each dimension of what it reads (the
  /// contraction's output, reshaped as `loopShape`) follows, when the op
  /// reads it through a permutation (attention's head merge); empty for
  /// the identity.
  llvm::SmallVector<unsigned> readLoops;
  /// The op's output shares memory with an operand of the contraction
  /// (bufferization wrote it in place): it may only run once the
  /// contraction has read all of them, in a later kernel (split K).
  bool overwritesOperands = false;

  /// The op's loop indices of the output element at `outIndices`.
  llvm::SmallVector<mlir::Value>
  loops(mlir::OpBuilder &b, mlir::Location loc,
        llvm::ArrayRef<mlir::Value> outIndices) const;
  /// The indices (in `loopShape`) the op reads that element at.
  llvm::SmallVector<mlir::Value>
  readIndices(mlir::OpBuilder &b, mlir::Location loc,
              llvm::ArrayRef<mlir::Value> outIndices) const;
  /// Erases the op, the reshapes and `out`'s allocation once unused.
  void erase(mlir::Value out) const;
};

/// The epilogue of `contraction`, whose output holds nothing before it
/// (its fill was absorbed), if the op after it is one: all-parallel, its
/// one output written through the identity, the contraction's output read
/// as one input through the identity or a permutation, itself or through
/// reshapes that only the
/// op reads (later ops may reuse the buffer if the first of them fills it),
/// none of its other inputs aliasing its output (the output may be that
/// input itself: the op then rewrites the sums in place, and later ops may
/// read them), its output's old value unused;
/// `overwritesOperands` says whether its output is also an operand of the
/// contraction. Only side-effect-free ops and allocations may stand between the
/// two; when an epilogue is found they move before the contraction.
/// `absorbedFill`, the fill of the output that the caller is about to
/// erase, does not count as a user.
std::optional<Epilogue> findEpilogue(mlir::linalg::GenericOp contraction,
                                     mlir::Operation *absorbedFill = nullptr);

/// Computes the epilogue on `sums` (f32, i32 for an integer product): the
/// contraction's output element at `indices` and the ones after it along the
/// output's last dimension (which must stay in the epilogue's last loop: see
/// epilogueStoresRows), and stores the results into the epilogue's output, one
/// vector store for more than one. Its other inputs that are read along the
/// last loop alone, in rows aligned for such vectors, are read one vector each.
void storeThroughEpilogue(mlir::OpBuilder &b, mlir::Location loc,
                          const Epilogue &epilogue,
                          llvm::ArrayRef<mlir::Value> sums,
                          mlir::ArrayRef<mlir::Value> indices);

/// Whether `lanes` consecutive sums from an output index that is a multiple
/// of `lanes` along the output's last dimension are consecutive elements of
/// one row of the epilogue's output, a naturally aligned vector there (the
/// last dimension the op reads is its last loop).
bool epilogueStoresRows(const Epilogue &epilogue, int64_t lanes);

/// Whether a kernel may store the sums of `lanes` consecutive iterations
/// of the contraction's loop `inner` (of extent `extent`), from one that is
/// a multiple of `lanes`, with one access: the output map's last result is
/// that loop alone, the extent is a multiple of `lanes`, and rows are
/// aligned for such vectors, in `out` or, with an epilogue, in its output.
bool storesRows(mlir::AffineMap outMap, unsigned inner, int64_t extent,
                mlir::Value out, const std::optional<Epilogue> &epilogue,
                int64_t lanes);

/// Stores f32 `sums`, one or more consecutive ones along the output's last
/// dimension (storesRows), at `indices` of `out`: through the epilogue
/// when there is one, else converted to `out`'s element type, one vector
/// store for more than one.
void storeContractionSums(mlir::OpBuilder &b, mlir::Location loc,
                          llvm::ArrayRef<mlir::Value> sums, mlir::Value out,
                          llvm::ArrayRef<mlir::Value> indices,
                          const std::optional<Epilogue> &epilogue);

/// The end of a contraction split along K: an element-wise
/// linalg.generic that adds the planes of `workspace` (f32, one per split,
/// each of `out`'s shape, or of the epilogue's loops, which it must read
/// without a permutation) in order, so that
/// the sums do not depend on timing; plus `out`'s old value unless
/// `overwrite`; then, with an epilogue, computes it and writes its output
/// instead of `out`.
void sumSplits(mlir::OpBuilder &b, mlir::Location loc, mlir::Value workspace,
               mlir::Value out, bool overwrite,
               const std::optional<Epilogue> &epilogue);

} // namespace aicc::gpu

#endif // AICC_LIB_TARGET_GPU_TRANSFORMS_EPILOGUE_H
