//===- TensorMaps.cpp - TMA tensor maps of a GPU launch plan --------------===//

#include "TensorMaps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <cstring>

using namespace mlir;

namespace {
/// The descriptor that `value` casts to i64, if it is one.
nvgpu::TmaCreateDescriptorOp descriptorOf(Value value) {
  auto cast = value.getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast || cast.getInputs().size() != 1 || cast->getNumResults() != 1 ||
      !cast.getResult(0).getType().isInteger(64))
    return nullptr;
  return cast.getInputs().front().getDefiningOp<nvgpu::TmaCreateDescriptorOp>();
}

uint32_t swizzleBytes(nvgpu::TensorMapSwizzleKind kind) {
  switch (kind) {
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE:
    return 0;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_32B:
    return 32;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_64B:
    return 64;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_128B:
    return 128;
  }
  return 0;
}
} // namespace

bool aicc::buildsTensorMap(Operation *op) {
  if (isa<nvgpu::TmaCreateDescriptorOp>(op))
    return true;
  if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op))
    return cast->getNumResults() == 1 && isTensorMap(cast.getResult(0));
  // The views and casts of a descriptor's buffer, which nothing else uses.
  return isa<ViewLikeOpInterface, memref::CastOp>(op) &&
         isMemoryEffectFree(op) && !op->use_empty() &&
         llvm::all_of(op->getUsers(), buildsTensorMap);
}

bool aicc::isTensorMap(Value value) { return bool(descriptorOf(value)); }

FailureOr<aicc_tensor_map>
aicc::describeTensorMap(Value value, Block &body,
                        llvm::function_ref<aicc_buffer_ref(unsigned)> bufferOf,
                        llvm::function_ref<uint64_t(unsigned)> bufferBytes) {
  nvgpu::TmaCreateDescriptorOp descriptor = descriptorOf(value);
  auto refuse = [&](const Twine &why) -> FailureOr<aicc_tensor_map> {
    descriptor.emitError("cannot describe the tensor map: ") << why;
    return failure();
  };
  auto unranked = descriptor.getTensor().getDefiningOp<memref::CastOp>();
  auto type = unranked ? dyn_cast<MemRefType>(unranked.getSource().getType())
                       : MemRefType();
  if (!type || !type.hasStaticShape() || type.getRank() < 1 ||
      type.getRank() > 5)
    return refuse("its buffer is not a static memref of 1 to 5 dimensions");
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic) || strides.back() != 1)
    return refuse("its buffer is not contiguous in its last dimension with "
                  "static strides");

  // Down the views to the buffer argument: memref.view moves the start by
  // its byte shift, the others keep it and say where they start in their
  // layout's offset.
  uint64_t shift = 0;
  Value source = unranked.getSource();
  while (!isa<BlockArgument>(source) ||
         cast<BlockArgument>(source).getOwner() != &body) {
    Operation *def = source.getDefiningOp();
    if (auto view = dyn_cast_or_null<memref::ViewOp>(def)) {
      std::optional<int64_t> bytes = getConstantIntValue(view.getByteShift());
      if (!bytes || *bytes < 0)
        return refuse("a view of its buffer has no constant byte shift");
      shift += uint64_t(*bytes);
      source = view.getSource();
    } else if (auto like = dyn_cast_or_null<ViewLikeOpInterface>(def)) {
      source = like.getViewSource();
    } else if (auto same = dyn_cast_or_null<memref::CastOp>(def)) {
      source = same.getSource();
    } else {
      return refuse("its buffer is not a view of one of the model's");
    }
  }
  unsigned argument = cast<BlockArgument>(source).getArgNumber();

  Type element = type.getElementType();
  aicc_tensor_map map;
  std::memset(&map, 0, sizeof(map));
  if (element.isF16())
    map.dtype = AICC_DTYPE_FLOAT16;
  else if (element.isBF16())
    map.dtype = AICC_DTYPE_BFLOAT16;
  else if (element.isF32())
    map.dtype = AICC_DTYPE_FLOAT32;
  else if (element.isIntOrFloat() && element.getIntOrFloatBitWidth() == 8)
    map.dtype = AICC_DTYPE_INT8; // 8-bit integers or fp8: TMA moves bytes
  else
    return refuse("its elements are not f16, bf16, f32 or bytes");
  uint64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  auto descriptorType = descriptor.getTensorMap().getType();
  ArrayRef<int64_t> box = descriptorType.getTensor().getShape();
  int64_t rank = type.getRank();
  if (int64_t(box.size()) != rank)
    return refuse("its box and its buffer differ in rank");
  map.buffer = bufferOf(argument);
  map.byte_offset = shift + uint64_t(offset) * elementBytes;
  map.rank = uint32_t(rank);
  map.swizzle = swizzleBytes(descriptorType.getSwizzle());
  // Innermost first; the footprint is where the last element ends.
  uint64_t end = map.byte_offset + elementBytes;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t d = rank - 1 - i;
    map.dims[i] = uint64_t(type.getDimSize(d));
    map.box[i] = uint32_t(box[d]);
    uint64_t stride = uint64_t(strides[d]) * elementBytes;
    if (i > 0)
      map.strides[i - 1] = stride;
    end += (map.dims[i] - 1) * stride;
  }
  if (map.byte_offset % 16 != 0)
    return refuse("its first element is not on 16 bytes");
  if (end > bufferBytes(argument))
    return refuse("it reaches past its buffer");
  return map;
}
