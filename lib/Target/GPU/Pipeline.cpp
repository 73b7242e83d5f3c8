//===- Pipeline.cpp - tile IR to GPU kernels ------------------------------===//
//
// The pipeline cuda and rocm share, with GPUTarget's hooks where they
// differ.
//
//===----------------------------------------------------------------------===//

#include "GPUTarget.h"

#include "aicc/Target/GPU/Passes.h"
#include "aicc/Transforms/Passes.h"
#include "aicc/Transforms/Pipelines.h"

#include "Tile/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void aicc::GPUTarget::buildPipeline(OpPassManager &pm,
                                    const TargetOptions &base) const {
  const auto &options = static_cast<const GPUTargetOptions &>(base);
  std::vector<std::string> archs = archsOf(options);
  buildTilePreparationPipeline(
      pm, options.integerQuant,
      options.integerQuant && multipliesFloat8(options), int4ProductRows());
  if (options.optLevel > 0) {
    // Products of one input side by side (BERT's q, k and v projections),
    // as GPT-2 and torchvision export them.
    pm.addNestedPass<func::FuncOp>(tile::createTileFuseHorizontalPass());
    // Layout chains (attention's packed q, k, v picked apart) as one
    // transpose each, read in place by the kernels.
    pm.addNestedPass<func::FuncOp>(tile::createTileFoldLayoutChainsPass());
    pm.addPass(createCanonicalizerPass());
  }
  bool channelsLast = options.channelsLast && options.optLevel > 0;
  if (channelsLast)
    addChannelsLastPasses(pm);
  pm.addNestedPass<func::FuncOp>(tile::createTileOutlineWeightsPass());
  bool tileFuse = options.tileFuse && options.optLevel > 0;
  if (tileFuse) {
    // The fusion groups, one region per kernel; attention as one kernel
    // where its operands are half (aicc-gpu-flash-attention).
    tile::TileFusePassOptions fuse;
    fuse.attention = fusesAttention(options);
    pm.addNestedPass<func::FuncOp>(tile::createTileFusePass(fuse));
  }
  pm.addPass(gpu::createGPUConvertTileToLinalgPass());
  if (tileFuse) {
    // Each op tagged with its group, which the kernel passes keep to.
    tile::TileInlineFusionsPassOptions inline_;
    inline_.markGroups = true;
    pm.addNestedPass<func::FuncOp>(tile::createTileInlineFusionsPass(inline_));
  }
  pm.addPass(createCanonicalizerPass());
  // The filters' transposes to channels last, evaluated once (transposed
  // matrices the products read in place: aicc-gpu-fold-permutations).
  if (channelsLast) {
    PackWeightsPassOptions pack;
    pack.minRank = 3;
    pm.addNestedPass<func::FuncOp>(createPackWeightsPass(pack));
  }
  if (options.optLevel > 0) {
    // Element-wise chains become one kernel each.
    FuseElementwisePassOptions fuse;
    fuse.intoReductions = true;
    fuse.rereadReductions = false;
    pm.addNestedPass<func::FuncOp>(createFuseElementwisePass(fuse));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (options.precision != Precision::FP32) {
    pm.addNestedPass<func::FuncOp>(createLinalgGeneralizeNamedOpsPass());
    gpu::GPUHalfStoragePassOptions half;
    half.halfType = options.precision == Precision::BF16 ? "bf16" : "f16";
    pm.addNestedPass<func::FuncOp>(gpu::createGPUHalfStoragePass(half));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (options.optLevel > 0) {
    // Products read transposed operands (attention's head split) in place.
    pm.addNestedPass<func::FuncOp>(gpu::createGPUFoldPermutationsPass());
    pm.addPass(createCanonicalizerPass());
    // 8-bit weights as the tensor cores read them, rows of k, transposed
    // once at compile time.
    pm.addNestedPass<func::FuncOp>(gpu::createGPUKMajorWeightsPass());
    PackWeightsPassOptions pack;
    pack.minRank = 2;
    pm.addNestedPass<func::FuncOp>(createPackWeightsPass(pack));
    // Independent element-wise kernels of one iteration space as one.
    if (options.fuseSiblings)
      pm.addNestedPass<func::FuncOp>(createFuseSiblingsPass());
  }
  if (options.emit == "linalg")
    return;

  buildBufferizationPipeline(pm);
  pm.addNestedPass<func::FuncOp>(gpu::createGPUPrepareLoopsPass());
  // Products by packed 4-bit weights (tile.matmul_int4), before anything
  // else takes them.
  if (int4ProductRows() > 0)
    pm.addNestedPass<func::FuncOp>(gpu::createGPUInt4ProductsPass());
  // Every kernel's tiling, from the GPUs' limits, recorded on its ops.
  gpu::GPUChooseTilesPassOptions choose;
  choose.target = getName().str();
  choose.vendor = getVendor();
  choose.archs.assign(archs.begin(), archs.end());
  choose.blockSize = options.blockSize;
  configureTileSelection(options, choose);
  pm.addNestedPass<func::FuncOp>(gpu::createGPUChooseTilesPass(choose));
  addMatrixKernels(pm, options);
  pm.addNestedPass<func::FuncOp>(gpu::createGPUWarpReductionsPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCanonicalizerPass());
  // The element-wise kernels' tilings, on their loops.
  choose.loops = true;
  pm.addNestedPass<func::FuncOp>(gpu::createGPUChooseTilesPass(choose));
  pm.addNestedPass<func::FuncOp>(gpu::createGPUMapToLaunchesPass());
  // Planned after mapping, so that a buffer lives until the last kernel
  // that reads it.
  buildPlanMemoryPipeline(pm);
  // Integer powers and the like become helper functions, which outlining
  // copies into the device module with the kernels that call them.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(gpu::createGPUOutlineKernelsPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.emit == "gpu")
    return;

  // The kernels, to the device's LLVM dialect.
  OpPassManager &device = pm.nest<mlir::gpu::GPUModuleOp>();
  device.addPass(createLowerAffinePass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(math::createMathExtendToSupportedTypes());
  device.addPass(createExpandFloat8Pass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  device.addPass(arith::createArithExpandOpsPass(expand));
  device.addPass(createCanonicalizerPass());
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  addDeviceLowering(device, options);
  device.addPass(createReconcileUnrealizedCastsPass());
  device.addPass(createCanonicalizerPass());
}
