//===- ElementwiseOps.cpp - unary, binary, compare, select, cast ----------===//

#include "Tile/IR/ConstantFold.h"
#include "Tile/IR/TileOpUtils.h"
#include "Tile/IR/TileOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace aicc::tile;
using namespace aicc::tile::detail;

//===----------------------------------------------------------------------===//
// UnaryOp
//===----------------------------------------------------------------------===//

namespace {
/// What a unary kind accepts: its element-type class and its parameters.
struct UnarySignature {
  enum class Domain { Numeric, Float, Bool, Integer } domain;
  bool alpha = false;
  bool beta = false;
};
} // namespace

static UnarySignature getSignature(UnaryKind kind) {
  using D = UnarySignature::Domain;
  switch (kind) {
  case UnaryKind::abs:
  case UnaryKind::neg:
  case UnaryKind::sign:
  case UnaryKind::relu:
    return {D::Numeric};
  case UnaryKind::leaky_relu:
  case UnaryKind::elu:
  case UnaryKind::celu:
  case UnaryKind::thresholded_relu:
    return {D::Float, /*alpha=*/true};
  case UnaryKind::selu:
  case UnaryKind::hard_sigmoid:
  case UnaryKind::shrink:
    return {D::Float, /*alpha=*/true, /*beta=*/true};
  case UnaryKind::logical_not:
    return {D::Bool};
  case UnaryKind::bitwise_not:
    return {D::Integer};
  default:
    return {D::Float};
  }
}

LogicalResult UnaryOp::verify() {
  UnarySignature signature = getSignature(getKind());
  Type element = getInput().getType().getElementType();
  StringRef kind = stringifyUnaryKind(getKind());
  using D = UnarySignature::Domain;
  switch (signature.domain) {
  case D::Numeric:
    if (!isNumeric(element))
      return emitOpError() << "'" << kind
                           << "' needs a numeric element type, got " << element;
    break;
  case D::Float:
    if (!isFloat(element))
      return emitOpError() << "'" << kind
                           << "' needs a float element type, got " << element;
    break;
  case D::Bool:
    if (!isBool(element))
      return emitOpError() << "'" << kind << "' needs an i1 element type, got "
                           << element;
    break;
  case D::Integer:
    if (!isInteger(element))
      return emitOpError() << "'" << kind
                           << "' needs an integer element type, got "
                           << element;
    break;
  }
  if (signature.alpha != static_cast<bool>(getAlpha()))
    return emitOpError() << "'" << kind << "' "
                         << (signature.alpha ? "requires" : "takes no")
                         << " 'alpha'";
  if (signature.beta != static_cast<bool>(getBeta()))
    return emitOpError() << "'" << kind << "' "
                         << (signature.beta ? "requires" : "takes no")
                         << " 'beta'";
  return success();
}

OpFoldResult UnaryOp::fold(FoldAdaptor adaptor) {
  auto toDouble = [](std::optional<APFloat> v) -> std::optional<double> {
    return v ? std::optional<double>(v->convertToDouble()) : std::nullopt;
  };
  return fold::unary(getKind(), adaptor.getInput(), toDouble(getAlpha()),
                     toDouble(getBeta()), getType());
}

//===----------------------------------------------------------------------===//
// BinaryOp, CompareOp, SelectOp
//===----------------------------------------------------------------------===//

OpFoldResult BinaryOp::fold(FoldAdaptor adaptor) {
  return fold::binary(getKind(), adaptor.getLhs(), adaptor.getRhs(), getType());
}

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  return fold::compare(getPredicate(), adaptor.getLhs(), adaptor.getRhs(),
                       getType());
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  // A uniform condition picks one operand, when it already has the result
  // type (no broadcasting left to do).
  if (auto condition =
          dyn_cast_or_null<SplatElementsAttr>(adaptor.getCondition())) {
    Value chosen =
        condition.getSplatValue<bool>() ? getTrueValue() : getFalseValue();
    if (chosen.getType() == getType())
      return chosen;
  }
  return fold::select(adaptor.getCondition(), adaptor.getTrueValue(),
                      adaptor.getFalseValue(), getType());
}

/// Broadcasts the operands of an element-wise op whose listed operands share
/// one element type, and returns that type.
static FailureOr<Type> inferElementwise(Loc loc, ValueRange operands,
                                        SmallVectorImpl<int64_t> &shape) {
  SmallVector<ArrayRef<int64_t>> shapes;
  Type element;
  for (Value operand : operands) {
    RankedTensorType type = tensorTypeOf(operand);
    if (!type)
      return emitOptionalError(loc, "operands must be ranked tensors");
    if (element && type.getElementType() != element)
      return emitOptionalError(loc, "operand element types ", element, " and ",
                               type.getElementType(), " differ");
    element = type.getElementType();
    shapes.push_back(type.getShape());
  }
  if (failed(broadcastShapes(loc, shapes, shape)))
    return failure();
  return element;
}

