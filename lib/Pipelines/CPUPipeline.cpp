//===- CPUPipeline.cpp - tile IR to host code -----------------------------===//

#include "aicc/Conversion/Passes.h"
#include "aicc/Pipelines/Pipelines.h"
#include "aicc/Target/CPU/Passes.h"

#include "Tile/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void aicc::buildTilePreparationPipeline(OpPassManager &pm) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(tile::createTileInlineFusionsPass());
  funcPm.addPass(tile::createTileDecomposePass());
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
}

void aicc::addChannelsLastPasses(OpPassManager &pm) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(tile::createTileChannelsLastPass());
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
}

void aicc::buildBufferizationPipeline(OpPassManager &pm) {
  // Buffers: arguments are never written, results become out-params, and
  // what is left is planned into the arena or freed by the deallocation
  // pipeline.
  pm.addNestedPass<func::FuncOp>(cpu::createCPUFillPerUsePass());
  pm.addNestedPass<func::FuncOp>(cpu::createCPUPrepareInterfacePass());
  // A tensor.empty that an op fills and an insert_slice then copies into a
  // larger tensor becomes a slice of that tensor, so the op writes in place
  // (convolution patches are written tap by tap this way).
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loops whose results are new tensors (scans, top-k, dynamic loops)
  // allocate per iteration; the deallocation pipeline frees them.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  // Copies between identical views of one buffer (left by in-place slice
  // chains) become self-copies that canonicalization erases.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

void aicc::buildPlanMemoryPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(cpu::createCPUPlanMemoryPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  // The deallocation helpers take dynamically shaped memrefs, which the
  // bare-pointer calling convention cannot pass: inline them.
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
}

void aicc::buildCPUPipeline(OpPassManager &pm,
                            const CPUPipelineOptions &options,
                            CPUStage stopAfter) {
  buildTilePreparationPipeline(pm);
  if (options.optLevel > 0)
    pm.addNestedPass<func::FuncOp>(tile::createTileFuseHorizontalPass());
  if (options.channelsLast && options.optLevel > 0)
    addChannelsLastPasses(pm);
  pm.addNestedPass<func::FuncOp>(tile::createTileOutlineWeightsPass());
  ConvertTileToLinalgPassOptions toLinalg;
  if (options.optLevel > 0)
    toLinalg.convPanelWidth = 2 * options.vectorBits / 32;
  pm.addPass(createConvertTileToLinalgPass(toLinalg));
  pm.addPass(createCanonicalizerPass());
  if (options.optLevel > 0) {
    pm.addNestedPass<func::FuncOp>(cpu::createCPUPackWeightsPass());
    pm.addNestedPass<func::FuncOp>(cpu::createCPUFuseElementwisePass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    // No aicc-fuse-siblings here: a loop nest costs no launch, and the
    // CPU's vectorizer takes element-wise generics of one result only.
    // Register tiles: 16 accumulators of one vector register each with
    // AVX-512 (8 rows x 2 registers), 12 with AVX2 (6 rows x 2 registers).
    cpu::CPUTileAndVectorizePassOptions tiling;
    bool wide = options.vectorBits >= 512;
    tiling.registerM = wide ? 8 : 6;
    tiling.registerN = 2 * options.vectorBits / 32;
    tiling.lanes = options.vectorBits / 32;
    pm.addNestedPass<func::FuncOp>(cpu::createCPUTileAndVectorizePass(tiling));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (stopAfter == CPUStage::Linalg)
    return;

  buildBufferizationPipeline(pm);
  buildPlanMemoryPipeline(pm);
  pm.addNestedPass<func::FuncOp>(cpu::createCPULowerVectorsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(cpu::createCPUOutlineParallelPass());
  pm.addNestedPass<func::FuncOp>(cpu::createCPUBarePointerArgumentsPass());

  // Loops, then the LLVM dialect.
  pm.addPass(cpu::createCPULowerCopiesPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  VectorTransferToSCFOptions vectorToSCF;
  vectorToSCF.enableFullUnroll();
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(vectorToSCF));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(math::createMathExtendToSupportedTypes());
  pm.addPass(cpu::createCPULegalizeMathPass());
  pm.addPass(createConvertMathToFuncs());
  // bf16 conversions in integer arithmetic: compiled code must not call
  // compiler-runtime helpers the loading process may not have.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcToLLVM;
  funcToLLVM.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcToLLVM));
  pm.addPass(createReconcileUnrealizedCastsPass());
  cpu::CPUEntryPointPassOptions entryPoint;
  entryPoint.entry = options.entry;
  pm.addPass(cpu::createCPUEntryPointPass(entryPoint));
  pm.addPass(createCanonicalizerPass());
}

void aicc::registerAICCPipelines() {
  PassPipelineRegistration<>(
      "aicc-tile-preparation",
      "Inline fusion regions, decompose composite ops, fold",
      [](OpPassManager &pm) { buildTilePreparationPipeline(pm); });
  PassPipelineRegistration<CPUPipelineOptions>(
      "aicc-cpu-pipeline", "Compile tile IR to the LLVM dialect for the CPU",
      [](OpPassManager &pm, const CPUPipelineOptions &options) {
        buildCPUPipeline(pm, options);
      });
  PassPipelineRegistration<GPUPipelineOptions>(
      "aicc-gpu-pipeline",
      "Compile tile IR to CUDA (NVVM) or ROCm (ROCDL) kernels",
      [](OpPassManager &pm, const GPUPipelineOptions &options) {
        buildGPUPipeline(pm, options);
      });
}
