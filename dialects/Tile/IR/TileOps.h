//===- TileOps.h - Ops of the tile dialect ----------------------*- C++ -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILEOPS_H
#define AICC_DIALECTS_TILE_IR_TILEOPS_H

#include "Tile/IR/TileDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
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

#endif // AICC_DIALECTS_TILE_IR_TILEOPS_H
