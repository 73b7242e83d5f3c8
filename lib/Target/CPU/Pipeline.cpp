//===- Pipeline.cpp - tile IR to host code --------------------------------===//

#include "aicc/Target/CPU/CPUTarget.h"
#include "aicc/Target/CPU/CodeGen.h"
#include "aicc/Target/CPU/Passes.h"
#include "aicc/Transforms/Passes.h"
#include "aicc/Transforms/Pipelines.h"

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
using namespace aicc;

namespace {
/// The widest vector registers the options' CPU has, in bits (verifyOptions
/// has refused a CPU LLVM does not know).
unsigned vectorBits(const CPUTargetOptions &options) {
  cpu::CodeGenOptions codegen;
  codegen.cpu = options.cpu;
  codegen.features = options.cpuFeatures;
  llvm::Expected<unsigned> bits = cpu::vectorRegisterBits(codegen);
  if (!bits) {
    llvm::consumeError(bits.takeError());
    return 256;
  }
  return *bits;
}
} // namespace

void aicc::buildCPUPipeline(OpPassManager &pm,
                            const CPUTargetOptions &options) {
  unsigned bits = vectorBits(options);
  buildTilePreparationPipeline(pm);
  if (options.optLevel > 0)
    pm.addNestedPass<func::FuncOp>(tile::createTileFuseHorizontalPass());
  if (options.channelsLast && options.optLevel > 0)
    addChannelsLastPasses(pm);
  pm.addNestedPass<func::FuncOp>(tile::createTileOutlineWeightsPass());
  // Contractions in the micro-kernel's panels above -O0.
  cpu::CPUConvertTileToLinalgPassOptions toLinalg;
  if (options.optLevel > 0)
    toLinalg.panelWidth = 2 * bits / 32;
  pm.addPass(cpu::createCPUConvertTileToLinalgPass(toLinalg));
  pm.addPass(createCanonicalizerPass());
  if (options.optLevel > 0) {
    pm.addNestedPass<func::FuncOp>(createPackWeightsPass());
    pm.addNestedPass<func::FuncOp>(createFuseElementwisePass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    // No aicc-fuse-siblings here: a loop nest costs no launch, and the
    // CPU's vectorizer takes element-wise generics of one result only.
    // Register tiles: 16 accumulators of one vector register each with
    // AVX-512 (8 rows x 2 registers), 12 with AVX2 (6 rows x 2 registers).
    cpu::CPUTileAndVectorizePassOptions tiling;
    bool wide = bits >= 512;
    tiling.registerM = wide ? 8 : 6;
    tiling.registerN = 2 * bits / 32;
    tiling.lanes = bits / 32;
    pm.addNestedPass<func::FuncOp>(cpu::createCPUTileAndVectorizePass(tiling));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (options.emit == "linalg")
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
  pm.addPass(cpu::createCPUEntryPointPass(entryPoint));
  pm.addPass(createCanonicalizerPass());
}
