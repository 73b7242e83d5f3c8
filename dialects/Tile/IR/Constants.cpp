//===- Constants.cpp - Compile-time values of tile tensors ----------------===//

#include "Tile/IR/Constants.h"
#include "Tile/IR/TileOps.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;

DenseElementsAttr aicc::tile::numericElements(RankedTensorType type,
                                              ArrayRef<double> values) {
  Type elementType = type.getElementType();
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    SmallVector<APFloat> converted;
    for (double value : values) {
      APFloat f(value);
      bool losesInfo;
      f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      converted.push_back(f);
    }
    return DenseElementsAttr::get(type, converted);
  }
  auto integer = cast<IntegerType>(elementType);
  if (integer.getWidth() == 1) {
    SmallVector<bool> bits;
    for (double value : values)
      bits.push_back(value != 0.0);
    return DenseElementsAttr::get(type, bits);
  }
  SmallVector<APInt> converted;
  for (double value : values)
    converted.emplace_back(integer.getWidth(),
                           static_cast<uint64_t>(int64_t(value)),
                           /*isSigned=*/!integer.isUnsigned(),
                           /*implicitTrunc=*/true);
  return DenseElementsAttr::get(type, converted);
}

ElementsAttr aicc::tile::compileTimeValue(Value value) {
  if (!value)
    return nullptr;
  if (auto weight = value.getDefiningOp<WeightOp>())
    return weight.getValue();
  if (auto constant = value.getDefiningOp<ConstantOp>())
    return constant.getValue();
  return nullptr;
}

Value aicc::tile::createWeight(OpBuilder &builder, Location loc,
                               RankedTensorType type, StringRef name,
                               ArrayRef<char> bytes) {
  auto &blobs =
      DenseResourceElementsHandle::getManagerInterface(builder.getContext());
  DenseResourceElementsHandle handle = blobs.insert(
      name,
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(uint64_t)));
  return WeightOp::create(builder, loc, type,
                          builder.getStringAttr(handle.getKey()),
                          DenseResourceElementsAttr::get(type, handle));
}
