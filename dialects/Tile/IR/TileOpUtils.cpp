//===- TileOpUtils.cpp - Helpers shared by the tile op families -----------===//

#include "Tile/IR/TileOpUtils.h"
#include "Tile/IR/QuantArithmetic.h"
#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;

namespace aicc::tile {

bool areCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [want, have] : llvm::zip_equal(inferred, actual)) {
    auto wantTensor = dyn_cast<RankedTensorType>(want);
    auto haveTensor = dyn_cast<RankedTensorType>(have);
    if (!wantTensor || !haveTensor) {
      if (want != have)
        return false;
      continue;
    }
    if (wantTensor.getElementType() != haveTensor.getElementType() ||
        failed(verifyCompatibleShape(wantTensor.getShape(),
                                     haveTensor.getShape())))
      return false;
    // A written static size may refine an inferred `?`, but a written `?`
    // must not forget a size that inference knows.
    for (auto [w, h] :
         llvm::zip_equal(wantTensor.getShape(), haveTensor.getShape()))
      if (!ShapedType::isDynamic(w) && ShapedType::isDynamic(h))
        return false;
  }
  return true;
}

namespace detail {

std::string formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "[]";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          os << '?';
        else
          os << dim;
      },
      "x");
  return text;
}

RankedTensorType tensorTypeOf(Value value) {
  return value ? dyn_cast<RankedTensorType>(value.getType()) : nullptr;
}

bool isFloat(Type type) { return isa<FloatType>(type); }
bool isInteger(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() > 1;
}
bool isBool(Type type) { return type.isInteger(1); }

FailureOr<Type> contractionResultType(Loc loc, Type lhs, Type rhs) {
  // 8-bit floats (fp8 products of quantized models) sum in f32.
  if (isFloat8(lhs) && lhs == rhs)
    return Type(Float32Type::get(lhs.getContext()));
  if (isFloat(lhs) && lhs == rhs)
    return lhs;
  if (isInteger(lhs) && isInteger(rhs)) {
    unsigned width =
        std::max(lhs.getIntOrFloatBitWidth(), rhs.getIntOrFloatBitWidth());
    if (width < 32)
      return Type(IntegerType::get(lhs.getContext(), 32));
    if (lhs == rhs)
      return lhs;
  }
  return emitOptionalError(loc, "operand element types ", lhs, " and ", rhs,
                           " cannot be multiplied (expected floats of one "
                           "type, or integers)");
}

LogicalResult broadcastShapes(Loc loc, ArrayRef<ArrayRef<int64_t>> shapes,
                              SmallVectorImpl<int64_t> &result) {
  result.assign(shapes.front().begin(), shapes.front().end());
  for (ArrayRef<int64_t> shape : shapes.drop_front()) {
    SmallVector<int64_t> next;
    if (!OpTrait::util::getBroadcastedShape(result, shape, next)) {
      std::string all;
      llvm::raw_string_ostream os(all);
      llvm::interleave(
          shapes, os, [&](ArrayRef<int64_t> s) { os << formatShape(s); }, ", ");
      return emitOptionalError(loc, "operand shapes ", all,
                               " are not broadcast-compatible");
    }
    result = std::move(next);
  }
  return success();
}

LogicalResult checkAxis(Loc loc, StringRef what, int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= rank)
    return emitOptionalError(loc, what, " ", axis, " is out of range for rank ",
                             rank);
  return success();
}

LogicalResult checkArray(Loc loc, StringRef what, ArrayRef<int64_t> values,
                         size_t count, int64_t minimum) {
  if (values.size() != count)
    return emitOptionalError(loc, what, " has ", values.size(),
                             " entries, expected ", count);
  for (int64_t value : values)
    if (value < minimum)
      return emitOptionalError(loc, what, " entry ", value, " is less than ",
                               minimum);
  return success();
}

LogicalResult checkPerChannel(Loc loc, StringRef what, Value value,
                              int64_t size) {
  RankedTensorType type = tensorTypeOf(value);
  if (!type || type.getRank() != 1)
    return emitOptionalError(loc, what, " must be a 1-D tensor");
  int64_t have = type.getDimSize(0);
  if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(size) &&
      have != size)
    return emitOptionalError(loc, what, " has ", have, " values, expected ",
                             size);
  return success();
}

int64_t windowOutputSize(int64_t size, int64_t kernel, int64_t stride,
                         int64_t dilation, int64_t padLo, int64_t padHi,
                         bool ceilMode) {
  if (ShapedType::isDynamic(size) || ShapedType::isDynamic(kernel))
    return ShapedType::kDynamic;
  // The attributes come from the file: computed in 128 bits, a size that
  // int64 cannot hold becomes 0, which the verifiers refuse as an empty
  // output (checkOutputSizes) instead of wrapping around.
  if (stride <= 0)
    return 0;
  using Wide = __int128;
  Wide span =
      Wide(size) + padLo + padHi - Wide(dilation) * (Wide(kernel) - 1) - 1;
  Wide out =
      (ceilMode
           ? (span >= 0 ? (span + stride - 1) / stride : -((-span) / stride))
           : (span >= 0 ? span / stride : -((-span + stride - 1) / stride))) +
      1;
  if (ceilMode && out > 1 && (out - 1) * stride >= Wide(size) + padLo)
    --out;
  if (out > std::numeric_limits<int64_t>::max() ||
      out < std::numeric_limits<int64_t>::min() + 1)
    return 0;
  return static_cast<int64_t>(out);
}

LogicalResult checkOutputSizes(Loc loc, ArrayRef<int64_t> shape,
                               size_t firstSpatial) {
  for (size_t dim = firstSpatial; dim < shape.size(); ++dim)
    if (!ShapedType::isDynamic(shape[dim]) && shape[dim] <= 0)
      return emitOptionalError(loc, "spatial dimension ", dim - firstSpatial,
                               " of the output would have size ", shape[dim]);
  return success();
}

} // namespace detail
} // namespace aicc::tile
