//===- TileInterfaces.td - Interfaces of the tile dialect --*- tablegen -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILEINTERFACES_TD
#define AICC_DIALECTS_TILE_IR_TILEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Tile_KernelConfigAttrInterface
    : AttrInterface<"KernelConfigAttrInterface"> {
  let cppNamespace = "::aicc::tile";
  let description = [{
    A target's typed configuration of the kernel a `#tile.encoding`'s tiling
    is for (`config = ...`): the engine, stages, warps or lanes the target's
    kernel passes build with. Targets declare these attributes in their own
    dialects (`#aicc_gpu.contraction<...>`); the encoding's verifier asks
    the configuration whether the tile levels fit it, so a tiling and its
    configuration can never disagree.
  }];
  let methods = [
    InterfaceMethod<
      "Checks the encoding's tile levels (outermost first) against the "
      "kernel this configuration describes.",
      "::mlir::LogicalResult", "verifyTiles",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "::llvm::ArrayRef<::mlir::DenseI64ArrayAttr>":$tiles)>,
  ];
}

#endif // AICC_DIALECTS_TILE_IR_TILEINTERFACES_TD
