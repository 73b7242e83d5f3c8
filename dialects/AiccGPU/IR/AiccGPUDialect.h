//===- AiccGPUDialect.h - The GPU targets' kernel configs -------*- C++ -*-===//

#ifndef AICC_DIALECTS_AICCGPU_IR_AICCGPUDIALECT_H
#define AICC_DIALECTS_AICCGPU_IR_AICCGPUDIALECT_H

#include "Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpImplementation.h"

#include "AiccGPU/IR/AiccGPUDialect.h.inc"
#include "AiccGPU/IR/AiccGPUEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "AiccGPU/IR/AiccGPUAttrs.h.inc"

namespace aicc::gpu {

/// Lanes of an NVIDIA warp, which every GPU aicc targets runs a block's
/// threads in multiples of (AMD's 64-lane waves are two), and which the
/// row kernels' shuffles span on every GPU.
constexpr int64_t kWarpLanes = 32;
/// Lanes of an AMD wave, the unit of #aicc_gpu.mfma's waves.
constexpr int64_t kWaveLanes = 64;
/// Rows (m) a product needs for the tensor cores' 16 x 8 tiles: thinner
/// products (a batch-1 matrix-vector product) run on the CUDA cores, a warp
/// per output, and are bound by reading their weight.
constexpr int64_t kTensorCoreRows = 16;
/// Threads a block may have on every GPU aicc targets: the kernel
/// configurations' verifiers bound their blocks by it (the architectures'
/// own limits bound the choice).
constexpr int64_t kMaxBlockThreads = 1024;

/// The discardable attributes of the dialect, which it verifies.
///
/// On an op a kernel pass builds from: its tiling, a #tile.encoding whose
/// config is one of the dialect's kernel configurations.
constexpr llvm::StringLiteral kTilesAttr = "aicc_gpu.tiles";
/// On gpu.launch and gpu.launch_func (i64): the FLOPs and bytes of one
/// launch.
constexpr llvm::StringLiteral kLaunchFlops = "aicc_gpu.flops";
constexpr llvm::StringLiteral kLaunchBytes = "aicc_gpu.bytes";
/// On gpu.launch and gpu.launch_func (#aicc_gpu.math): the units the
/// FLOPs run on; absent for the scalar units.
constexpr llvm::StringLiteral kLaunchMath = "aicc_gpu.math";
/// On gpu.launch and gpu.launch_func (string): the signature of the
/// tensor-core contraction the launch computes (contractionSignature), by
/// which --autotune attributes kernel times to tilings, and its tiling,
/// "BMxBNxBKxSTAGES[/SPLITS]".
constexpr llvm::StringLiteral kLaunchContraction = "aicc_gpu.contraction";
constexpr llvm::StringLiteral kLaunchTiling = "aicc_gpu.tiling";
/// On gpu.launch_func (string): the ONNX nodes the kernel computes.
constexpr llvm::StringLiteral kLaunchSource = "aicc_gpu.source";
/// On gpu.launch (i32): the blocks per multiprocessor the kernel is built
/// for; outlining passes it to ptxas as `nvvm.minctasm`.
constexpr llvm::StringLiteral kMinBlocksPerMultiprocessor =
    "aicc_gpu.min_blocks_per_sm";
/// On a cast standing for a TMA tensor map (dense i64 array): its box,
/// outermost dimension first.
constexpr llvm::StringLiteral kTensorMapBox = "aicc_gpu.tensor_map_box";

} // namespace aicc::gpu

#endif // AICC_DIALECTS_AICCGPU_IR_AICCGPUDIALECT_H
