//===- QuantOps.cpp - The quantization scheme, quantize, dequantize -------===//

#include "Tile/IR/QuantArithmetic.h"
#include "Tile/IR/TileOpUtils.h"
#include "Tile/IR/TileOps.h"

using namespace mlir;
using namespace aicc::tile;
using namespace aicc::tile::detail;

//===----------------------------------------------------------------------===//
// QuantAttr
//===----------------------------------------------------------------------===//

LogicalResult QuantAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                DenseElementsAttr scales,
                                DenseElementsAttr zeroPoints, int64_t axis,
                                int64_t blockSize) {
  if (!scales || !isa<FloatType>(scales.getElementType()))
    return emitError() << "quantization scales must be floats";
  if (axis < 0)
    return emitError() << "quantization axis must be non-negative, got "
                       << axis;
  if (blockSize < 0)
    return emitError() << "block_size must be non-negative, got " << blockSize;
  int64_t rank = scales.getType().getRank();
  if (rank == 0 && blockSize != 0)
    return emitError() << "per-tensor scales cannot have a block_size";
  if (rank > 1 && blockSize == 0)
    return emitError() << "scales of rank " << rank << " need a block_size";
  if (zeroPoints) {
    if (zeroPoints.getType().getShape() != scales.getType().getShape())
      return emitError() << "zero points of shape "
                         << formatShape(zeroPoints.getType().getShape())
                         << " do not match scales of shape "
                         << formatShape(scales.getType().getShape());
    Type element = zeroPoints.getElementType();
    if (!isInteger(element) && !isFloat8(element))
      return emitError() << "zero points must be integers or fp8, got "
                         << element;
  }
  return success();
}

bool QuantAttr::hasZeroZeroPoints() const {
  DenseElementsAttr zeroPoints = getZeroPoints();
  if (!zeroPoints)
    return true;
  if (isa<FloatType>(zeroPoints.getElementType()))
    return llvm::all_of(zeroPoints.getValues<APFloat>(),
                        [](const APFloat &v) { return v.isZero(); });
  return llvm::all_of(zeroPoints.getValues<APInt>(),
                      [](const APInt &v) { return v.isZero(); });
}

LogicalResult QuantAttr::verifyFor(function_ref<InFlightDiagnostic()> emitError,
                                   RankedTensorType stored) const {
  Type element = stored.getElementType();
  if (DenseElementsAttr zeroPoints = getZeroPoints())
    if (zeroPoints.getElementType() != element)
      return emitError() << "zero points of type "
                         << zeroPoints.getElementType()
                         << " do not match the stored type " << element;
  if (isFloat8(element) && !hasZeroZeroPoints())
    return emitError() << "fp8 quantization needs zero points of zero";
  if (isPerTensor())
    return success();
  int64_t rank = stored.getRank();
  int64_t axis = getAxis();
  if (axis >= rank)
    return emitError() << "quantization axis " << axis
                       << " is out of range for rank " << rank;
  ArrayRef<int64_t> scales = getScales().getType().getShape();
  int64_t size = stored.getDimSize(axis);
  if (!isBlocked()) {
    if (!ShapedType::isDynamic(size) && scales[0] != size)
      return emitError() << scales[0] << " scales for " << size
                         << " elements along axis " << axis;
    return success();
  }
  if (static_cast<int64_t>(scales.size()) != rank)
    return emitError() << "blocked scales of rank " << scales.size()
                       << " for a tensor of rank " << rank;
  for (int64_t dim = 0; dim < rank; ++dim) {
    int64_t extent = stored.getDimSize(dim);
    if (ShapedType::isDynamic(extent))
      continue;
    int64_t expected =
        dim == axis ? (extent + getBlockSize() - 1) / getBlockSize() : extent;
    if (scales[dim] != expected)
      return emitError() << "blocked scales of shape " << formatShape(scales)
                         << " do not fit a tensor of shape "
                         << formatShape(stored.getShape()) << " in blocks of "
                         << getBlockSize() << " along axis " << axis;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeOp, DequantizeOp
//===----------------------------------------------------------------------===//

/// Checks the quantized side of a quantize or dequantize: `stored`'s element
/// type is an integer of at most `maxBits` or an fp8 type, and the scheme
/// fits it.
static LogicalResult verifyStored(Operation *op, Type type, QuantAttr quant,
                                  unsigned maxBits) {
  auto stored = cast<RankedTensorType>(type);
  Type element = stored.getElementType();
  auto integer = dyn_cast<IntegerType>(element);
  if (!(integer && isInteger(integer) && integer.getWidth() <= maxBits) &&
      !isFloat8(element))
    return op->emitOpError()
           << "stores " << element << "; expected an integer of at most "
           << maxBits << " bits or an fp8 type";
  return quant.verifyFor([&] { return op->emitOpError(); }, stored);
}

LogicalResult QuantizeOp::verify() {
  if (!isFloat(getInput().getType().getElementType()))
    return emitOpError() << "quantizes floats, got "
                         << getInput().getType().getElementType();
  return verifyStored(*this, getResult().getType(), getQuant(), 16);
}

LogicalResult DequantizeOp::verify() {
  if (!isFloat(getResult().getType().getElementType()))
    return emitOpError() << "dequantizes into floats, got "
                         << getResult().getType().getElementType();
  return verifyStored(*this, getInput().getType(), getQuant(), 32);
}

//===----------------------------------------------------------------------===//
// MatmulInt4Op
//===----------------------------------------------------------------------===//

LogicalResult MatmulInt4Op::verify() {
  RankedTensorType lhs = getLhs().getType(), packed = getPacked().getType(),
                   scales = getScales().getType(),
                   zeroPoints = getZeroPoints().getType(),
                   result = getResult().getType();
  int64_t group = getGroupSize();
  if (!isFloat(lhs.getElementType()) || lhs.getRank() < 1)
    return emitOpError() << "multiplies a float tensor of rank 1 or more, got "
                         << lhs;
  int64_t k = lhs.getShape().back();
  if (group < 2 || group % 2 != 0)
    return emitOpError() << "group_size must be even and positive, got "
                         << group;
  if (ShapedType::isDynamic(k) || k % group != 0)
    return emitOpError() << "the reduced dimension must be a static multiple "
                            "of group_size "
                         << group << ", got " << lhs;
  auto isByte = [](Type t) { return t.isInteger(8); };
  if (!packed.hasStaticShape() || packed.getRank() != 2 ||
      !isByte(packed.getElementType()) || packed.getDimSize(1) != k / 2)
    return emitOpError() << "packed must be a static N x " << k / 2
                         << " tensor of 8-bit integers, got " << packed;
  int64_t n = packed.getDimSize(0);
  SmallVector<int64_t> perGroup{n, k / group};
  if (scales.getShape() != ArrayRef<int64_t>(perGroup) ||
      !isFloat(scales.getElementType()))
    return emitOpError() << "scales must be " << n << " x " << k / group
                         << " floats, got " << scales;
  if (zeroPoints.getShape() != ArrayRef<int64_t>(perGroup) ||
      !isByte(zeroPoints.getElementType()))
    return emitOpError() << "zero_points must be " << n << " x " << k / group
                         << " 8-bit integers, got " << zeroPoints;
  SmallVector<int64_t> shape(lhs.getShape());
  shape.back() = n;
  if (result.getShape() != ArrayRef<int64_t>(shape) ||
      result.getElementType() != lhs.getElementType())
    return emitOpError() << "result must be "
                         << RankedTensorType::get(shape, lhs.getElementType())
                         << ", got " << result;
  return success();
}
