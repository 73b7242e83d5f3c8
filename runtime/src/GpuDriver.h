//===- GpuDriver.h - The GPU calls the executor makes -----------*- C++ -*-===//
//
// CUDA's driver API and HIP's module API share the shape of every call the
// executor needs: a status integer returned, handles as opaque pointers,
// device addresses as 64-bit integers, and the same argument order. So one
// table of function pointers serves both, filled by dlsym from libcuda.so.1
// (CudaDriver.cpp) or libamdhip64.so (HipDriver.cpp); the executor
// (GpuExecutor.cpp) is written once against it. Nothing here includes a
// vendor header: the runtime builds on machines with neither toolkit.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_RUNTIME_GPUDRIVER_H
#define AICC_RUNTIME_GPUDRIVER_H

#include "aicc/runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace aicc::runtime {

/// A device address (CUdeviceptr, hipDeviceptr_t).
using DevicePtr = uint64_t;

/// What one call of the table returned: 0 is success (CUDA_SUCCESS,
/// hipSuccess), anything else the vendor's error code.
using GpuResult = int;

/// The vendor calls, each with the C signature both vendors give it. A
/// pointer is null where the loaded library lacks an optional call.
struct GpuApi {
  GpuResult (*init)(unsigned flags);
  GpuResult (*driverGetVersion)(int *version);
  GpuResult (*deviceGetCount)(int *count);
  GpuResult (*deviceGet)(int *device, int ordinal);
  GpuResult (*deviceGetName)(char *name, int length, int device);
  GpuResult (*deviceGetAttribute)(int *value, int attribute, int device);
  // The device's context: CUDA retains its primary context and pushes it
  // around every call; HIP selects the device instead (setDevice).
  GpuResult (*primaryCtxRetain)(void **context, int device);
  GpuResult (*primaryCtxRelease)(int device);
  GpuResult (*ctxPushCurrent)(void *context);
  GpuResult (*ctxPopCurrent)(void **context);
  GpuResult (*setDevice)(int device);
  GpuResult (*moduleLoadDataEx)(void **module, const void *image,
                                unsigned optionCount, int *options,
                                void **optionValues);
  GpuResult (*moduleUnload)(void *module);
  GpuResult (*moduleGetFunction)(void **function, void *module,
                                 const char *name);
  GpuResult (*funcSetAttribute)(void *function, int attribute, int value);
  GpuResult (*memAlloc)(DevicePtr *address, size_t size);
  GpuResult (*memFree)(DevicePtr address);
  GpuResult (*memHostAlloc)(void **pointer, size_t size, unsigned flags);
  GpuResult (*memFreeHost)(void *pointer);
  GpuResult (*memcpyHtoD)(DevicePtr destination, const void *source,
                          size_t size);
  GpuResult (*memcpyHtoDAsync)(DevicePtr destination, const void *source,
                               size_t size, void *stream);
  GpuResult (*memcpyDtoHAsync)(void *destination, DevicePtr source, size_t size,
                               void *stream);
  GpuResult (*streamCreate)(void **stream, unsigned flags);
  GpuResult (*streamDestroy)(void *stream);
  GpuResult (*streamSynchronize)(void *stream);
  GpuResult (*streamBeginCapture)(void *stream, int mode);
  GpuResult (*streamEndCapture)(void *stream, void **graph);
  GpuResult (*graphInstantiate)(void **exec, void *graph,
                                unsigned long long flags);
  GpuResult (*graphLaunch)(void *exec, void *stream);
  GpuResult (*graphExecDestroy)(void *exec);
  GpuResult (*graphDestroy)(void *graph);
  GpuResult (*eventCreate)(void **event, unsigned flags);
  GpuResult (*eventRecord)(void *event, void *stream);
  GpuResult (*eventSynchronize)(void *event);
  GpuResult (*eventElapsedTime)(float *milliseconds, void *start, void *end);
  GpuResult (*eventDestroy)(void *event);
  GpuResult (*launchKernel)(void *function, unsigned gridX, unsigned gridY,
                            unsigned gridZ, unsigned blockX, unsigned blockY,
                            unsigned blockZ, unsigned sharedBytes, void *stream,
                            void **params, void **extra);
  // Error names: CUDA returns them through a pointer, HIP as the result.
  GpuResult (*getErrorName)(GpuResult error, const char **name);
  GpuResult (*getErrorString)(GpuResult error, const char **text);
  const char *(*hipGetErrorName)(GpuResult error);
  const char *(*hipGetErrorString)(GpuResult error);
  // HIP only: fills a hipDeviceProp_tR0600.
  GpuResult (*hipGetDeviceProperties)(void *properties, int device);
  // CUDA 12 and newer: encodes a CUtensorMap (kCuTensorMapSize bytes) for
  // the tensor memory accelerator. The enumerations are cuda.h's, below;
  // globalStrides has rank - 1 entries.
  GpuResult (*tensorMapEncodeTiled)(
      void *tensorMap, int dataType, uint32_t rank, void *globalAddress,
      const uint64_t *globalDim, const uint64_t *globalStrides,
      const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
      int swizzle, int l2Promotion, int oobFill);
};

/// The values of cuda.h's CUtensorMap enumerations the runtime passes to
/// tensorMapEncodeTiled.
enum CuTensorMapValue : int {
  kCuTensorMapUint8 = 0,    ///< CU_TENSOR_MAP_DATA_TYPE_UINT8
  kCuTensorMapFloat16 = 6,  ///< CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  kCuTensorMapFloat32 = 7,  ///< CU_TENSOR_MAP_DATA_TYPE_FLOAT32
  kCuTensorMapBFloat16 = 9, ///< CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
  kCuTensorMapInterleaveNone = 0,
  kCuTensorMapSwizzleNone = 0, ///< then 32B 1, 64B 2, 128B 3
  kCuTensorMapL2Promotion128B = 2,
  kCuTensorMapOobFillNone = 0, ///< zeros out of bounds
};