LogicalResult BinaryOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  SmallVector<int64_t> shape;
  FailureOr<Type> element =
      inferElementwise(loc, {adaptor.getLhs(), adaptor.getRhs()}, shape);
  if (failed(element))
    return failure();
  inferred.push_back(RankedTensorType::get(shape, *element));
  return success();
}

LogicalResult BinaryOp::verify() {
  Type element = getLhs().getType().getElementType();
  StringRef kind = stringifyBinaryKind(getKind());
  switch (getKind()) {
  case BinaryKind::logical_and:
  case BinaryKind::logical_or:
  case BinaryKind::logical_xor:
    if (!isBool(element))
      return emitOpError() << "'" << kind << "' needs an i1 element type, got "
                           << element;
    return success();
  case BinaryKind::bitwise_and:
  case BinaryKind::bitwise_or:
  case BinaryKind::bitwise_xor:
  case BinaryKind::shift_left:
  case BinaryKind::shift_right:
    if (!isInteger(element))
      return emitOpError() << "'" << kind
                           << "' needs an integer element type, got "
                           << element;
    return success();
  default:
    if (!isNumeric(element))
      return emitOpError() << "'" << kind
                           << "' needs a numeric element type, got " << element;
    return success();
  }
}

LogicalResult CompareOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  SmallVector<int64_t> shape;
  if (failed(
          inferElementwise(loc, {adaptor.getLhs(), adaptor.getRhs()}, shape)))
    return failure();
  inferred.push_back(
      RankedTensorType::get(shape, IntegerType::get(context, 1)));
  return success();
}

LogicalResult CompareOp::verify() {
  Type element = getLhs().getType().getElementType();
  bool equality = getPredicate() == ComparePredicate::eq ||
                  getPredicate() == ComparePredicate::ne;
  if (!equality && !isNumeric(element))
    return emitOpError() << "'" << stringifyComparePredicate(getPredicate())
                         << "' needs a numeric element type, got " << element;
  return success();
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  SmallVector<int64_t> shape;
  FailureOr<Type> element = inferElementwise(
      loc, {adaptor.getTrueValue(), adaptor.getFalseValue()}, shape);
  RankedTensorType condition = tensorTypeOf(adaptor.getCondition());
  if (failed(element) || !condition)
    return failure();
  SmallVector<int64_t> full;
  if (failed(broadcastShapes(loc, {condition.getShape(), shape}, full)))
    return failure();
  inferred.push_back(RankedTensorType::get(full, *element));
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return fold::cast(adaptor.getInput(), getType());
}

/// Whether converting every value of `from` to `to` loses nothing, so that a
/// later conversion from `to` sees exactly the original value. `i1` is a
/// boolean (0 or 1); signless integers are signed.
static bool isExactConversion(Type from, Type to) {
  if (from == to)
    return true;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat)
    return llvm::APFloatBase::isRepresentableBy(fromFloat.getFloatSemantics(),
                                                toFloat.getFloatSemantics());
  auto fromInt = dyn_cast<IntegerType>(from);
  if (!fromInt)
    return false;
  // Bits of magnitude a value of `from` can need, and whether it can be
  // negative.
  bool isSigned = !fromInt.isUnsigned() && fromInt.getWidth() > 1;
  unsigned magnitude = fromInt.getWidth() == 1 ? 1
                       : isSigned              ? fromInt.getWidth() - 1
                                               : fromInt.getWidth();
  if (toFloat)
    return magnitude <=
           llvm::APFloatBase::semanticsPrecision(toFloat.getFloatSemantics());
  auto toInt = dyn_cast<IntegerType>(to);
  if (!toInt || toInt.getWidth() == 1)
    return false;
  if (toInt.isUnsigned())
    return !isSigned && magnitude <= toInt.getWidth();
  return magnitude <= toInt.getWidth() - 1;
}

namespace {
/// cast(cast(x)) -> cast(x), or x, when the inner cast is exact.
struct FoldExactCastChain : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<CastOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a cast");
    Type source = inner.getInput().getType().getElementType();
    Type middle = inner.getType().getElementType();
    if (!isExactConversion(source, middle))
      return rewriter.notifyMatchFailure(op, "inner cast may change values");
    if (inner.getInput().getType() == op.getType()) {
      rewriter.replaceOp(op, inner.getInput());
      return success();
    }
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getType(), inner.getInput());
    return success();
  }
};
} // namespace

void CastOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<FoldExactCastChain>(context);
}

//===----------------------------------------------------------------------===//
// ClassifyOp
//===----------------------------------------------------------------------===//

LogicalResult ClassifyOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  inferred.push_back(
      RankedTensorType::get(input.getShape(), IntegerType::get(context, 1)));
  return success();
}

LogicalResult ClassifyOp::verify() {
  Type element = getInput().getType().getElementType();
  if (!isFloat(element))
    return emitOpError() << "needs a float element type, got " << element;
  return success();
}
