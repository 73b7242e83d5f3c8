//===- AiccGPUDialect.cpp - The GPU targets' kernel configs ---------------===//

#include "AiccGPU/IR/AiccGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace aicc::gpu;

#include "AiccGPU/IR/AiccGPUDialect.cpp.inc"
#include "AiccGPU/IR/AiccGPUEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "AiccGPU/IR/AiccGPUAttrs.cpp.inc"

void AiccGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "AiccGPU/IR/AiccGPUAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Kernel configurations
//===----------------------------------------------------------------------===//

namespace {
using EmitError = function_ref<InFlightDiagnostic()>;

/// Each of `values` (named by `names`) is at least 1.
LogicalResult positive(EmitError emitError, StringRef attr,
                       ArrayRef<std::pair<StringRef, int64_t>> values) {
  for (auto [name, value] : values)
    if (value < 1)
      return emitError() << "#aicc_gpu." << attr << " " << name
                         << " must be at least 1, got " << value;
  return success();
}

/// `threads` threads fit a block.
LogicalResult fitsBlock(EmitError emitError, StringRef attr, int64_t threads) {
  if (threads > kMaxBlockThreads)
    return emitError() << "#aicc_gpu." << attr << " takes " << threads
                       << " threads, past a block's " << kMaxBlockThreads;
  return success();
}

/// `tiles` has `levels` levels of rank `rank`.
LogicalResult shaped(EmitError emitError, StringRef attr,
                     ArrayRef<DenseI64ArrayAttr> tiles, size_t levels,
                     int64_t rank, StringRef over) {
  if (tiles.size() != levels || tiles.front().size() != rank)
    return emitError() << "#aicc_gpu." << attr << " takes " << levels
                       << " tile levels over " << over << ", got "
                       << tiles.size() << " of rank "
                       << (tiles.empty() ? 0 : tiles.front().size());
  return success();
}
} // namespace

LogicalResult ContractionConfigAttr::verify(EmitError emitError, Engine engine,
                                            int64_t stages, int64_t splits,
                                            StringRef signature,
                                            Origin origin) {
  if (failed(positive(emitError, "contraction",
                      {{"stages", stages}, {"splits", splits}})))
    return failure();
  if (stages > 8)
    return emitError() << "#aicc_gpu.contraction stages must be at most 8, "
                          "got "
                       << stages;
  return success();
}

LogicalResult
ContractionConfigAttr::verifyTiles(EmitError emitError,
                                   ArrayRef<DenseI64ArrayAttr> tiles) const {
  return shaped(emitError, "contraction", tiles, 3, 3,
                "(M, N, K): block, warp, instruction");
}

LogicalResult AttentionConfigAttr::verify(EmitError emitError, int64_t warps,
                                          int64_t shared) {
  if (warps != 1 && warps != 2 && warps != 4)
    return emitError() << "#aicc_gpu.attention warps must be 1, 2 or 4, got "
                       << warps;
  return positive(emitError, "attention", {{"shared", shared}});
}

LogicalResult
AttentionConfigAttr::verifyTiles(EmitError emitError,
                                 ArrayRef<DenseI64ArrayAttr> tiles) const {
  if (failed(shaped(emitError, "attention", tiles, 3, 3,
                    "(queries, keys, head dimension): block, warp, "
                    "instruction")))
    return failure();
  if (tiles[0][0] != 16 * getWarps())
    return emitError() << "#aicc_gpu.attention of " << getWarps()
                       << " warps takes blocks of " << 16 * getWarps()
                       << " query rows, got " << tiles[0][0];
  return success();
}

LogicalResult RowsConfigAttr::verify(EmitError emitError, int64_t warps,
                                     int64_t lanes) {
  if (failed(positive(emitError, "rows", {{"warps", warps}, {"lanes", lanes}})))
    return failure();
  return fitsBlock(emitError, "rows", warps * kWarpLanes);
}