/// Bytes of a CUtensorMap, and its alignment as cuda.h declares it (the
/// driver and the PTX ISA ask for 64).
constexpr uint64_t kCuTensorMapSize = 128;

/// What the executor learns about the device it runs on.
struct GpuDevice {
  int ordinal = 0;
  int handle = 0;
  std::string name;   ///< "NVIDIA H100 80GB HBM3"
  std::string arch;   ///< "sm_90", "gfx90a"
  unsigned major = 0; ///< CUDA compute capability
  unsigned minor = 0;
  int driverVersion = 0; ///< cuDriverGetVersion / hipDriverGetVersion
  uint32_t maxThreadsPerBlock = 1024;
  uint32_t maxBlock[3] = {1024, 1024, 64};
  uint32_t maxGrid[3] = {0x7fffffffu, 65535, 65535};
  uint32_t maxSharedBytes = 48 * 1024; ///< dynamic, opted in
  // For profiles' roofline; 0 where the driver does not say.
  uint32_t multiprocessors = 0;
  uint32_t clockKHz = 0;       ///< the highest clock of the multiprocessors
  uint32_t memoryClockKHz = 0; ///< the memory's, data moving on both edges
  uint32_t memoryBusBits = 0;
};

/// The least time, in milliseconds, `bytes` of memory traffic and `flops`
/// on `math` (aicc_math_unit) can take on `device` at its peak bandwidth and
/// arithmetic rate (the roofline bound), from its clocks and the per-clock
/// rates of its architecture; 0 where neither peak is known.
double rooflineMilliseconds(const GpuDevice &device, uint64_t bytes,
                            uint64_t flops, uint32_t math);

/// One entry of a vendor's symbol list: the GpuApi field to fill and the
/// names to try, '|'-separated, the first the library exports winning.
struct GpuSymbol {
  size_t field; ///< offsetof(GpuApi, the function pointer)
  const char *names;
  bool optional; ///< may stay null
};

/// An entry of a symbol list: AICC_GPU_SYMBOL(init, "cuInit").
#define AICC_GPU_SYMBOL(field, names)                                          \
  ::aicc::runtime::GpuSymbol {                                                 \
    offsetof(::aicc::runtime::GpuApi, field), names, false                     \
  }
#define AICC_GPU_OPTIONAL_SYMBOL(field, names)                                 \
  ::aicc::runtime::GpuSymbol {                                                 \
    offsetof(::aicc::runtime::GpuApi, field), names, true                      \
  }

struct GpuDriver;

/// Everything that differs between the vendors, as data: CudaDriver.cpp
/// and HipDriver.cpp each define one.
struct GpuVendor {
  const char *name;         ///< "CUDA", "HIP"
  const char *libraryKind;  ///< "CUDA driver", "HIP runtime"
  const char *library;      ///< "libcuda.so.1"
  const char *pathVariable; ///< "AICC_CUDA_DRIVER": overrides `library`
  const char *initName;     ///< "cuInit", for messages
  const GpuSymbol *symbols;
  size_t symbolCount;
  /// Error codes after which the device's context is unusable.
  const int *stickyErrors;
  size_t stickyErrorCount;
  int outOfMemoryError;
  int invalidImageError;
  // Flag and enumeration values.
  int streamNonBlocking;
  int captureModeThreadLocal;
  int eventDefault;
  int funcAttributeMaxDynamicShared; ///< -1 where there is none
  int jitErrorLogBuffer;             ///< -1 where there is none
  int jitErrorLogBufferSize;
  /// Reads the device's name, architecture and limits.
  aicc_status_t (*describe)(const GpuDriver &driver, GpuDevice &device);
  /// The bundle target whose code objects run on the vendor's GPUs
  /// (AICC_TARGET_CUDA), and its --target name ("cuda").
  uint32_t target;
  const char *targetLabel;
  /// The device ordinal's environment variable ("AICC_CUDA_DEVICE").
  const char *deviceVariable;
  /// Code objects run only on the architecture they were built for
  /// (AMD's); else a cubin runs on later minor versions of its major and
  /// PTX compiles for any later architecture (NVIDIA's).
  bool exactArchOnly;
};

/// A loaded vendor library. Loaded once per process and path, never
/// unloaded (drivers do not support being unloaded and loaded again).
struct GpuDriver {
  const GpuVendor *vendor = nullptr;
  std::string path; ///< what was dlopened
  GpuApi api{};

  /// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was
  /// encountered)"; the number where the library has no name for it.
  std::string errorText(GpuResult error) const;
  bool isSticky(GpuResult error) const;
};

/// The CUDA driver and the HIP runtime.
extern const GpuVendor cudaVendor;
extern const GpuVendor hipVendor;

/// Returns `vendor`'s library as loaded before, or dlopens it (the path in
/// its environment variable, else its default name), resolves its symbols
/// and initializes it (cuInit, hipInit). On failure returns null and
/// describes why in `problem`, a clause: "no CUDA driver could be loaded:
/// libcuda.so.1: cannot open shared object file: ...".
const GpuDriver *loadGpuDriver(const GpuVendor &vendor, std::string &problem);

} // namespace aicc::runtime

#endif // AICC_RUNTIME_GPUDRIVER_H
