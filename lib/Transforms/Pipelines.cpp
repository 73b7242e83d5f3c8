//===- Pipelines.cpp - Pipeline pieces every target runs ------------------===//

#include "aicc/Transforms/Pipelines.h"
#include "aicc/Transforms/Passes.h"

#include "Tile/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void aicc::buildTilePreparationPipeline(OpPassManager &pm, bool integerQuant,
                                        bool float8, int64_t int4ProductRows) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  // Quantized ops first, while the dequantized operands are visible; the
  // quantize and dequantize ops left become arithmetic.
  if (integerQuant) {
    tile::TileFoldQDQPassOptions fold;
    fold.float8 = float8;
    funcPm.addPass(tile::createTileFoldQDQPass(fold));
  }
  tile::TileLowerQuantPassOptions lower;
  lower.int4ProductRows = int4ProductRows;
  funcPm.addPass(tile::createTileLowerQuantPass(lower));
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
  pm.addNestedPass<func::FuncOp>(createFillPerUsePass());
  pm.addNestedPass<func::FuncOp>(createPrepareInterfacePass());
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
  pm.addNestedPass<func::FuncOp>(createPlanMemoryPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  // The deallocation helpers take dynamically shaped memrefs, which the
  // bare-pointer calling convention cannot pass: inline them.
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
}

void aicc::registerSharedPipelines() {
  PassPipelineRegistration<>(
      "aicc-tile-preparation",
      "Fold and lower quantization, inline fusion regions, decompose "
      "composite ops, fold",
      [](OpPassManager &pm) { buildTilePreparationPipeline(pm); });
}
