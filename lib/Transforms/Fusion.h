//===- Fusion.h - What the fusion passes ask of ops -------------*- C++ -*-===//
//
// Questions about linalg ops on tensors that the vertical (producer into
// consumer) and horizontal (siblings into one op) fusion passes share.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_CPU_TRANSFORMS_FUSION_H
#define AICC_LIB_TARGET_CPU_TRANSFORMS_FUSION_H

namespace mlir {
class Operation;
class Value;
namespace linalg {
class LinalgOp;
} // namespace linalg
} // namespace mlir

namespace aicc::cpu {

/// The linalg op that computes `value`, seen through reshapes
/// (tensor.expand_shape / collapse_shape); null for anything else.
mlir::linalg::LinalgOp producerThroughReshapes(mlir::Value value);

/// Whether `op` is a linalg op whose loops are all parallel.
bool allParallel(mlir::Operation *op);

/// Whether the linalg op `op` reads the result of a contraction (an op with
/// reduction loops and two inputs: a product or a convolution), maybe
/// through reshapes; with `convolutions`, of a convolution's (a contraction
/// over several loops: the window and the channels) also through up to
/// `depth` element-wise ops (its bias add, the other branch of a residual
/// sum). On the GPUs such a reader is the contraction's epilogue.
bool readsContraction(mlir::Operation *op, bool convolutions, int depth = 4);

} // namespace aicc::cpu

#endif // AICC_LIB_TARGET_CPU_TRANSFORMS_FUSION_H
