//===- ReductionOps.cpp - reductions, softmax, top-k, normalization -------===//

#include "Tile/IR/ConstantFold.h"
#include "Tile/IR/TileOpUtils.h"
#include "Tile/IR/TileOps.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace aicc::tile;
using namespace aicc::tile::detail;

/// The shape left after reducing `axes` of `shape`.
static SmallVector<int64_t>
reducedShape(ArrayRef<int64_t> shape, ArrayRef<int64_t> axes, bool keepDims) {
  SmallVector<int64_t> result;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(dim)))
      result.push_back(size);
    else if (keepDims)
      result.push_back(1);
  }
  return result;
}

/// Checks that the first operand has float (or, unless `floatOnly`, integer)
/// elements.
static LogicalResult checkElementType(Operation *op, bool floatOnly) {
  Type element =
      cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  if (floatOnly ? !isFloat(element) : !isNumeric(element))
    return op->emitOpError() << "needs a " << (floatOnly ? "float" : "numeric")
                             << " element type, got " << element;
  return success();
}

/// Checks the element type and the axis of an op whose result type is its
/// operand's (so that no type inference checks the axis).
static LogicalResult checkAlongAxis(Operation *op, int64_t axis,
                                    bool floatOnly) {
  if (failed(checkElementType(op, floatOnly)))
    return failure();
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  return checkAxis(op->getLoc(), "axis", axis, type.getRank());
}

//===----------------------------------------------------------------------===//
// ReduceOp, ArgReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  ArrayRef<int64_t> axes = adaptor.getAxes();
  if (axes.empty())
    return emitOptionalError(loc, "axes must not be empty");
  for (auto [index, axis] : llvm::enumerate(axes)) {
    if (failed(checkAxis(loc, "axis", axis, input.getRank())))
      return failure();
    if (index > 0 && axes[index - 1] >= axis)
      return emitOptionalError(loc, "axes must be distinct and ascending");
  }
  inferred.push_back(RankedTensorType::get(
      reducedShape(input.getShape(), axes, adaptor.getKeepDims()),
      input.getElementType()));
  return success();
}

LogicalResult ReduceOp::verify() {
  Type element = getInput().getType().getElementType();
  bool floatOnly = getKind() == ReduceKind::l2 ||
                   getKind() == ReduceKind::log_sum ||
                   getKind() == ReduceKind::log_sum_exp;
  if (floatOnly ? !isFloat(element) : !isNumeric(element))
    return emitOpError() << "'" << stringifyReduceKind(getKind())
                         << "' needs a " << (floatOnly ? "float" : "numeric")
                         << " element type, got " << element;
  return success();
}

OpFoldResult ReduceOp::fold(FoldAdaptor adaptor) {
  return fold::reduce(getKind(), adaptor.getInput(), getAxes(), getType());
}

LogicalResult ArgReduceOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(loc, "axis", axis, input.getRank())))
    return failure();
  inferred.push_back(RankedTensorType::get(
      reducedShape(input.getShape(), {axis}, adaptor.getKeepDims()),
      IntegerType::get(context, 64)));
  return success();
}

LogicalResult ArgReduceOp::verify() {
  return checkElementType(*this, /*floatOnly=*/false);
}

//===----------------------------------------------------------------------===//
// SoftmaxOp, LogSoftmaxOp, CumsumOp
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  return checkAlongAxis(*this, getAxis(), /*floatOnly=*/true);
}

LogicalResult LogSoftmaxOp::verify() {
  return checkAlongAxis(*this, getAxis(), /*floatOnly=*/true);
}

LogicalResult CumsumOp::verify() {
  return checkAlongAxis(*this, getAxis(), /*floatOnly=*/false);
}

//===----------------------------------------------------------------------===//
// TopKOp
//===----------------------------------------------------------------------===//

LogicalResult TopKOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  int64_t axis = adaptor.getAxis();
  int64_t k = adaptor.getK();
  if (failed(checkAxis(loc, "axis", axis, input.getRank())))
    return failure();
  int64_t size = input.getDimSize(axis);
  if (k < 0 || (!ShapedType::isDynamic(size) && k > size))
    return emitOptionalError(loc, "k = ", k,
                             " is out of range for a dimension "
                             "of size ",
                             formatShape({size}));
  SmallVector<int64_t> shape(input.getShape());
  shape[axis] = k;
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  inferred.push_back(
      RankedTensorType::get(shape, IntegerType::get(context, 64)));
  return success();
}

