//===- Limits.h - What a GPU gives a kernel (private) -----------*- C++ -*-===//
//
// The limits tile selection chooses blocks by: multiprocessors, lanes of a
// warp or wave, threads, shared memory and registers, per architecture.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_GPU_TRANSFORMS_LIMITS_H
#define AICC_LIB_TARGET_GPU_TRANSFORMS_LIMITS_H

#include "AiccGPU/IR/AiccGPUDialect.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aicc::gpu {

/// One GPU's (or, from `tightestLimits`, several GPUs') limits on a kernel.
struct GPULimits {
  /// Whose table the limits come from.
  Vendor vendor;
  /// Multiprocessors (NVIDIA SMs, AMD compute units) that blocks fill.
  int64_t multiprocessors;
  /// Lanes of a warp (32) or wave (64 on CDNA).
  int64_t warpSize;
  int64_t maxThreadsPerBlock;
  /// Threads a multiprocessor holds (over several GPUs, the greatest
  /// common divisor: blocks whose threads divide it fill each one whole).
  int64_t maxThreadsPerMultiprocessor;
  /// Shared memory (LDS) one block may have, dynamic included (opt-in).
  int64_t sharedPerBlock;
  int64_t sharedPerMultiprocessor;
  /// 32-bit registers of a multiprocessor and most of one thread (AMD: a
  /// lane's VGPRs, accumulation registers included).
  int64_t registersPerMultiprocessor;
  int64_t maxRegistersPerThread;
};

/// The widest load or store one lane makes, on every GPU of the table
/// (ld.global.v4.b32, global_load_dwordx4).
constexpr int64_t kWidestLaneAccessBytes = 16;

/// NN of an NVIDIA architecture "sm_NN" or "sm_NNa"; none for others.
std::optional<int> nvidiaArchNumber(llvm::StringRef arch);

/// The limits of `arch` ("sm_80", "sm_90a", "gfx90a", ...): an NVIDIA
/// architecture not in the table takes the closest older one's (the
/// oldest's, sm_60, if older still), an AMD one gfx90a's; none for
/// anything else.
std::optional<GPULimits> limitsOf(llvm::StringRef arch);

/// The default architectures of `vendor`'s GPUs, oldest first: NVIDIA's
/// sm_80 and sm_90, AMD's gfx90a and gfx942.
std::vector<std::string> defaultArchs(Vendor vendor);

/// Limits every GPU of `archs` meets (the least of each; threads a
/// multiprocessor: their greatest common divisor), the multiprocessors of
/// the largest (blocks that fill it fill the others);
/// none when one is unknown or not `vendor`'s. Empty `archs`: `vendor`'s
/// default architectures (`defaultArchs`).
std::optional<GPULimits> tightestLimits(llvm::ArrayRef<std::string> archs,
                                        Vendor vendor);

} // namespace aicc::gpu

#endif // AICC_LIB_TARGET_GPU_TRANSFORMS_LIMITS_H
