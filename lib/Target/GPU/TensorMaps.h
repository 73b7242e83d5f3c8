//===- TensorMaps.h - TMA tensor maps of a GPU launch plan ------*- C++ -*-===//
//
// A wgmma kernel that reads its operands through the tensor memory
// accelerator takes, as an i64 parameter, the device address of a
// CUtensorMap the runtime encodes when a context is created. After
// outlining, `main` builds each such parameter as an
// `nvgpu.tma.create.descriptor` of a view of one of the model's buffers,
// cast to i64; this is the bundle's description of it (aicc_tensor_map).
// Private to the GPU targets.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_GPU_TENSORMAPS_H
#define AICC_LIB_TARGET_GPU_TENSORMAPS_H

#include "aicc/bundle_format.h"

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir {
class Block;
class Operation;
} // namespace mlir

namespace aicc {

/// Whether `op`, on the host, only builds a tensor map parameter: the
/// descriptor, its cast to i64, and the views and casts of its buffer that
/// only those use.
bool buildsTensorMap(mlir::Operation *op);

/// Whether `value`, a kernel operand, is a tensor map parameter.
bool isTensorMap(mlir::Value value);

/// The tensor map `value` (isTensorMap) describes, its buffer one of the
/// arguments of `body` (`bufferOf` names the buffer of each, and
/// `bufferBytes` gives its size); fails with a diagnostic on the
/// descriptor when it is not a strided view of one, or reaches past it.
mlir::FailureOr<aicc_tensor_map>
describeTensorMap(mlir::Value value, mlir::Block &body,
                  llvm::function_ref<aicc_buffer_ref(unsigned)> bufferOf,
                  llvm::function_ref<uint64_t(unsigned)> bufferBytes);

} // namespace aicc

#endif // AICC_LIB_TARGET_GPU_TENSORMAPS_H