LogicalResult TopKOp::verify() {
  return checkElementType(*this, /*floatOnly=*/false);
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// Checks that every parameter has the input's float element type.
static LogicalResult checkNormElementTypes(Loc loc, RankedTensorType input,
                                           ValueRange parameters) {
  if (!isFloat(input.getElementType()))
    return emitOptionalError(loc, "needs a float element type, got ",
                             input.getElementType());
  for (Value parameter : parameters) {
    RankedTensorType type = tensorTypeOf(parameter);
    if (!type || type.getElementType() != input.getElementType())
      return emitOptionalError(loc,
                               "parameters must have the input's element "
                               "type ",
                               input.getElementType());
  }
  return success();
}

/// Checks per-channel parameters of an `N x C x ...` input of rank at least
/// `minRank`, and infers the result type (the input's).
static LogicalResult inferChannelNorm(Loc loc, Value inputValue,
                                      ValueRange parameters, int64_t minRank,
                                      SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(inputValue);
  if (!input || input.getRank() < minRank)
    return emitOptionalError(loc, "input must have rank ", minRank,
                             " or more (N x C x ...)");
  if (failed(checkNormElementTypes(loc, input, parameters)))
    return failure();
  for (Value parameter : parameters)
    if (failed(checkPerChannel(loc, "a parameter", parameter,
                               input.getDimSize(1))))
      return failure();
  inferred.push_back(
      RankedTensorType::get(input.getShape(), input.getElementType()));
  return success();
}

static LogicalResult checkEpsilon(Operation *op, double epsilon) {
  if (!(epsilon >= 0.0))
    return op->emitOpError() << "epsilon must be non-negative, got " << epsilon;
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(loc, "axis", axis, input.getRank())))
    return failure();
  SmallVector<Value> parameters = {adaptor.getScale()};
  if (adaptor.getBias())
    parameters.push_back(adaptor.getBias());
  if (failed(checkNormElementTypes(loc, input, parameters)))
    return failure();
  ArrayRef<int64_t> normalized = input.getShape().drop_front(axis);
  for (Value parameter : parameters) {
    ArrayRef<int64_t> shape = tensorTypeOf(parameter).getShape();
    SmallVector<int64_t> joined;
    if (shape.size() > normalized.size() ||
        failed(broadcastShapes(std::nullopt, {normalized, shape}, joined)) ||
        failed(verifyCompatibleShape(joined, normalized)))
      return emitOptionalError(loc, "parameter shape ", formatShape(shape),
                               " does not broadcast to the normalized shape ",
                               formatShape(normalized));
  }
  inferred.push_back(
      RankedTensorType::get(input.getShape(), input.getElementType()));
  return success();
}

LogicalResult LayerNormOp::verify() {
  return checkEpsilon(*this, getEpsilon().convertToDouble());
}

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferChannelNorm(loc, adaptor.getInput(),
                          {adaptor.getScale(), adaptor.getBias(),
                           adaptor.getMean(), adaptor.getVariance()},
                          2, inferred);
}

LogicalResult BatchNormOp::verify() {
  return checkEpsilon(*this, getEpsilon().convertToDouble());
}

LogicalResult
InstanceNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                 Adaptor adaptor,
                                 SmallVectorImpl<Type> &inferred) {
  return inferChannelNorm(loc, adaptor.getInput(),
                          {adaptor.getScale(), adaptor.getBias()}, 3, inferred);
}

LogicalResult InstanceNormOp::verify() {
  return checkEpsilon(*this, getEpsilon().convertToDouble());
}

LogicalResult GroupNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  if (failed(inferChannelNorm(loc, adaptor.getInput(),
                              {adaptor.getScale(), adaptor.getBias()}, 2,
                              inferred)))
    return failure();
  int64_t groups = adaptor.getNumGroups();
  int64_t channels = tensorTypeOf(adaptor.getInput()).getDimSize(1);
  if (groups < 1)
    return emitOptionalError(loc, "num_groups must be positive, got ", groups);
  if (!ShapedType::isDynamic(channels) && channels % groups != 0)
    return emitOptionalError(loc, "channels ", channels,
                             " are not divisible by num_groups ", groups);
  return success();
}

LogicalResult GroupNormOp::verify() {
  return checkEpsilon(*this, getEpsilon().convertToDouble());
}

LogicalResult LrnOp::verify() {
  if (getInput().getType().getRank() < 2)
    return emitOpError("input must have rank 2 or more (N x C x ...)");
  if (!isFloat(getInput().getType().getElementType()))
    return emitOpError() << "needs a float element type, got "
                         << getInput().getType().getElementType();
  if (static_cast<int64_t>(getSize()) < 1)
    return emitOpError() << "size must be positive, got "
                         << static_cast<int64_t>(getSize());
  return success();
}
