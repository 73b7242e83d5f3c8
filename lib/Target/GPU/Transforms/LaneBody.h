//===- LaneBody.h - Element-wise loops, lanes a thread ----------*- C++ -*-===//
//
// The element-wise kernels: which top-level loops aicc-gpu-map-to-launches
// runs as such, and their vector lanes: how many consecutive iterations of
// a loop's innermost loop one thread may take, with one vector access per
// contiguous row, and the body that does so. aicc-gpu-choose-tiles decides
// the lanes with it, aicc-gpu-map-to-launches builds them.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_GPU_TRANSFORMS_LANEBODY_H
#define AICC_LIB_TARGET_GPU_TRANSFORMS_LANEBODY_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
class IRMapping;
} // namespace mlir

namespace aicc::gpu {

/// The trip counts of a parallel loop whose bounds and steps are all
/// constants; empty otherwise.
llvm::SmallVector<int64_t> constantTripCounts(mlir::scf::ParallelOp loop);

/// Whether `loop` is one aicc-gpu-map-to-launches runs as an element-wise
/// kernel where it is a top-level op: constant trip counts, no results.
bool isElementwiseLoop(mlir::scf::ParallelOp loop);

/// Whether aicc-gpu-map-to-launches runs `op`, an op of a function's body,
/// and every op after it as one thread: a loop or branch whose results
/// the host would hold.
bool holdsHostResults(mlir::Operation *op);

/// The loops of a function's `body` aicc-gpu-map-to-launches runs as
/// element-wise kernels: isElementwiseLoop, before any op that
/// holdsHostResults.
llvm::SmallVector<mlir::scf::ParallelOp> elementwiseLoops(mlir::Block &body);

/// An element-wise loop body run on `lanes` consecutive elements of its
/// innermost loop per thread: the accesses that walk a contiguous row with
/// that loop become one aligned vector load or store each, the rest of
/// the body is repeated once per element (once in all where it does not
/// depend on the innermost loop).
class LaneBody {
public:
  explicit LaneBody(mlir::scf::ParallelOp loop);

  /// The most elements per thread (widestRowVector: up to `vectorBytes`
  /// of the narrowest element the body stores along a row) that `fits`; 1
  /// where there is none.
  int64_t lanes(int64_t innerCount, unsigned vectorBytes) const;

  /// Whether a thread may take `lanes` elements: 1, or a power of two up
  /// to kMaxRowVector and `vectorBytes` of the narrowest element stored
  /// along a row, the innermost loop counts from 0 by 1, `innerCount` (its
  /// trip count) divides evenly, running the body lane after lane is safe,
  /// and at least one store is a vector.
  bool fits(int64_t lanes, int64_t innerCount, unsigned vectorBytes) const;

  /// Clones the body at `b` for `lanes` elements from the one `mapping`
  /// gives the innermost loop.
  void clone(mlir::OpBuilder &b, mlir::Location loc,
             const mlir::IRMapping &mapping, int64_t lanes);

private:
  bool lanesSafe() const;
  bool walksRow(mlir::Operation *op, int64_t lanes) const;

  /// (An op handle: its accessors are not const.)
  mutable mlir::scf::ParallelOp loop;
  mlir::Value inner;
  llvm::DenseSet<mlir::Value> dependent;
  llvm::DenseSet<mlir::Operation *> dependentOps;
  /// lanesSafe(), and the element widths of the stores along rows,
  /// computed once.
  bool safe;
  llvm::SmallVector<unsigned> rowStoreBits;
};

} // namespace aicc::gpu

#endif // AICC_LIB_TARGET_GPU_TRANSFORMS_LANEBODY_H
