//===- TileOpUtils.h - Helpers shared by the tile op families ---*- C++ -*-===//
//
// Private to the dialect's implementation files: shape arithmetic and the
// checks that several op families share. Every check reports through
// emitOptionalError so that it serves both verification (with a location)
// and builders' type inference.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_DIALECTS_TILE_IR_TILEOPUTILS_H
#define AICC_DIALECTS_TILE_IR_TILEOPUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>

namespace aicc::tile::detail {

using Loc = std::optional<mlir::Location>;

/// Renders a shape as in a tensor type: `2x?x3`, or `[]` for rank 0.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// The ranked tensor type of `value`, or a null type.
mlir::RankedTensorType tensorTypeOf(mlir::Value value);

/// Element-type classes. Integers exclude `i1`, which is a boolean.
bool isFloat(mlir::Type type);
bool isInteger(mlir::Type type);
bool isBool(mlir::Type type);
inline bool isNumeric(mlir::Type type) {
  return isFloat(type) || isInteger(type);
}

/// The element type of the result of an integer contraction (matmul, conv):
/// narrower than 32 bits accumulates into i32, wider keeps its own type.
/// Reports an error unless both operands are floats of one type or integers.
mlir::FailureOr<mlir::Type> contractionResultType(Loc loc, mlir::Type lhs,
                                                  mlir::Type rhs);

/// Numpy broadcasting of `shapes` into `result`; reports which operands clash.
mlir::LogicalResult
broadcastShapes(Loc loc, llvm::ArrayRef<llvm::ArrayRef<int64_t>> shapes,
                llvm::SmallVectorImpl<int64_t> &result);

/// Checks that `axis` indexes a tensor of `rank` (0 <= axis < rank).
mlir::LogicalResult checkAxis(Loc loc, llvm::StringRef what, int64_t axis,
                              int64_t rank);

/// Checks that `values` has `count` entries, each at least `minimum`.
mlir::LogicalResult checkArray(Loc loc, llvm::StringRef what,
                               llvm::ArrayRef<int64_t> values, size_t count,
                               int64_t minimum);

/// Checks that `value` is a 1-D tensor whose static size, if any, is `size`.
mlir::LogicalResult checkPerChannel(Loc loc, llvm::StringRef what,
                                    mlir::Value value, int64_t size);

/// Output size of a sliding window over `size` positions (kDynamic in,
/// kDynamic out): floor-or-ceil((size + lo + hi - dilation*(kernel-1) - 1)
/// / stride) + 1, dropping a last window that starts in the trailing padding
/// when rounding up.
int64_t windowOutputSize(int64_t size, int64_t kernel, int64_t stride,
                         int64_t dilation, int64_t padLo, int64_t padHi,
                         bool ceilMode);

/// Checks that all spatial output sizes are positive.
mlir::LogicalResult checkOutputSizes(Loc loc, llvm::ArrayRef<int64_t> shape,
                                     size_t firstSpatial);

} // namespace aicc::tile::detail

#endif // AICC_DIALECTS_TILE_IR_TILEOPUTILS_H
