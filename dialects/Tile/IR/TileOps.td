//===- TileOps.td - Ops of the tile dialect ------------------*- tablegen -*-===//
//
// Every op of the dialect, one file per family. This is the file that
// mlir-tblgen reads for op declarations, definitions and documentation.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_DIALECTS_TILE_IR_TILEOPS_TD
#define AICC_DIALECTS_TILE_IR_TILEOPS_TD

include "Tile/IR/TileBase.td"
include "Tile/IR/TileAttrs.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

/// An op whose result types follow from its operands and attributes. The
/// builders can omit result types, and the verifier checks the written ones
/// against the inferred ones, ignoring tensor encodings and accepting a static
/// size where inference only knows `?`.
class Tile_InferringOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, traits # [Pure, InferTypeOpAdaptorWithIsCompatible]> {
  let extraClassDefinition = [{
    bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange inferred,
                                            ::mlir::TypeRange actual) {
      return ::aicc::tile::areCompatibleReturnTypes(inferred, actual);
    }
  }];
}

include "Tile/IR/TileStructureOps.td"
include "Tile/IR/TileElementwiseOps.td"
include "Tile/IR/TileContractionOps.td"
include "Tile/IR/TileReductionOps.td"
include "Tile/IR/TileDataMovementOps.td"
include "Tile/IR/TileQuantOps.td"

#endif // AICC_DIALECTS_TILE_IR_TILEOPS_TD
