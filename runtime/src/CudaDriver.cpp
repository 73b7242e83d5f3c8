//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// libcuda.so.1 is opened with dlopen when a model with CUDA steps loads, so
// that the runtime has no build or link dependency on CUDA and a process
// without a GPU still runs CPU models. The symbol names are the versioned
// ones cuda.h maps the API names to (cuMemAlloc is cuMemAlloc_v2, ...),
// as CUDA 12 and 13 drivers export them; the numbers below are cuda.h's.
//
//===----------------------------------------------------------------------===//

#include "GpuDriver.h"

#include "Error.h"

#include "aicc/bundle_format.h"

#include <cstddef>

using namespace aicc::runtime;

namespace {
// CUresult values (cuda.h) after which the context is unusable until the
// process exits: the CUDA documentation calls these sticky.
const int kStickyErrors[] = {
    4,   // CUDA_ERROR_DEINITIALIZED
    214, // CUDA_ERROR_ECC_UNCORRECTABLE
    220, // CUDA_ERROR_NVLINK_UNCORRECTABLE
    226, // CUDA_ERROR_CONTAINED
    700, // CUDA_ERROR_ILLEGAL_ADDRESS
    702, // CUDA_ERROR_LAUNCH_TIMEOUT
    709, // CUDA_ERROR_CONTEXT_IS_DESTROYED
    710, // CUDA_ERROR_ASSERT
    714, // CUDA_ERROR_HARDWARE_STACK_ERROR
    715, // CUDA_ERROR_ILLEGAL_INSTRUCTION
    716, // CUDA_ERROR_MISALIGNED_ADDRESS
    717, // CUDA_ERROR_INVALID_ADDRESS_SPACE
    718, // CUDA_ERROR_INVALID_PC
    719, // CUDA_ERROR_LAUNCH_FAILED
    721, // CUDA_ERROR_TENSOR_MEMORY_LEAK
};

// CUdevice_attribute values.
enum : int {
  kMaxThreadsPerBlock = 1,
  kMaxBlockDimX = 2,
  kMaxGridDimX = 5,
  kClockRate = 13,
  kMultiprocessorCount = 16,
  kMemoryClockRate = 36,
  kGlobalMemoryBusWidth = 37,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kMaxSharedMemoryPerBlockOptin = 97,
};

const GpuSymbol kSymbols[] = {
    AICC_GPU_SYMBOL(init, "cuInit"),
    AICC_GPU_SYMBOL(driverGetVersion, "cuDriverGetVersion"),
    AICC_GPU_SYMBOL(deviceGetCount, "cuDeviceGetCount"),
    AICC_GPU_SYMBOL(deviceGet, "cuDeviceGet"),
    AICC_GPU_SYMBOL(deviceGetName, "cuDeviceGetName"),
    AICC_GPU_SYMBOL(deviceGetAttribute, "cuDeviceGetAttribute"),
    AICC_GPU_SYMBOL(primaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    AICC_GPU_SYMBOL(primaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
    AICC_GPU_SYMBOL(ctxPushCurrent, "cuCtxPushCurrent_v2"),
    AICC_GPU_SYMBOL(ctxPopCurrent, "cuCtxPopCurrent_v2"),
    AICC_GPU_SYMBOL(moduleLoadDataEx, "cuModuleLoadDataEx"),
    AICC_GPU_SYMBOL(moduleUnload, "cuModuleUnload"),
    AICC_GPU_SYMBOL(moduleGetFunction, "cuModuleGetFunction"),
    AICC_GPU_SYMBOL(funcSetAttribute, "cuFuncSetAttribute"),
    AICC_GPU_SYMBOL(memAlloc, "cuMemAlloc_v2"),
    AICC_GPU_SYMBOL(memFree, "cuMemFree_v2"),
    AICC_GPU_SYMBOL(memHostAlloc, "cuMemHostAlloc"),
    AICC_GPU_SYMBOL(memFreeHost, "cuMemFreeHost"),
    AICC_GPU_SYMBOL(memcpyHtoD, "cuMemcpyHtoD_v2"),
    AICC_GPU_SYMBOL(memcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
    AICC_GPU_SYMBOL(memcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
    AICC_GPU_SYMBOL(streamCreate, "cuStreamCreate"),
    AICC_GPU_SYMBOL(streamDestroy, "cuStreamDestroy_v2"),
    AICC_GPU_SYMBOL(streamSynchronize, "cuStreamSynchronize"),
    AICC_GPU_SYMBOL(streamBeginCapture, "cuStreamBeginCapture_v2"),
    AICC_GPU_SYMBOL(streamEndCapture, "cuStreamEndCapture"),
    AICC_GPU_SYMBOL(graphInstantiate, "cuGraphInstantiateWithFlags"),
    AICC_GPU_SYMBOL(graphLaunch, "cuGraphLaunch"),
    AICC_GPU_SYMBOL(graphExecDestroy, "cuGraphExecDestroy"),
    AICC_GPU_SYMBOL(graphDestroy, "cuGraphDestroy"),
    AICC_GPU_SYMBOL(eventCreate, "cuEventCreate"),
    AICC_GPU_SYMBOL(eventRecord, "cuEventRecord"),
    AICC_GPU_SYMBOL(eventSynchronize, "cuEventSynchronize"),
    // _v2 since CUDA 12.8; older drivers have only the first version.
    AICC_GPU_SYMBOL(eventElapsedTime,
                    "cuEventElapsedTime_v2|cuEventElapsedTime"),
    AICC_GPU_SYMBOL(eventDestroy, "cuEventDestroy_v2"),
    AICC_GPU_SYMBOL(launchKernel, "cuLaunchKernel"),
    AICC_GPU_OPTIONAL_SYMBOL(getErrorName, "cuGetErrorName"),
    AICC_GPU_OPTIONAL_SYMBOL(getErrorString, "cuGetErrorString"),
    // Since CUDA 12.0; needed only by models with TMA tensor maps.
    AICC_GPU_OPTIONAL_SYMBOL(tensorMapEncodeTiled, "cuTensorMapEncodeTiled"),
};

aicc_status_t describeCuda(const GpuDriver &driver, GpuDevice &device) {
  const GpuApi &api = driver.api;
  char name[256] = {};
  auto attribute = [&](int which, uint32_t &value) {
    int result = 0;
    if (api.deviceGetAttribute(&result, which, device.handle) == 0 &&
        result > 0)
      value = static_cast<uint32_t>(result);
  };
  uint32_t major = 0, minor = 0;
  if (GpuResult r = api.deviceGet(&device.handle, device.ordinal))
    return fail(AICC_DEVICE_UNAVAILABLE, "cannot open CUDA device " +
                                             std::to_string(device.ordinal) +
                                             ": " + driver.errorText(r));
  attribute(kComputeCapabilityMajor, major);
  attribute(kComputeCapabilityMinor, minor);
  if (major == 0)
    return fail(AICC_DEVICE_UNAVAILABLE,
                "cannot read the compute capability of CUDA device " +
                    std::to_string(device.ordinal));
  if (api.deviceGetName(name, sizeof(name) - 1, device.handle) != 0)
    name[0] = 0;
  device.name =
      name[0] ? name : "CUDA device " + std::to_string(device.ordinal);
  device.major = major;
  device.minor = minor;
  device.arch = "sm_" + std::to_string(major) + std::to_string(minor);
  attribute(kMaxThreadsPerBlock, device.maxThreadsPerBlock);
  for (int d = 0; d < 3; ++d) {
    attribute(kMaxBlockDimX + d, device.maxBlock[d]);
    attribute(kMaxGridDimX + d, device.maxGrid[d]);
  }
  attribute(kMaxSharedMemoryPerBlockOptin, device.maxSharedBytes);
  attribute(kMultiprocessorCount, device.multiprocessors);
  attribute(kClockRate, device.clockKHz);
  attribute(kMemoryClockRate, device.memoryClockKHz);
  attribute(kGlobalMemoryBusWidth, device.memoryBusBits);
  return AICC_OK;
}

} // namespace

const GpuVendor aicc::runtime::cudaVendor = {
    "CUDA",
    "CUDA driver",
    "libcuda.so.1",
    "AICC_CUDA_DRIVER",
    "cuInit",
    kSymbols,
    sizeof(kSymbols) / sizeof(kSymbols[0]),
    kStickyErrors,
    sizeof(kStickyErrors) / sizeof(kStickyErrors[0]),
    2,   // CUDA_ERROR_OUT_OF_MEMORY
    200, // CUDA_ERROR_INVALID_IMAGE
    1,   // CU_STREAM_NON_BLOCKING
    1,   // CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
    0,   // CU_EVENT_DEFAULT
    8,   // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    5,   // CU_JIT_ERROR_LOG_BUFFER
    6,   // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
    describeCuda,
    AICC_TARGET_CUDA,
    "cuda",
    "AICC_CUDA_DEVICE",
    false,
};
