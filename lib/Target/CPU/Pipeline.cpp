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

#include <algorithm>

using namespace mlir;
using namespace aicc;

void aicc::buildCPUPipeline(OpPassManager &pm, const CPUTargetOptions &options,
                            const TargetLimits &limits) {
  // The CPU's byte dot products (VNNI), where it has them: 8-bit products
  // then run on the integers unless --integer-quant says otherwise.
  llvm::Expected<unsigned> vnniBits = cpu::vnniBits(codeGenOptions(options));
  unsigned vnni = 0;
  if (!vnniBits)
    llvm::consumeError(vnniBits.takeError()); // getLimits reports it
  else if (*vnniBits == 512 || (*vnniBits == 256 && limits.lanes == 8))
    vnni = 32 * limits.lanes;
  bool integerQuant = options.integerQuant.getNumOccurrences() > 0
                          ? bool(options.integerQuant)
                          : vnni > 0 && options.optLevel > 0;
  buildTilePreparationPipeline(pm, integerQuant);
  if (options.optLevel > 0)
    pm.addNestedPass<func::FuncOp>(tile::createTileFuseHorizontalPass());
  if (options.channelsLast && options.optLevel > 0)
    addChannelsLastPasses(pm);
  pm.addNestedPass<func::FuncOp>(tile::createTileOutlineWeightsPass());
  // Contractions in the micro-kernel's panels above -O0.
  cpu::CPUConvertTileToLinalgPassOptions toLinalg;
  if (options.optLevel > 0)
    toLinalg.panelWidth = 2 * limits.lanes;
  pm.addPass(cpu::createCPUConvertTileToLinalgPass(toLinalg));
  pm.addPass(createCanonicalizerPass());
  if (options.optLevel > 0) {
    pm.addNestedPass<func::FuncOp>(createPackWeightsPass());
    pm.addNestedPass<func::FuncOp>(createFuseElementwisePass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    // No aicc-fuse-siblings here: a loop nest costs no launch, and the
    // CPU's vectorizer takes element-wise generics of one result only.
    // Register tiles of rows x 2 vector registers of accumulators, with 4
    // registers left for the B panel's two vectors and A's broadcasts, at
    // most 8 rows: 16 accumulators with AVX-512's 32 registers (8 rows),
    // 12 with AVX2's 16 (6 rows).
    cpu::CPUTileAndVectorizePassOptions tiling;
    tiling.registerM = std::min<int64_t>((limits.registersPerUnit - 4) / 2, 8);
    tiling.registerN = 2 * limits.lanes;
    tiling.lanes = limits.lanes;
    pm.addNestedPass<func::FuncOp>(cpu::createCPUTileAndVectorizePass(tiling));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (options.emit == "linalg")
    return;

  buildBufferizationPipeline(pm);
  buildPlanMemoryPipeline(pm);
  if (options.optLevel > 0 && vnni > 0) {
    cpu::CPUVNNIDotPassOptions dot;
    dot.bits = vnni;
    pm.addNestedPass<func::FuncOp>(cpu::createCPUVNNIDotPass(dot));
  }
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
  // bf16 and float8 conversions in integer arithmetic: compiled code must
  // not call compiler-runtime helpers the loading process may not have.
  pm.addPass(createExpandFloat8Pass());
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
