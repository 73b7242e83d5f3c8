//===- TileDialect.h - The tile dialect and its attributes ------*- C++ -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILEDIALECT_H
#define AICC_DIALECTS_TILE_IR_TILEDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TensorEncoding.h"

#include "Tile/IR/TileAttrInterfaces.h.inc"
#include "Tile/IR/TileDialect.h.inc"
#include "Tile/IR/TileEnums.h.inc"

namespace aicc::tile {
/// Parses the `tiles` parameter of #tile.encoding: `[MxN, ...]`.
mlir::FailureOr<llvm::SmallVector<mlir::DenseI64ArrayAttr>>
parseTileLevels(mlir::AsmParser &parser);
/// Prints the `tiles` parameter of #tile.encoding.
void printTileLevels(mlir::AsmPrinter &printer,
                     llvm::ArrayRef<mlir::DenseI64ArrayAttr> levels);
/// Parses the `order` parameter of #tile.encoding: `[d0, d1, ...]`.
mlir::FailureOr<llvm::SmallVector<int64_t>>
parseDimOrder(mlir::AsmParser &parser);
/// Prints the `order` parameter of #tile.encoding.
void printDimOrder(mlir::AsmPrinter &printer, llvm::ArrayRef<int64_t> order);
} // namespace aicc::tile

#define GET_ATTRDEF_CLASSES
#include "Tile/IR/TileAttrs.h.inc"

#endif // AICC_DIALECTS_TILE_IR_TILEDIALECT_H
