//===- LowerVectors.cpp - Vector ops to the 1-D form ----------------------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPULOWERVECTORSPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {
struct CPULowerVectorsPass
    : aicc::cpu::impl::CPULowerVectorsPassBase<CPULowerVectorsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *context = &getContext();
    linalg::hoistRedundantVectorTransfers(func);
    // Forward stores to loads and drop overwritten stores: the zeroing of
    // an accumulator tile dies once its reads are hoisted.
    IRRewriter rewriter(context);
    vector::transferOpflowOpt(rewriter, func);

    auto apply = [&](auto populate) {
      RewritePatternSet patterns(context);
      populate(patterns);
      return applyPatternsGreedily(func, std::move(patterns));
    };
    // Contractions become outer products, outer products FMAs.
    if (failed(apply([&](RewritePatternSet &patterns) {
          vector::populateVectorReductionToContractPatterns(patterns);
          // Integer products come as element-wise ops on vectors with a
          // unit reduction dimension: dropping it keeps them whole rows
          // instead of one-element vectors.
          vector::populateDropUnitDimWithShapeCastPatterns(patterns);
          vector::populateVectorContractLoweringPatterns(
              patterns, vector::VectorContractLowering::OuterProduct);
          vector::populateVectorMaskOpLoweringPatterns(patterns);
          vector::populateVectorOuterProductLoweringPatterns(patterns);
          vector::populateVectorMultiReductionLoweringPatterns(
              patterns, vector::VectorMultiReductionLowering::InnerParallel);
          vector::populateVectorTransposeLoweringPatterns(
              patterns, vector::VectorTransposeLowering::EltWise);
          vector::populateVectorBroadcastLoweringPatterns(patterns);
          vector::populateVectorShapeCastLoweringPatterns(patterns);
          vector::populateVectorTransferPermutationMapLoweringPatterns(
              patterns);
          vector::populateVectorMaskLoweringPatternsForSideEffectingOps(
              patterns);
          vector::populateVectorTransferLoweringPatterns(patterns,
                                                         /*maxRank=*/1);
          vector::populateVectorRankReducingFMAPattern(patterns);
        })))
      return signalPassFailure();
  }
};
} // namespace
