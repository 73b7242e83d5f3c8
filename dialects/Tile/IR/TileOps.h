//===- TileOps.h - Ops of the tile dialect ----------------------*- C++ -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILEOPS_H
#define AICC_DIALECTS_TILE_IR_TILEOPS_H

#include "Tile/IR/TileDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace aicc::tile {
/// Whether `actual` result types are acceptable where inference produced
/// `inferred`: same count, ranked tensors of the same element type whose
/// shapes are compatible (a static size may refine an inferred `?`).
/// Encodings are ignored, so passes may annotate results freely.
bool areCompatibleReturnTypes(mlir::TypeRange inferred, mlir::TypeRange actual);
} // namespace aicc::tile

#define GET_OP_CLASSES
#include "Tile/IR/TileOps.h.inc"

namespace aicc::tile {
/// Creates an op whose result types are inferred from `operands` and
/// `properties`. Where the ODS builders abort the process when inference
/// fails, this reports the reason as an error at `loc` and returns failure,
/// so it is the builder to use on untrusted input (the importer).
template <typename OpTy>
mlir::FailureOr<OpTy>
createInferred(mlir::OpBuilder &builder, mlir::Location loc,
               mlir::ValueRange operands,
               const typename OpTy::Properties &properties = {}) {
  llvm::SmallVector<mlir::Type> types;
  auto &mutableProperties = const_cast<typename OpTy::Properties &>(properties);
  if (mlir::failed(OpTy::inferReturnTypes(
          builder.getContext(), loc, operands, /*attributes=*/nullptr,
          mlir::OpaqueProperties(&mutableProperties), /*regions=*/{}, types)))
    return mlir::failure();
  return OpTy::create(builder, loc, types, operands, properties);
}
} // namespace aicc::tile

#endif // AICC_DIALECTS_TILE_IR_TILEOPS_H
