//===- ConstantFold.h - Compile-time evaluation of tile ops -----*- C++ -*-===//
//
// Private to the dialect: the arithmetic behind the op folders. Each function
// evaluates one op on dense constant operands and returns the result as a
// dense attribute of `resultType`, or a null attribute when it does not fold
// (an operand is not a dense constant, the result type is not static, an
// operation has no exact compile-time value such as integer division by
// zero, or the result would exceed kMaxFoldedElements without being a
// splat). The bound keeps a tiny model from making the compiler allocate
// without limit.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_DIALECTS_TILE_IR_CONSTANTFOLD_H
#define AICC_DIALECTS_TILE_IR_CONSTANTFOLD_H

#include "Tile/IR/TileDialect.h"

#include <optional>

namespace aicc::tile::fold {

/// The most elements a non-splat folded result may have.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 20;

mlir::Attribute unary(UnaryKind kind, mlir::Attribute input,
                      std::optional<double> alpha, std::optional<double> beta,
                      mlir::RankedTensorType resultType);
mlir::Attribute binary(BinaryKind kind, mlir::Attribute lhs,
                       mlir::Attribute rhs, mlir::RankedTensorType resultType);
mlir::Attribute compare(ComparePredicate predicate, mlir::Attribute lhs,
                        mlir::Attribute rhs, mlir::RankedTensorType resultType);
mlir::Attribute select(mlir::Attribute condition, mlir::Attribute onTrue,
                       mlir::Attribute onFalse,
                       mlir::RankedTensorType resultType);
mlir::Attribute cast(mlir::Attribute input, mlir::RankedTensorType resultType);

mlir::Attribute gather(mlir::Attribute data, mlir::Attribute indices,
                       int64_t axis, mlir::RankedTensorType resultType);
mlir::Attribute slice(mlir::Attribute input, llvm::ArrayRef<int64_t> starts,
                      llvm::ArrayRef<int64_t> steps,
                      mlir::RankedTensorType resultType);
mlir::Attribute concat(llvm::ArrayRef<mlir::Attribute> inputs, int64_t axis,
                       mlir::RankedTensorType resultType);
mlir::Attribute transpose(mlir::Attribute input,
                          llvm::ArrayRef<int64_t> permutation,
                          mlir::RankedTensorType resultType);
/// Numpy broadcasting of `input` to the result shape (expand).
mlir::Attribute broadcast(mlir::Attribute input,
                          mlir::RankedTensorType resultType);
mlir::Attribute tile(mlir::Attribute input, mlir::RankedTensorType resultType);
mlir::Attribute reduce(ReduceKind kind, mlir::Attribute input,
                       llvm::ArrayRef<int64_t> axes,
                       mlir::RankedTensorType resultType);

} // namespace aicc::tile::fold

#endif // AICC_DIALECTS_TILE_IR_CONSTANTFOLD_H
