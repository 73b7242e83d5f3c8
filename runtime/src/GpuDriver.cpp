//===- GpuDriver.cpp - Loading a GPU vendor library -----------------------===//

#include "GpuDriver.h"

#include "aicc/bundle_format.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>

using namespace aicc::runtime;

std::string GpuDriver::errorText(GpuResult error) const {
  const char *name = nullptr, *text = nullptr;
  if (api.getErrorName && api.getErrorName(error, &name) != 0)
    name = nullptr;
  if (api.getErrorString && api.getErrorString(error, &text) != 0)
    text = nullptr;
  if (api.hipGetErrorName)
    name = api.hipGetErrorName(error);
  if (api.hipGetErrorString)
    text = api.hipGetErrorString(error);
  std::string result = name && *name ? name
                                     : std::string(vendor->name) + " error " +
                                           std::to_string(error);
  if (text && *text)
    result += std::string(" (") + text + ")";
  return result;
}

bool GpuDriver::isSticky(GpuResult error) const {
  for (size_t i = 0; i < vendor->stickyErrorCount; ++i)
    if (vendor->stickyErrors[i] == error)
      return true;
  return false;
}

const GpuDriver *aicc::runtime::loadGpuDriver(const GpuVendor &vendor,
                                              std::string &problem) {
  const char *variable = std::getenv(vendor.pathVariable);
  std::string path = variable && *variable ? variable : vendor.library;
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<GpuDriver>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = loaded.find(path);
  if (found != loaded.end())
    return found->second.get();

  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    problem = std::string("no ") + vendor.libraryKind +
              " could be loaded: " + (reason ? reason : path);
    return nullptr;
  }
  // Closed again if reading its symbols fails, out of memory included.
  struct Unload {
    void *library;
    ~Unload() {
      if (library)
        dlclose(library);
    }
  } unload{library};
  auto driver = std::make_unique<GpuDriver>();
  driver->vendor = &vendor;
  driver->path = path;
  for (size_t i = 0; i < vendor.symbolCount; ++i) {
    const GpuSymbol &symbol = vendor.symbols[i];
    void *address = nullptr;
    std::string names = symbol.names;
    for (size_t begin = 0; !address && begin <= names.size();) {
      size_t end = names.find('|', begin);
      if (end == std::string::npos)
        end = names.size();
      address = dlsym(library, names.substr(begin, end - begin).c_str());
      begin = end + 1;
    }
    if (!address && !symbol.optional) {
      problem = std::string("the ") + vendor.libraryKind + " " + path +
                " lacks " + names + ": it is too old for this runtime";
      return nullptr;
    }
    // POSIX guarantees that a data pointer from dlsym converts to a
    // function pointer of the same size.
    std::memcpy(reinterpret_cast<char *>(&driver->api) + symbol.field, &address,
                sizeof(address));
  }
  // From here the library may have started threads: it stays loaded even
  // when it fails to initialize.
  unload.library = nullptr;
  if (GpuResult r = driver->api.init(0)) {
    problem = std::string("the ") + vendor.libraryKind + " " + path +
              " does not start: " + vendor.initName + " returned " +
              driver->errorText(r);
    return nullptr;
  }
  return loaded.emplace(path, std::move(driver)).first->second.get();
}

namespace {

/// Floating-point operations per clock of one multiprocessor of a CUDA
/// device of compute capability `major`.`minor` on `math` (dense, a
/// multiply-add counted as two; 16-bit tensor core rates with f32 sums);
/// 0 where not known. From NVIDIA's architecture papers: the scalar units
/// are 64 f32 lanes on sm_70 and sm_80, 128 on sm_86 and later; the tensor
/// cores take 1024 16-bit multiply-adds per clock on sm_80, 2048 on sm_90,
/// 512 on sm_70, sm_75, sm_86 and sm_89, half of that in tf32.
double flopsPerClock(unsigned major, unsigned minor, uint32_t math) {
  double scalar = 0, tensor16 = 0;
  if (major == 7) {
    scalar = 128;
    tensor16 = 1024;
  } else if (major == 8) {
    scalar = minor == 0 ? 128 : 256;
    tensor16 = minor == 0 ? 2048 : 1024;
  } else if (major == 9) {
    scalar = 256;
    tensor16 = 4096;
  }
  switch (math) {
  case AICC_MATH_TENSOR_16:
    return tensor16;
  case AICC_MATH_TENSOR_32:
    return major >= 8 ? tensor16 / 2 : 0;
  default:
    return scalar;
  }
}

} // namespace

double aicc::runtime::rooflineMilliseconds(const GpuDevice &device,
                                           uint64_t bytes, uint64_t flops,
                                           uint32_t math) {
  double seconds = 0;
  // Double data rate: two transfers per memory clock.
  double bandwidth =
      2.0 * device.memoryClockKHz * 1e3 * (device.memoryBusBits / 8.0);
  if (bandwidth > 0)
    seconds = std::max(seconds, double(bytes) / bandwidth);
  double rate = flopsPerClock(device.major, device.minor, math) *
                device.multiprocessors * device.clockKHz * 1e3;
  if (rate > 0)
    seconds = std::max(seconds, double(flops) / rate);
  return seconds * 1e3;
}
