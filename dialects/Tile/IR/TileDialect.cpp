//===- TileDialect.cpp - The tile dialect and its attributes --------------===//

#include "Tile/IR/TileDialect.h"
#include "Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace aicc::tile;

#include "Tile/IR/TileAttrInterfaces.cpp.inc"
#include "Tile/IR/TileDialect.cpp.inc"
#include "Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Tile/IR/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  registerTileDialectOperations(this);
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Tile/IR/TileAttrs.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

//===----------------------------------------------------------------------===//
// EncodingAttr
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<DenseI64ArrayAttr>>
aicc::tile::parseTileLevels(AsmParser &parser) {
  SmallVector<DenseI64ArrayAttr> levels;
  auto parseLevel = [&]() -> ParseResult {
    SmallVector<int64_t> sizes;
    if (parser.parseDimensionList(sizes, /*allowDynamic=*/false,
                                  /*withTrailingX=*/false))
      return failure();
    levels.push_back(DenseI64ArrayAttr::get(parser.getContext(), sizes));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseLevel))
    return failure();
  return levels;
}

void aicc::tile::printTileLevels(AsmPrinter &printer,
                                 ArrayRef<DenseI64ArrayAttr> levels) {
  printer << '[';
  llvm::interleaveComma(levels, printer, [&](DenseI64ArrayAttr level) {
    llvm::interleave(level.asArrayRef(), printer, "x");
  });
  printer << ']';
}

FailureOr<SmallVector<int64_t>> aicc::tile::parseDimOrder(AsmParser &parser) {
  SmallVector<int64_t> order;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(order.emplace_back());
      }))
    return failure();
  return order;
}

void aicc::tile::printDimOrder(AsmPrinter &printer, ArrayRef<int64_t> order) {
  printer << '[';
  llvm::interleaveComma(order, printer);
  printer << ']';
}

LogicalResult EncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<DenseI64ArrayAttr> tiles,
                                   ArrayRef<int64_t> order, StringAttr target,
                                   KernelConfigAttrInterface config) {
  if (tiles.empty() && order.empty() && !target && !config)
    return emitError() << "encoding carries no tiles, order, target or config";

  for (auto [index, level] : llvm::enumerate(tiles)) {
    ArrayRef<int64_t> sizes = level.asArrayRef();
    if (sizes.empty())
      return emitError() << "tile level " << index << " is empty";
    if (sizes.size() != tiles.front().asArrayRef().size())
      return emitError() << "tile level " << index << " has rank "
                         << sizes.size() << " but level 0 has rank "
                         << tiles.front().size();
    for (int64_t size : sizes)
      if (size <= 0)
        return emitError() << "tile level " << index
                           << " has a non-positive size " << size;
    if (index == 0)
      continue;
    ArrayRef<int64_t> outer = tiles[index - 1].asArrayRef();
    for (auto [dim, inner] : llvm::enumerate(sizes))
      if (outer[dim] % inner != 0)
        return emitError() << "tile level " << index << " size " << inner
                           << " does not divide level " << index - 1 << " size "
                           << outer[dim] << " in dimension " << dim;
  }

  if (!order.empty()) {
    if (!tiles.empty() && order.size() != tiles.front().asArrayRef().size())
      return emitError() << "order has " << order.size()
                         << " entries but the tiles have rank "
                         << tiles.front().size();
    SmallVector<bool> seen(order.size(), false);
    for (int64_t dim : order) {
      if (dim < 0 || dim >= static_cast<int64_t>(order.size()) || seen[dim])
        return emitError() << "order is not a permutation of [0, "
                           << order.size() << ")";
      seen[dim] = true;
    }
  }

  // Targets are plug-ins: the dialect knows none by name.
  if (target && target.getValue().empty())
    return emitError() << "target is empty";
  if (config && failed(config.verifyTiles(emitError, tiles)))
    return failure();
  return success();
}

LogicalResult EncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  int64_t rank = shape.size();
  if (!getTiles().empty() &&
      static_cast<int64_t>(getTiles().front().size()) != rank)
    return emitError() << "encoding tiles have rank "
                       << getTiles().front().size()
                       << " but the tensor has rank " << rank;
  if (!getOrder().empty() && static_cast<int64_t>(getOrder().size()) != rank)
    return emitError() << "encoding order has " << getOrder().size()
                       << " entries but the tensor has rank " << rank;
  return success();
}

SmallVector<int64_t> EncodingAttr::getOrderOrDefault(int64_t rank) const {
  if (!getOrder().empty())
    return llvm::to_vector(getOrder());
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name == "tile.group") {
    auto group = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!group || !group.getType().isInteger(64) || group.getInt() < 0)
      return op->emitOpError() << "'tile.group' must be a non-negative i64, "
                                  "got "
                               << attribute.getValue();
    return success();
  }
  return op->emitOpError() << "has an unknown attribute '" << name
                           << "' of the tile dialect";
}