LogicalResult
RowsConfigAttr::verifyTiles(EmitError emitError,
                            ArrayRef<DenseI64ArrayAttr> tiles) const {
  if (failed(shaped(emitError, "rows", tiles, 2, 2,
                    "(rows, reduced): block, warp")))
    return failure();
  if (tiles[0][0] != getWarps() || tiles[1][0] != 1)
    return emitError() << "#aicc_gpu.rows of " << getWarps()
                       << " warps takes blocks of " << getWarps()
                       << " rows and a row a warp";
  return success();
}

LogicalResult MFMAConfigAttr::verify(EmitError emitError, int64_t wavesM,
                                     int64_t wavesN) {
  if (failed(positive(emitError, "mfma",
                      {{"waves_m", wavesM}, {"waves_n", wavesN}})))
    return failure();
  return fitsBlock(emitError, "mfma", wavesM * wavesN * kWaveLanes);
}

LogicalResult
MFMAConfigAttr::verifyTiles(EmitError emitError,
                            ArrayRef<DenseI64ArrayAttr> tiles) const {
  if (failed(shaped(emitError, "mfma", tiles, 3, 3,
                    "(M, N, K): block, wave, instruction")))
    return failure();
  if (tiles[0][0] != tiles[1][0] * getWavesM() ||
      tiles[0][1] != tiles[1][1] * getWavesN())
    return emitError() << "#aicc_gpu.mfma block tile is not " << getWavesM()
                       << " x " << getWavesN() << " wave tiles";
  return success();
}

LogicalResult ElementwiseConfigAttr::verify(EmitError emitError,
                                            int64_t threads, int64_t lanes) {
  if (failed(positive(emitError, "elementwise",
                      {{"threads", threads}, {"lanes", lanes}})))
    return failure();
  if (threads % kWarpLanes != 0)
    return emitError() << "#aicc_gpu.elementwise threads must be whole "
                          "warps of "
                       << kWarpLanes << ", got " << threads;
  return fitsBlock(emitError, "elementwise", threads);
}

LogicalResult
ElementwiseConfigAttr::verifyTiles(EmitError emitError,
                                   ArrayRef<DenseI64ArrayAttr> tiles) const {
  if (failed(shaped(emitError, "elementwise", tiles, 2, 1,
                    "the flattened iterations: block, thread")))
    return failure();
  if (tiles[0][0] != getThreads() * getLanes() || tiles[1][0] != getLanes())
    return emitError() << "#aicc_gpu.elementwise of " << getThreads()
                       << " threads of " << getLanes() << " lanes takes tiles ["
                       << getThreads() * getLanes() << ", " << getLanes()
                       << "]";
  return success();
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

LogicalResult AiccGPUDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute named) {
  StringRef name = named.getName().getValue();
  Attribute value = named.getValue();
  auto fail = [&](StringRef what) {
    return op->emitOpError()
           << "'" << name << "' must be " << what << ", got " << value;
  };
  if (name == kTilesAttr) {
    auto encoding = dyn_cast<aicc::tile::EncodingAttr>(value);
    if (!encoding || !encoding.getConfig() ||
        !isa<AiccGPUDialect>(encoding.getConfig().getDialect()))
      return fail("a #tile.encoding with an aicc_gpu kernel configuration");
    return success();
  }
  if (name == kLaunchFlops || name == kLaunchBytes) {
    auto count = dyn_cast<IntegerAttr>(value);
    if (!count || !count.getType().isInteger(64) || count.getInt() < 0)
      return fail("a non-negative i64");
    return success();
  }
  if (name == kMinBlocksPerMultiprocessor) {
    auto count = dyn_cast<IntegerAttr>(value);
    if (!count || count.getInt() < 1)
      return fail("a positive integer");
    return success();
  }
  if (name == kLaunchMath)
    return isa<MathUnitAttr>(value) ? success() : fail("a #aicc_gpu.math");
  if (name == kLaunchContraction || name == kLaunchTiling ||
      name == kLaunchSource)
    return isa<StringAttr>(value) ? success() : fail("a string");
  if (name == kTensorMapBox)
    return isa<DenseI64ArrayAttr>(value) ? success() : fail("an array of i64");
  return op->emitOpError() << "has an unknown attribute '" << name
                           << "' of the aicc_gpu dialect";
}
