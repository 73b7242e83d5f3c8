//===- Constants.h - Compile-time values of tile tensors ---------*- C++
//-*-===//
//
// The values known at compile time (constants and weights) and the
// conversion of plain numbers into the elements of a tile constant, shared
// by the importer and the passes.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_DIALECTS_TILE_IR_CONSTANTS_H
#define AICC_DIALECTS_TILE_IR_CONSTANTS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

namespace aicc::tile {

/// `values` as the elements of a tensor of `type` (a float or integer
/// element type): one value makes a splat, otherwise there is one per
/// element. Floats round to the nearest (ties to even); integers are
/// truncated toward zero and wrap into their width; `i1` is `value != 0`.
mlir::DenseElementsAttr numericElements(mlir::RankedTensorType type,
                                        llvm::ArrayRef<double> values);

/// The value of a `tile.weight` or `tile.constant`, or null for a value
/// computed at run time.
mlir::ElementsAttr compileTimeValue(mlir::Value value);

/// A `tile.weight` of `type` holding `bytes` (row-major) in a resource
/// blob keyed `name`, made unique in the context; the weight is named as
/// its blob.
mlir::Value createWeight(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::RankedTensorType type, llvm::StringRef name,
                         llvm::ArrayRef<char> bytes);

} // namespace aicc::tile

#endif // AICC_DIALECTS_TILE_IR_CONSTANTS_H
