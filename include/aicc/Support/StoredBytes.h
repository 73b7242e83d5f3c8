//===- StoredBytes.h - The bytes a constant attribute holds -----*- C++ -*-===//
//
// Passes that rearrange weights at compile time (packing, half storage,
// horizontal fusion) read a constant's data as raw row-major bytes. Header
// only: it needs no more than the builtin attributes every library links.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_SUPPORT_STOREDBYTES_H
#define AICC_SUPPORT_STOREDBYTES_H

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <optional>

namespace aicc {

/// The row-major bytes of `value` as it holds them: a `dense_resource`
/// blob's data, or a dense attribute's when it holds every element in whole
/// bytes; none for a resource without its blob, a splat (one element
/// stands for all), bools (packed into bits) and other attributes.
inline std::optional<llvm::ArrayRef<char>> storedBytes(mlir::Attribute value) {
  if (auto resource = llvm::dyn_cast<mlir::DenseResourceElementsAttr>(value)) {
    if (mlir::AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
    return std::nullopt;
  }
  auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(value);
  if (!dense || dense.isSplat() || dense.getElementType().isInteger(1))
    return std::nullopt;
  return dense.getRawData();
}

} // namespace aicc

#endif // AICC_SUPPORT_STOREDBYTES_H
