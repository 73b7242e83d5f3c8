//===- Pipelines.h - Pipeline pieces every target runs ----------*- C++ -*-===//
//
// The parts of a compile that do not depend on the target: preparing
// imported tile IR, channels-last convolutions, bufferization with the
// runtime's calling convention, and the compile-time memory plan. Each
// target's pipeline (lib/Target/<name>) composes them with its own passes.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_TRANSFORMS_PIPELINES_H
#define AICC_TRANSFORMS_PIPELINES_H

#include <cstdint>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace aicc {

/// Target-independent preparation of imported tile IR for op-by-op
/// lowering: with `integerQuant`, quantized ops folded from their
/// dequantized operands (tile-fold-qdq; fp8 products too with `float8`);
/// the remaining quantization written as arithmetic, fusion regions
/// inlined, composite ops decomposed, folded. Products of fewer than
/// `int4ProductRows` rows by 4-bit weights keep the weights packed
/// (tile.matmul_int4), for targets with a kernel for them.
void buildTilePreparationPipeline(mlir::OpPassManager &pm,
                                  bool integerQuant = true, bool float8 = false,
                                  int64_t int4ProductRows = 0);

/// Convolutions on channels-last images where they gain from it
/// (tile-channels-last), folded and deduplicated after.
void addChannelsLastPasses(mlir::OpPassManager &pm);

/// Bufferization shared by every target: read-only arguments, results as
/// out-params.
void buildBufferizationPipeline(mlir::OpPassManager &pm);

/// The arena planned at compile time; what is left freed.
void buildPlanMemoryPipeline(mlir::OpPassManager &pm);

/// Registers the target-independent pipelines with the pass registry, for
/// aicc-opt (aicc-tile-preparation).
void registerSharedPipelines();

} // namespace aicc

#endif // AICC_TRANSFORMS_PIPELINES_H
