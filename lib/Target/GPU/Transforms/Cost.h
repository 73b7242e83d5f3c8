//===- Cost.h - What a kernel computes and moves ----------------*- C++ -*-===//
//
// The work of each launch, for `aicc-run --profile`'s roofline: the
// floating-point operations of the ops it was built from (a multiply-add is
// two; counted on the ops' iteration spaces, so padding and recomputation
// are not work), the bytes of the buffers it reads and writes, and the unit
// that does the arithmetic. Passes that build launches record the FLOPs on
// them; outlining adds the bytes and moves both onto the gpu.launch_func.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_GPU_TRANSFORMS_COST_H
#define AICC_LIB_TARGET_GPU_TRANSFORMS_COST_H

#include "AiccGPU/IR/AiccGPUDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <cstdint>

namespace mlir {
class Block;
class Operation;
} // namespace mlir

namespace mlir::linalg {
class LinalgOp;
} // namespace mlir::linalg

// The launch annotations (kLaunchFlops, ...) are the aicc_gpu dialect's
// (AiccGPU/IR/AiccGPUDialect.h).
namespace aicc::gpu {

/// The floating-point operations one execution of `op` does: float
/// arithmetic and math ops (an FMA is two, a vector op one per element),
/// with those nested in it; an scf.for's body as many times as a constant
/// trip count says (once otherwise), a linalg op's as it iterates.
/// Constants, conversions, selects and comparisons are not counted.
int64_t floatOps(mlir::Operation &op);
/// The floating-point operations of one execution of `body`'s ops.
int64_t floatOps(mlir::Block &body);

/// The floating-point operations of `op`: its iterations times its body's
/// (0 for an op of dynamic extents).
int64_t countFlops(mlir::linalg::LinalgOp op);

/// Adds `flops` to what `launch` records (kLaunchFlops); with
/// `tensorCores`, marks them done on tensor cores with operands of
/// `operandBits` bits.
void recordFlops(mlir::gpu::LaunchOp launch, int64_t flops,
                 bool tensorCores = false, unsigned operandBits = 16);

/// The bytes of the buffers `launch` uses from outside it (its views of
/// the function's buffers and constant globals; shared memory excluded),
/// each buffer once: views of the same allocation count at most its size,
/// and a buffer read only at positions loaded from memory (a gather's
/// table) one element per element the launch writes.
int64_t launchBytes(mlir::gpu::LaunchOp launch);

} // namespace aicc::gpu

#endif // AICC_LIB_TARGET_GPU_TRANSFORMS_COST_H
