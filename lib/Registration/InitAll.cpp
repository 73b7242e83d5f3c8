//===- InitAll.cpp - Register aicc's dialects and passes ------------------===//

#include "aicc/InitAll.h"
#include "aicc/Conversion/Passes.h"

#include "Tile/IR/TileDialect.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void aicc::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<aicc::tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect>();
}

void aicc::registerAllPasses() {
  static const bool once = [] {
    aicc::tile::registerTilePasses();
    aicc::registerAICCConversionPasses();
    mlir::registerTransformsPasses();
    return true;
  }();
  (void)once;
}
