//===- Groups.h - tile-fuse's groups after the regions are gone -*- C++ -*-===//
//
// tile-fuse wraps each group of ops that should be one kernel in a
// tile.fusion region; the targets lower the regions' bodies and dissolve
// them with `tile-inline-fusions mark-groups`, which tags every op of a
// body with its region's number. The kernel passes ask mayShareKernel
// (or joinsGroup, op by op) before they put two ops in one kernel. The
// exception is horizontal fusion (aicc-fuse-siblings), which merges whole
// independent kernels by a traffic model of its own; its merged op
// carries no group.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_DIALECTS_TILE_TRANSFORMS_GROUPS_H
#define AICC_DIALECTS_TILE_TRANSFORMS_GROUPS_H

#include "mlir/IR/Operation.h"

namespace aicc::tile {

/// tile.fusion attribute (string): what kernel the region is, "attention",
/// "contraction", "reduction" or "elementwise".
constexpr llvm::StringLiteral kFusionKindAttr = "kind";

/// Attribute (i64) of an op that came from a tile.fusion region: the
/// region's number in its function.
constexpr llvm::StringLiteral kGroupAttr = "tile.group";

/// Attribute (unit) of a linalg op that a target's dedicated kernel takes
/// whole, such as the product tile.matmul_int4 lowers to: fusion leaves
/// it as it is, so that the kernel pass still recognizes it.
constexpr llvm::StringLiteral kOwnKernelAttr = "aicc.own_kernel";

/// The group `op` came from, or -1 for an op from no region (layout ops,
/// ops that passes after tile-fuse built).
inline int64_t groupOf(mlir::Operation *op) {
  if (!op)
    return -1;
  auto group = op->getAttrOfType<mlir::IntegerAttr>(kGroupAttr);
  return group ? group.getInt() : -1;
}

/// Whether tile-fuse lets `a` and `b` be one kernel: both from one region,
/// or either from none.
inline bool mayShareKernel(mlir::Operation *a, mlir::Operation *b) {
  int64_t x = groupOf(a), y = groupOf(b);
  return x < 0 || y < 0 || x == y;
}

/// For a kernel built op by op: whether `op` may join the ops taken so
/// far, whose group (-1 while none had one) `group` holds and updates.
inline bool joinsGroup(int64_t &group, mlir::Operation *op) {
  int64_t own = groupOf(op);
  if (own < 0)
    return true;
  if (group < 0)
    group = own;
  return own == group;
}

/// Gives `to` the group of `from`, if it has one (an op that replaces
/// another).
inline void inheritGroup(mlir::Operation *from, mlir::Operation *to) {
  if (auto group = from->getAttr(kGroupAttr))
    to->setAttr(kGroupAttr, group);
}

} // namespace aicc::tile

#endif // AICC_DIALECTS_TILE_TRANSFORMS_GROUPS_H
