//===- aicc-opt.cpp - mlir-opt with aicc's dialects and passes ------------===//

#include "aicc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  aicc::registerAllDialects(registry);
  // aicc's passes and each target's pipeline, aicc-<name>-pipeline.
  aicc::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "aicc optimizer driver: runs aicc's passes on MLIR\n",
      registry));
}
