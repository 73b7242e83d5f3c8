//===- QuantArithmetic.h - Quantization as tile arithmetic ------*- C++ -*-===//
//
// Quantizing and dequantizing written as element-wise tile ops, for what
// has no quantized kernel: the importer's forms whose scales are only known
// at run time (DynamicQuantizeLinear, QLinear* requantization) and
// tile-lower-quant's lowering of tile.quantize and tile.dequantize.
//
// Every builder returns a null Value when an operand is null or an op's
// types cannot be inferred (after a diagnostic at `loc`), so calls chain.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_DIALECTS_TILE_IR_QUANTARITHMETIC_H
#define AICC_DIALECTS_TILE_IR_QUANTARITHMETIC_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

namespace aicc::tile {

/// Whether `type` is one of the four fp8 types a quantized tensor may
/// store (ONNX's float8 e4m3fn, e4m3fnuz, e5m2, e5m2fnuz).
inline bool isFloat8(mlir::Type type) {
  return mlir::isa<mlir::Float8E4M3FNType, mlir::Float8E4M3FNUZType,
                   mlir::Float8E5M2Type, mlir::Float8E5M2FNUZType>(type);
}

class QuantAttr;
enum class BinaryKind : uint32_t;

/// A quantization parameter (scales or zero points) of a tensor of `shape`
/// made ready to broadcast against it: per tensor (rank 0 or one element)
/// it becomes rank 0; per axis (1-D) it is reshaped to size 1 everywhere but
/// `axis`; per block (`blockSize` > 0, the tensor's rank) each entry is
/// repeated `blockSize` times along `axis` and the result cut to the
/// tensor's size. Blocked parameters need static sizes.
mlir::Value expandQuantParameter(mlir::OpBuilder &builder, mlir::Location loc,
                                 mlir::Value parameter,
                                 llvm::ArrayRef<int64_t> shape, int64_t axis,
                                 int64_t blockSize);

/// Stores real values (already divided by the scale) into `storage`: rounds
/// half to even, adds `zeroPoint` (may be null) and saturates into the
/// integer's range; for an fp8 `storage`, converts with saturation.
mlir::Value buildSaturatingStore(mlir::OpBuilder &builder, mlir::Location loc,
                                 mlir::Value real, mlir::Value zeroPoint,
                                 mlir::Type storage);

/// `store(x / scale, zeroPoint)` into `storage`; `scale` and `zeroPoint`
/// broadcast against `x` (see expandQuantParameter).
mlir::Value buildQuantize(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Value x, mlir::Value scale,
                          mlir::Value zeroPoint, mlir::Type storage);

/// `(q - zeroPoint) * scale` in the float type `real`.
mlir::Value buildDequantize(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Value q, mlir::Value scale,
                            mlir::Value zeroPoint, mlir::Type real);

/// The scales or zero points of `quant` as constants shaped to broadcast
/// against a tensor of `shape` (zero points: null when absent).
mlir::Value buildQuantScales(mlir::OpBuilder &builder, mlir::Location loc,
                             QuantAttr quant, llvm::ArrayRef<int64_t> shape);
mlir::Value buildQuantZeroPoints(mlir::OpBuilder &builder, mlir::Location loc,
                                 QuantAttr quant,
                                 llvm::ArrayRef<int64_t> shape);

/// `lhs KIND rhs` with numpy broadcasting.
mlir::Value buildBinary(mlir::OpBuilder &builder, mlir::Location loc,
                        BinaryKind kind, mlir::Value lhs, mlir::Value rhs);

/// The float value `value` as a rank-0 constant of `type`'s element type.
mlir::Value buildScalar(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Type elementType, double value);

} // namespace aicc::tile

#endif // AICC_DIALECTS_TILE_IR_QUANTARITHMETIC_H
