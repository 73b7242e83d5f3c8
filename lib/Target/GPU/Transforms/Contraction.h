//===- Contraction.h - Recognizing out += a * b on buffers ------*- C++ -*-===//

#ifndef AICC_LIB_TARGET_GPU_TRANSFORMS_CONTRACTION_H
#define AICC_LIB_TARGET_GPU_TRANSFORMS_CONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <array>
#include <optional>

namespace aicc::gpu {

/// A `linalg.generic` on static buffers computing `out += a * b` (matrix
/// products, batched or not, and direct convolutions), its loops by role.
/// Loops of extent 1 have no role: their index is always 0.
struct Contraction {
  /// Parallel loops of the output that index both inputs or neither.
  llvm::SmallVector<unsigned> batch;
  /// Parallel loops that index `a` and the output but not `b`.
  llvm::SmallVector<unsigned> m;
  /// Parallel loops that index `b` and the output but not `a`.
  llvm::SmallVector<unsigned> n;
  /// Reduction loops.
  llvm::SmallVector<unsigned> k;
  /// Extent of every loop of the op.
  llvm::SmallVector<int64_t> bounds;
  /// An integer product: 8-bit inputs, each sign- or zero-extended
  /// (`unsignedInput[i]` for input i), summed in the i32 output.
  bool integer = false;
  std::array<bool, 2> unsignedInput{false, false};

  /// The product of the extents of `loops`.
  int64_t extent(llvm::ArrayRef<unsigned> loops) const;
};

/// Recognizes `op` as a contraction: two inputs and one output, all static
/// memrefs of floating-point elements; a body that yields `out + x * y`
/// where x and y are the two inputs, each possibly extended (`arith.extf`);
/// an output map that is a projected permutation. Or the integer form: i8
/// inputs, an i32 output and `out + ext(x) * ext(y)` with `arith.extsi` or
/// `arith.extui` extensions to i32. The input maps may be any
/// affine maps (a convolution's input is indexed by `oh * s + kh`).
std::optional<Contraction> matchContraction(mlir::linalg::GenericOp op);

} // namespace aicc::gpu

#endif // AICC_LIB_TARGET_GPU_TRANSFORMS_CONTRACTION_H
