//===- TileToLinalg.h - tile ops to linalg, for every target ----*- C++ -*-===//
//
// The conversion every target runs, and what a target's own contraction
// forms build on. It works on the tile ops' original types to know
// signedness (uiN vs iN) and on converted, signless operands to build the
// arithmetic. Element-wise work is built as linalg.generic ops whose
// indexing maps do numpy broadcasting; scalar arithmetic is built by
// ScalarBuilder. A target that wants matrix products or convolutions in a
// form of its own (the CPU's packed panels, the GPUs' direct convolutions)
// gives the conversion a ContractionStrategy; everything else is shared.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_CONVERSION_TILETOLINALG_TILETOLINALG_H
#define AICC_CONVERSION_TILETOLINALG_TILETOLINALG_H

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

/// The indexing maps of the generic tile.matmul_int4 lowers to, for a
/// result of rank `outer` + 1: loops over the result's outer dimensions
/// and n (parallel), then the group, the byte of the group and the nibble
/// of the byte (reductions); maps of the input viewed as [..., K/g, g/2,
/// 2], the packed weight as [N, K/g, g/2], the scales and the zero points
/// ([N, K/g] each) and the result. aicc-gpu-int4-products recognizes the
/// generic by them.
llvm::SmallVector<mlir::AffineMap> int4ProductMaps(mlir::MLIRContext *context,
                                                   int64_t outer);

/// Collapses `value` to 1-D and expands it to `type` (a static reshape).
Value reshapeTensor(OpBuilder &b, Location loc, Value value,
                    mlir::RankedTensorType type);

