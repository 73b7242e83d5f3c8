//===- TileToLinalg.h - Shared by the tile-to-linalg patterns ---*- C++ -*-===//
//
// The conversion works on the tile ops' original types to know signedness
// (uiN vs iN) and on converted, signless operands to build the arithmetic.
// Element-wise work is built as linalg.generic ops whose indexing maps do
// numpy broadcasting; scalar arithmetic is built by ScalarBuilder.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_CONVERSION_TILETOLINALG_TILETOLINALG_H
#define AICC_LIB_CONVERSION_TILETOLINALG_TILETOLINALG_H

#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

namespace aicc::tile_to_linalg {

using mlir::Location;
using mlir::OpBuilder;
using mlir::Type;
using mlir::Value;

/// uiN becomes iN; tensor encodings are dropped.
class SignlessTypeConverter : public mlir::TypeConverter {
public:
  SignlessTypeConverter();
};

/// Whether `type` (an original, tile-level element type) is unsigned. i1 is
/// treated as unsigned: booleans widen to 0 or 1.
bool isUnsigned(Type type);

/// The element type of a tensor value or type.
Type elementTypeOf(Type tensorType);
Type elementTypeOf(Value tensor);

/// Builds scalar arithmetic in a linalg body. `original` element types give
/// signedness; values are signless.
struct ScalarBuilder {
  OpBuilder &b;
  Location loc;

  Value constant(Type type, double value);
  Value unary(tile::UnaryKind kind, Value x, Type original,
              std::optional<double> alpha, std::optional<double> beta);
  Value binary(tile::BinaryKind kind, Value lhs, Value rhs, Type original);
  Value compare(tile::ComparePredicate predicate, Value lhs, Value rhs,
                Type original);
  Value classify(tile::ClassifyKind kind, Value x);
  /// Converts `x` from `from` to `to` (original element types) with ONNX
  /// Cast semantics.
  Value convert(Value x, Type from, Type to);
  /// The identity of a reduction (0 for sums, lowest value for max, ...).
  Value reductionIdentity(tile::ReduceKind kind, Type type, bool isUnsigned);
  /// Folds `element` into the running `accumulator` of a reduction.
  Value accumulate(tile::ReduceKind kind, Value accumulator, Value element,
                   bool isUnsigned);

  Value maximum(Value a, Value b, bool isUnsigned);
  Value minimum(Value a, Value b, bool isUnsigned);
};

/// An `index` constant.
Value indexConstant(OpBuilder &b, Location loc, int64_t value);

/// tensor.empty of `type`, taking dynamic sizes from `like` (a value whose
/// shape matches `type` in the dynamic dimensions).
Value emptyTensor(OpBuilder &b, Location loc, mlir::RankedTensorType type,
                  mlir::ValueRange like = {});

/// The indexing map that reads an operand of `shape` broadcast (numpy rules)
/// to a result of rank `resultRank` with `resultShape`.
mlir::AffineMap broadcastMap(mlir::MLIRContext *context,
                             llvm::ArrayRef<int64_t> shape,
                             llvm::ArrayRef<int64_t> resultShape);

/// linalg.generic over every element of `resultType`, reading `inputs`
/// broadcast to it; `body` computes one element from the input scalars.
Value buildElementwise(
    OpBuilder &b, Location loc, mlir::RankedTensorType resultType,
    mlir::ValueRange inputs,
    llvm::function_ref<Value(OpBuilder &, Location, mlir::ValueRange)> body);

/// Collapses `value` to 1-D and expands it to `type` (a static reshape).
Value reshapeTensor(OpBuilder &b, Location loc, Value value,
                    mlir::RankedTensorType type);

/// Registration, one function per pattern file.
void populateElementwisePatterns(mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
/// How convolutions are lowered: `panel` > 0 to products with a right-hand
/// side packed into panels of that many output positions (also used for
/// static float matrix products); `direct`, as one generic over output
/// positions and filter taps, with no patch matrix.
struct ConvLowering {
  int64_t panel = 0;
  bool direct = false;
};
void populateContractionPatterns(mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns,
                                 ConvLowering conv = {});
void populateReductionPatterns(mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns);
void populateDataMovementPatterns(mlir::TypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);

} // namespace aicc::tile_to_linalg

#endif // AICC_LIB_CONVERSION_TILETOLINALG_TILETOLINALG_H
