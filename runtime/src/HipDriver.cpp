//===- HipDriver.cpp - The HIP runtime, loaded at run time ----------------===//
//
// libamdhip64.so is opened with dlopen when a model with ROCm steps loads.
// HIP's module API mirrors CUDA's driver API call for call, so it fills the
// same table; what differs is the device description (HIP has no attribute
// for the gfx name: it comes from hipDeviceProp_t) and selecting the device
// (hipSetDevice rather than a pushed context). The numbers are those of
// ROCm 6's hip_runtime_api.h.
//
// No AMD GPU was available while this was written: it compiles and its
// shape follows the CUDA path, which is tested, but it has not run.
//
//===----------------------------------------------------------------------===//

#include "GpuDriver.h"

#include "Error.h"

#include "aicc/bundle_format.h"

#include <cstddef>
#include <cstring>

using namespace aicc::runtime;

namespace {
// hipError_t values after which the device cannot be used again.
const int kStickyErrors[] = {
    214, // hipErrorECCNotCorrectable
    700, // hipErrorIllegalAddress
    702, // hipErrorLaunchTimeOut
    709, // hipErrorContextIsDestroyed
    710, // hipErrorAssert
    719, // hipErrorLaunchFailure
};

// Byte offsets in hipDeviceProp_tR0600 (ROCm 6.0 and later).
constexpr size_t kPropertiesSize = 4096;          // the struct is about 1.5 KiB
constexpr size_t kNameOffset = 0;                 // char name[256]
constexpr size_t kSharedPerBlockOffset = 296;     // size_t sharedMemPerBlock
constexpr size_t kMaxThreadsPerBlockOffset = 320; // int maxThreadsPerBlock
constexpr size_t kGcnArchNameOffset = 1160;       // char gcnArchName[256]

const GpuSymbol kSymbols[] = {
    AICC_GPU_SYMBOL(init, "hipInit"),
    AICC_GPU_SYMBOL(driverGetVersion, "hipDriverGetVersion"),
    AICC_GPU_SYMBOL(deviceGetCount, "hipGetDeviceCount"),
    AICC_GPU_SYMBOL(deviceGet, "hipDeviceGet"),
    AICC_GPU_SYMBOL(deviceGetName, "hipDeviceGetName"),
    AICC_GPU_SYMBOL(setDevice, "hipSetDevice"),
    AICC_GPU_SYMBOL(moduleLoadDataEx, "hipModuleLoadDataEx"),
    AICC_GPU_SYMBOL(moduleUnload, "hipModuleUnload"),
    AICC_GPU_SYMBOL(moduleGetFunction, "hipModuleGetFunction"),
    AICC_GPU_SYMBOL(memAlloc, "hipMalloc"),
    AICC_GPU_SYMBOL(memFree, "hipFree"),
    AICC_GPU_SYMBOL(memHostAlloc, "hipHostMalloc|hipHostAlloc"),
    AICC_GPU_SYMBOL(memFreeHost, "hipHostFree|hipFreeHost"),
    AICC_GPU_SYMBOL(memcpyHtoD, "hipMemcpyHtoD"),
    AICC_GPU_SYMBOL(memcpyHtoDAsync, "hipMemcpyHtoDAsync"),
    AICC_GPU_SYMBOL(memcpyDtoHAsync, "hipMemcpyDtoHAsync"),
    AICC_GPU_SYMBOL(streamCreate, "hipStreamCreateWithFlags"),
    AICC_GPU_SYMBOL(streamDestroy, "hipStreamDestroy"),
    AICC_GPU_SYMBOL(streamSynchronize, "hipStreamSynchronize"),
    AICC_GPU_SYMBOL(streamBeginCapture, "hipStreamBeginCapture"),
    AICC_GPU_SYMBOL(streamEndCapture, "hipStreamEndCapture"),
    AICC_GPU_SYMBOL(graphInstantiate, "hipGraphInstantiateWithFlags"),
    AICC_GPU_SYMBOL(graphLaunch, "hipGraphLaunch"),
    AICC_GPU_SYMBOL(graphExecDestroy, "hipGraphExecDestroy"),
    AICC_GPU_SYMBOL(graphDestroy, "hipGraphDestroy"),
    AICC_GPU_SYMBOL(eventCreate, "hipEventCreateWithFlags"),
    AICC_GPU_SYMBOL(eventRecord, "hipEventRecord"),
    AICC_GPU_SYMBOL(eventSynchronize, "hipEventSynchronize"),
    AICC_GPU_SYMBOL(eventElapsedTime, "hipEventElapsedTime"),
    AICC_GPU_SYMBOL(eventDestroy, "hipEventDestroy"),
    AICC_GPU_SYMBOL(launchKernel, "hipModuleLaunchKernel"),
    AICC_GPU_SYMBOL(hipGetDeviceProperties, "hipGetDevicePropertiesR0600"),
    AICC_GPU_OPTIONAL_SYMBOL(hipGetErrorName, "hipGetErrorName"),
    AICC_GPU_OPTIONAL_SYMBOL(hipGetErrorString, "hipGetErrorString"),
};

aicc_status_t describeHip(const GpuDriver &driver, GpuDevice &device) {
  const GpuApi &api = driver.api;
  if (GpuResult r = api.deviceGet(&device.handle, device.ordinal))
    return fail(AICC_DEVICE_UNAVAILABLE, "cannot open HIP device " +
                                             std::to_string(device.ordinal) +
                                             ": " + driver.errorText(r));
  static_assert(kGcnArchNameOffset + 256 <= kPropertiesSize, "layout");
  alignas(8) char properties[kPropertiesSize] = {};
  if (GpuResult r = api.hipGetDeviceProperties(properties, device.ordinal))
    return fail(AICC_DEVICE_UNAVAILABLE,
                "cannot read the properties of HIP device " +
                    std::to_string(device.ordinal) + ": " +
                    driver.errorText(r));
  properties[kNameOffset + 255] = 0;
  properties[kGcnArchNameOffset + 255] = 0;
  device.name = properties + kNameOffset;
  // "gfx90a:sramecc+:xnack-": the features do not select code here.
  device.arch = properties + kGcnArchNameOffset;
  device.arch = device.arch.substr(0, device.arch.find(':'));
  if (device.name.empty())
    device.name = "HIP device " + std::to_string(device.ordinal);
  size_t shared = 0;
  int threads = 0;
  std::memcpy(&shared, properties + kSharedPerBlockOffset, sizeof(shared));
  std::memcpy(&threads, properties + kMaxThreadsPerBlockOffset,
              sizeof(threads));
  if (shared > 0 && shared <= UINT32_MAX)
    device.maxSharedBytes = static_cast<uint32_t>(shared);
  if (threads > 0)
    device.maxThreadsPerBlock = static_cast<uint32_t>(threads);
  for (uint32_t &dimension : device.maxBlock)
    dimension = 1024;
  if (device.arch.compare(0, 3, "gfx") != 0)
    return fail(AICC_DEVICE_UNAVAILABLE,
                "HIP device " + std::to_string(device.ordinal) + " (" +
                    device.name + ") reports no gfx architecture");
  return AICC_OK;
}

} // namespace

const GpuVendor aicc::runtime::hipVendor = {
    "HIP",
    "HIP runtime",
    "libamdhip64.so",
    "AICC_HIP_RUNTIME",
    "hipInit",
    kSymbols,
    sizeof(kSymbols) / sizeof(kSymbols[0]),
    kStickyErrors,
    sizeof(kStickyErrors) / sizeof(kStickyErrors[0]),
    2,   // hipErrorOutOfMemory
    200, // hipErrorInvalidImage
    1,   // hipStreamNonBlocking
    1,   // hipStreamCaptureModeThreadLocal
    0,   // hipEventDefault
    -1,  // AMD GPUs have no opt-in for more dynamic shared memory (LDS)
    -1,  // no JIT: code objects are native
    -1,
    describeHip,
    AICC_TARGET_ROCM,
    "rocm",
    "AICC_HIP_DEVICE",
    true,
};