/// Registration, one function per pattern file.
void populateElementwisePatterns(mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
class ContractionStrategy;
void populateMatmulPatterns(mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns,
                            const ContractionStrategy *strategy);
void populateConvolutionPatterns(mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns,
                                 const ContractionStrategy *strategy);
void populatePoolingPatterns(mlir::TypeConverter &converter,
                             mlir::RewritePatternSet &patterns);
void populateReductionPatterns(mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns);
void populateDataMovementPatterns(mlir::TypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// Contractions, and the targets' forms of them
//===----------------------------------------------------------------------===//

/// A convolution as the conversion hands it to a strategy: an unpadded
/// N x C x D... input, an M x C/groups x K... filter, no bias.
struct Convolution {
  Value input, filter;
  mlir::RankedTensorType resultType;
  llvm::ArrayRef<int64_t> strides, dilations;
  /// The low then the high padding of each spatial dimension.
  llvm::ArrayRef<int64_t> padding;
  int64_t groups;
  bool inputUnsigned, filterUnsigned;
};

/// How a target wants its contractions built. The shared conversion asks
/// the strategy first and builds its own plain forms where it declines: a
/// product as one generic over (batch..., m, n, k), a convolution as the
/// patches of its input times its filter, or as one generic over output
/// positions and taps where a product would be degenerate.
class ContractionStrategy {
public:
  virtual ~ContractionStrategy();
  /// A static [m, k] x [k, n] product (`rhsTransposed`: the right-hand
  /// side is [n, k]) of result `type`, or null for the plain one.
  virtual Value product(OpBuilder &b, Location loc, Value lhs, Value rhs,
                        mlir::RankedTensorType type, bool rhsTransposed,
                        bool lhsUnsigned, bool rhsUnsigned) const;
  /// A channels-first convolution, or null for the plain one.
  virtual Value convolution(OpBuilder &b, Location loc,
                            const Convolution &conv) const;
  /// Whether the plain convolution is always the direct generic over
  /// output positions and taps (no patch matrix).
  virtual bool directConvolutions() const { return false; }
};

/// Converts every tile op of `module` (function signatures and control flow
/// along), with `strategy`'s contraction forms where it has them (null:
/// the plain ones).
mlir::LogicalResult convertTileToLinalg(mlir::ModuleOp module,
                                        const ContractionStrategy *strategy);

/// The building blocks of contractions, for the strategies too.
///
/// A tensor of `type` filled with `value` (dynamic sizes from `like`).
Value filled(OpBuilder &b, Location loc, mlir::RankedTensorType type,
             Value value, mlir::ValueRange like = {});
/// `acc + x * y` in the accumulator's type, `x` and `y` widened to it.
Value multiplyAccumulate(OpBuilder &b, Location loc, Value x, Value y,
                         Value acc, bool xUnsigned, bool yUnsigned);
/// A linalg.generic that copies `source` into `target`: the loops run over
/// `read`'s dimensions, reading the source through `read` and writing the
/// target through `write`.
Value copyThrough(OpBuilder &b, Location loc, Value source, Value target,
                  mlir::AffineMap read, mlir::AffineMap write);
/// A copy of `source` into `target`, whose shape is the source's with unit
/// dimensions inserted at `unitDims`, as a linalg op the CPU target
/// distributes among threads and vectorizes.
Value copyIntoUnitExpanded(OpBuilder &b, Location loc, Value source,
                           Value target, llvm::ArrayRef<int64_t> unitDims);
/// Static slices.
Value sliceOf(OpBuilder &b, Location loc, Value source,
              llvm::ArrayRef<int64_t> offsets, llvm::ArrayRef<int64_t> sizes,
              llvm::ArrayRef<int64_t> strides = {});
Value insertInto(OpBuilder &b, Location loc, Value source, Value dest,
                 llvm::ArrayRef<int64_t> offsets);
/// The most window taps a depthwise convolution or a channels-last max
/// pooling is unrolled into (one operand per tap: 7x7).
constexpr int64_t kMaxTaps = 49;
/// The index along each spatial dimension of kernel tap `t` (row-major
/// over the kernel's extents).
llvm::SmallVector<int64_t> tapIndex(int64_t t, llvm::ArrayRef<int64_t> kernel);
/// Pads `x` (N x C x spatial, or N x spatial x C with `channelsLast`) by
/// `low`/`high` per spatial dimension with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value x,
                 llvm::ArrayRef<int64_t> low, llvm::ArrayRef<int64_t> high,
                 Value value, bool channelsLast = false);
/// `type` with dimension `dim` split into (groups, size / groups), and the
/// reassociation that merges it back.
mlir::RankedTensorType
splitGroupsType(mlir::RankedTensorType type, int64_t dim, int64_t groups,
                llvm::SmallVector<mlir::ReassociationIndices> &merge);
/// The sizes of a grouped N-d convolution of an [n, g * c, spatial...]
/// input by a [g * m, c, kernel...] filter into an [n, g * m, out...]
/// result.
struct ConvolutionSizes {
  int64_t batch;
  int64_t channels, outChannels; ///< a group's, c and m
  llvm::ArrayRef<int64_t> kernel, outSpatial;
  int64_t taps;      ///< the kernel's positions
  int64_t positions; ///< the result's spatial positions, P
  int64_t reduction; ///< K = c * taps
};
ConvolutionSizes convolutionSizes(mlir::RankedTensorType inputType,
                                  mlir::RankedTensorType filterType,
                                  mlir::RankedTensorType resultType,
                                  int64_t groups);
/// Splits dimension `dim` of `x` into (groups, size / groups).
Value splitGroups(OpBuilder &b, Location loc, Value x, int64_t dim,
                  int64_t groups);
/// The element-wise sum over `taps` taps of tap input t times tap weight t
/// (`operands`: the tap inputs, then the weights, read through `maps`, the
/// output's last), floats: a depthwise convolution unrolled over its
/// window.
Value sumOfTapProducts(OpBuilder &b, Location loc,
                       mlir::RankedTensorType resultType,
                       mlir::ValueRange operands,
                       llvm::ArrayRef<mlir::AffineMap> maps, int64_t taps);

} // namespace aicc::tile_to_linalg

#endif // AICC_CONVERSION_TILETOLINALG_TILETOLINALG_H
