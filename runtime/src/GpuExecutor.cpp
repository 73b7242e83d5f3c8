//===- GpuExecutor.cpp - Running a launch plan on a GPU -------------------===//
//
// Everything that is not a vendor call: choosing the code object, checking
// the plan against the device's limits, the memory layout of a model and
// of a context, the kernel parameters, graph capture and replay,
// profiling, and mapping driver errors to runtime statuses.
//
//===----------------------------------------------------------------------===//

#include "GpuExecutor.h"

#include "Error.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace aicc::runtime;

namespace {
/// Device buffers start at multiples of this: what cuMemAlloc guarantees,
/// and enough for the widest vector access a kernel makes.
constexpr uint64_t kDeviceAlignment = 256;
/// Pinned staging buffers start at multiples of this.
constexpr uint64_t kHostAlignment = 64;
/// Dynamic shared memory a kernel gets without opting in.
constexpr uint32_t kDefaultSharedBytes = 48 * 1024;

uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

bool isPtx(const CodeView &code) {
  return code.header->format == AICC_CODE_PTX;
}

/// "13.0" for 13000.
std::string driverVersionName(int version) {
  return std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

/// "code for sm_80, sm_90, PTX sm_90": the code objects of `target`.
std::string describeCode(const BundleView &view, uint32_t target) {
  std::string native, ptx;
  for (const CodeView &code : view.code) {
    if (code.header->target != target)
      continue;
    std::string &list = isPtx(code) ? ptx : native;
    list += (list.empty() ? "" : ", ") + std::string(code.arch);
  }
  if (native.empty())
    return "PTX " + ptx;
  return "code for " + native + (ptx.empty() ? "" : ", PTX " + ptx);
}

/// Whether code for `code` runs on a device of `major`.`minor`: native
/// code (a cubin) needs the same major version and a minor version no
/// higher, PTX any version no higher; "a" code only the exact version.
bool smRunsOn(const SmArch &code, unsigned major, unsigned minor, bool ptx) {
  if (code.specific)
    return code.major == major && code.minor == minor;
  if (ptx)
    return code.major < major || (code.major == major && code.minor <= minor);
  return code.major == major && code.minor <= minor;
}

/// Whether `a` is preferable to `b` among code that runs: the higher
/// version, and on a tie the architecture-specific one.
bool smBetter(const SmArch &a, const SmArch &b) {
  if (a.major != b.major || a.minor != b.minor)
    return a.major > b.major || (a.major == b.major && a.minor > b.minor);
  return a.specific && !b.specific;
}

/// The integer in environment variable `name`, or 0 when unset.
aicc_status_t deviceOrdinal(const char *name, int &ordinal) {
  ordinal = 0;
  const char *text = std::getenv(name);
  if (!text || !*text)
    return AICC_OK;
  char *end = nullptr;
  errno = 0;
  long value = std::strtol(text, &end, 10);
  if (errno || *end || value < 0 || value > 1 << 20)
    return fail(AICC_INVALID_ARGUMENT,
                std::string(name) + "='" + text + "' is not a device number");
  ordinal = static_cast<int>(value);
  return AICC_OK;
}
} // namespace

namespace aicc::runtime {
/// Makes the model's device current on the calling thread for its
/// lifetime: CUDA pushes the primary context and pops it again, HIP
/// selects the device.
class ScopedDevice {
public:
  explicit ScopedDevice(const GpuModel &model) : api(model.gpuDriver->api) {
    if (api.ctxPushCurrent) {
      result =
          model.primaryContext ? api.ctxPushCurrent(model.primaryContext) : 0;
      pushed = model.primaryContext && result == 0;
    } else if (api.setDevice) {
      result = api.setDevice(model.device.ordinal);
    }
  }
  ~ScopedDevice() {
    void *previous = nullptr;
    if (pushed)
      (void)api.ctxPopCurrent(&previous);
  }
  ScopedDevice(const ScopedDevice &) = delete;
  ScopedDevice &operator=(const ScopedDevice &) = delete;

  GpuResult result = 0;

private:
  const GpuApi &api;
  bool pushed = false;
};
} // namespace aicc::runtime

//===----------------------------------------------------------------------===//
// GpuModel
//===----------------------------------------------------------------------===//

std::string GpuModel::driverDescription() const {
  return std::string(gpuDriver->vendor->name) + " " +
         (device.driverVersion > 0 ? driverVersionName(device.driverVersion)
                                   : std::string("unknown"));
}

aicc_status_t GpuModel::failure(GpuResult result,
                                const std::string &what) const {
  std::string message =
      what + " failed on " + device.name + ": " + gpuDriver->errorText(result);
  if (result == gpuDriver->vendor->outOfMemoryError)
    return fail(AICC_RESOURCE_EXHAUSTED, message);
  if (gpuDriver->isSticky(result))
    return fail(AICC_DEVICE_LOST,
                message + "; the device cannot be used again by this "
                          "process");
  return fail(AICC_INTERNAL, message);
}

aicc_status_t GpuModel::load(const BundleView &view, const GpuVendor &vendor,
                             std::unique_ptr<GpuModel> &out) {
  std::unique_ptr<GpuModel> model(new GpuModel(view));
  if (aicc_status_t s = model->openDevice(vendor))
    return s;
  const CodeView *code = nullptr;
  if (aicc_status_t s = model->chooseCode(code))
    return s;
  if (aicc_status_t s = model->checkLimits())
    return s;
  if (aicc_status_t s = model->checkTensorMaps())
    return s;
  if (aicc_status_t s = model->loadCode(*code))
    return s;
  if (aicc_status_t s = model->uploadWeights())
    return s;
  const GpuDevice &device = model->device;
  model->deviceDescription = std::string(vendor.targetLabel) + " " +
                             device.arch + " (" + device.name + ")";
  if (isPtx(*code) || code->arch != device.arch)
    model->deviceDescription +=
        std::string(", ") + formatName(code->header->format) + " " + code->arch;
  out = std::move(model);
  return AICC_OK;
}

aicc_status_t GpuModel::openDevice(const GpuVendor &vendor) {
  std::string runsOn = std::string("this model runs on ") +
                       targetName(vendor.target) + " (" +
                       describeCode(view, vendor.target) + ")";
  std::string problem;
  gpuDriver = loadGpuDriver(vendor, problem);
  if (!gpuDriver)
    return fail(AICC_DEVICE_UNAVAILABLE, runsOn + "; " + problem);
  int count = 0;
  if (GpuResult r = gpuDriver->api.deviceGetCount(&count))
    return fail(AICC_DEVICE_UNAVAILABLE,
                runsOn + "; the " + gpuDriver->vendor->libraryKind +
                    " lists no devices: " + gpuDriver->errorText(r));
  if (count <= 0)
    return fail(AICC_DEVICE_UNAVAILABLE,
                runsOn + "; the " + gpuDriver->vendor->libraryKind + " (" +
                    gpuDriver->path + ") finds no device");
  const char *variable = vendor.deviceVariable;
  if (aicc_status_t s = deviceOrdinal(variable, device.ordinal))
    return s;
  if (device.ordinal >= count)
    return fail(AICC_DEVICE_UNAVAILABLE,
                std::string(variable) + "=" + std::to_string(device.ordinal) +
                    ", but there " + (count == 1 ? "is " : "are ") +
                    std::to_string(count) + " " + gpuDriver->vendor->name +
                    " device" + (count == 1 ? "" : "s"));
  if (aicc_status_t s = gpuDriver->vendor->describe(*gpuDriver, device))
    return s;
  if (gpuDriver->api.driverGetVersion(&device.driverVersion) != 0)
    device.driverVersion = 0;
  return AICC_OK;
}

aicc_status_t GpuModel::chooseCode(const CodeView *&chosen) const {
  uint32_t target = gpuDriver->vendor->target;
  std::string onDevice = "device " + std::to_string(device.ordinal) + ", " +
                         device.name + " (" + device.arch + ")";
  std::string has = describeCode(view, target);
  chosen = nullptr;
  if (gpuDriver->vendor->exactArchOnly) {
    for (const CodeView &code : view.code)
      if (code.header->target == target && device.arch == code.arch)
        chosen = &code;
    if (!chosen)
      return fail(
          AICC_UNSUPPORTED_TARGET,
          std::string("this model runs on ") + targetName(target) + " (" + has +
              "), none of which runs on " + onDevice +
              "; recompile it with --target=" + gpuDriver->vendor->targetLabel +
              " --gpu-arch=" + device.arch);
    return AICC_OK;
  }

  // A cubin for this device, else PTX the driver can compile for it.
  SmArch best;
  for (int pass = 0; pass < 2 && !chosen; ++pass) {
    for (const CodeView &code : view.code) {
      SmArch sm;
      if (code.header->target != target || isPtx(code) != (pass == 1) ||
          !parseSmArch(code.arch, sm) ||
          !smRunsOn(sm, device.major, device.minor, pass == 1))
        continue;
      if (pass == 1 && device.driverVersion < int(code.header->min_driver))
        continue;
      if (!chosen || smBetter(sm, best)) {
        chosen = &code;
        best = sm;
      }
    }
  }
  if (chosen)
    return AICC_OK;
  // Say whether PTX would run but for the driver's age.
  for (const CodeView &code : view.code) {
    SmArch sm;
    if (code.header->target == target && isPtx(code) &&
        parseSmArch(code.arch, sm) &&
        smRunsOn(sm, device.major, device.minor, true))
      return fail(
          AICC_UNSUPPORTED_TARGET,
          "this model runs on CUDA (" + has + "); its PTX for " + code.arch +
              " needs CUDA driver " +
              driverVersionName(int(code.header->min_driver)) +
              " or newer to compile for " + onDevice + ", but the driver is " +
              driverVersionName(device.driverVersion) +
              "; update the driver or recompile the model with --gpu-arch=" +
              device.arch);
  }
  return fail(AICC_UNSUPPORTED_TARGET,
              "this model runs on CUDA (" + has + "), none of which runs on " +
                  onDevice + "; recompile it with --gpu-arch=" + device.arch);
}

aicc_status_t GpuModel::checkLimits() const {
  for (uint32_t s = 0; s < view.plan->step_count; ++s) {
    const aicc_launch_step &step = view.steps[s];
    std::string which = "launch step " + std::to_string(s) + " ('" +
                        view.string(step.entry) + "')";
    uint64_t threads = uint64_t(step.block[0]) * step.block[1] * step.block[2];
    bool fits = threads <= device.maxThreadsPerBlock;
    for (int d = 0; d < 3; ++d)
      fits &= step.block[d] <= device.maxBlock[d] &&
              step.grid[d] <= device.maxGrid[d];
    if (!fits)
      return fail(AICC_UNSUPPORTED_TARGET, which + " has a launch shape " +
                                               device.name +
                                               " does not support");
    if (step.shared_bytes > device.maxSharedBytes)
      return fail(AICC_UNSUPPORTED_TARGET,
                  which + " needs " + std::to_string(step.shared_bytes) +
                      " bytes of shared memory; " + device.name +
                      " offers a block " +
                      std::to_string(device.maxSharedBytes));
  }
  return AICC_OK;
}

aicc_status_t GpuModel::loadCode(const CodeView &code) {
  const GpuApi &api = gpuDriver->api;
  std::string what = std::string("loading the ") +
                     formatName(code.header->format) + " for " + code.arch;
  if (api.primaryCtxRetain) {
    if (GpuResult r = api.primaryCtxRetain(&primaryContext, device.handle)) {
      primaryContext = nullptr; // never retained: not released either
      return fail(AICC_DEVICE_UNAVAILABLE, "cannot open " + device.name + ": " +
                                               gpuDriver->errorText(r));
    }
  }
  ScopedDevice current(*this);
  if (current.result)
    return fail(AICC_DEVICE_UNAVAILABLE,
                "cannot use " + device.name + ": " +
                    gpuDriver->errorText(current.result));

  // The JIT's error log, for PTX that does not compile.
  char log[4096] = {};
  int options[2] = {gpuDriver->vendor->jitErrorLogBuffer,
                    gpuDriver->vendor->jitErrorLogBufferSize};
  void *values[2] = {log, reinterpret_cast<void *>(uintptr_t(sizeof(log)))};
  unsigned optionCount = options[0] >= 0 ? 2 : 0;
  if (GpuResult r = api.moduleLoadDataEx(&module, code.image, optionCount,
                                         optionCount ? options : nullptr,
                                         optionCount ? values : nullptr)) {
    module = nullptr;
    log[sizeof(log) - 1] = 0;
    std::string detail = gpuDriver->errorText(r);
    if (log[0])
      detail += ": " + std::string(log);
    if (r == gpuDriver->vendor->outOfMemoryError || gpuDriver->isSticky(r))
      return failure(r, what);
    if (r == gpuDriver->vendor->invalidImageError)
      return fail(AICC_INVALID_BUNDLE,
                  "invalid bundle: " + what +
                      ": the driver refuses it: " + detail);
    std::string advice =
        isPtx(code)
            ? "; update the driver (" +
                  driverVersionName(device.driverVersion) +
                  ") or recompile the model with --gpu-arch=" + device.arch
            : "; recompile the model with --gpu-arch=" + device.arch;
    return fail(AICC_UNSUPPORTED_TARGET, what + " on " + device.name + " (" +
                                             device.arch +
                                             ") failed: " + detail + advice);
  }

  std::map<std::string, void *> byName;
  std::map<void *, uint32_t> sharedBytes;
  for (uint32_t s = 0; s < view.plan->step_count; ++s) {
    const char *name = view.string(view.steps[s].entry);
    void *&kernel = byName[name];
    if (!kernel) {
      if (GpuResult r = api.moduleGetFunction(&kernel, module, name)) {
        kernel = nullptr;
        if (r == gpuDriver->vendor->outOfMemoryError || gpuDriver->isSticky(r))
          return failure(r, what);
        return fail(AICC_INVALID_BUNDLE,
                    "invalid bundle: the " +
                        std::string(formatName(code.header->format)) + " for " +
                        code.arch + " has no kernel '" + name +
                        "' (launch step " + std::to_string(s) + ")");
      }
    }
    kernels.push_back(kernel);
    uint32_t &shared = sharedBytes[kernel];
    shared = std::max(shared, view.steps[s].shared_bytes);
  }
  // Dynamic shared memory beyond the default is opted into per kernel.
  for (const auto &[kernel, bytes] : sharedBytes) {
    if (bytes <= kDefaultSharedBytes ||
        gpuDriver->vendor->funcAttributeMaxDynamicShared < 0 ||
        !api.funcSetAttribute)
      continue;
    if (GpuResult r = api.funcSetAttribute(
            kernel, gpuDriver->vendor->funcAttributeMaxDynamicShared,
            static_cast<int>(bytes))) {
      if (r == gpuDriver->vendor->outOfMemoryError || gpuDriver->isSticky(r))
        return failure(r, what);
      return fail(AICC_UNSUPPORTED_TARGET,
                  "a kernel of the model needs " + std::to_string(bytes) +
                      " bytes of shared memory, which " + device.name +
                      " refuses: " + gpuDriver->errorText(r));
    }
  }
  return AICC_OK;
}

aicc_status_t GpuModel::checkTensorMaps() const {
  uint32_t count = view.plan->tensor_map_count;
  if (count == 0 || gpuDriver->api.tensorMapEncodeTiled)
    return AICC_OK;
  return fail(AICC_UNSUPPORTED_TARGET,
              "this model's kernels read through " + std::to_string(count) +
                  " TMA tensor map" +
                  (count == 1 ? "; encoding it" : "s; encoding them") +
                  " needs cuTensorMapEncodeTiled (CUDA 12.0 or newer), "
                  "which the " +
                  gpuDriver->vendor->libraryKind + " " + gpuDriver->path +
                  " lacks");
}

aicc_status_t GpuModel::uploadWeights() {
  const aicc_manifest_header *m = view.manifest;
  uint64_t total = 0;
  std::vector<uint64_t> offsets(m->weight_count);
  for (uint32_t i = 0; i < m->weight_count; ++i) {
    offsets[i] = total;
    total = alignUp(total + view.weight(i).byte_size, kDeviceAlignment);
  }
  weightAddresses.assign(m->weight_count, 0);
  if (total == 0)
    return AICC_OK;
  ScopedDevice current(*this);
  if (current.result)
    return failure(current.result, "selecting the device");
  if (GpuResult r = gpuDriver->api.memAlloc(&weights, total)) {
    weights = 0;
    return failure(r, "allocating " + std::to_string(total) +
                          " bytes of device memory for the weights");
  }
  for (uint32_t i = 0; i < m->weight_count; ++i) {
    const aicc_tensor_record &w = view.weight(i);
    weightAddresses[i] = weights + offsets[i];
    if (w.byte_size == 0)
      continue;
    if (GpuResult r = gpuDriver->api.memcpyHtoD(
            weightAddresses[i], view.constants + w.data_offset, w.byte_size))
      return failure(r, "uploading weight '" +
                            std::string(view.string(w.name)) + "'");
  }
  return AICC_OK;
}

GpuModel::~GpuModel() {
  if (!gpuDriver)
    return;
  {
    ScopedDevice current(*this);
    if (weights)
      (void)gpuDriver->api.memFree(weights);
    if (module)
      (void)gpuDriver->api.moduleUnload(module);
  }
  if (primaryContext)
    (void)gpuDriver->api.primaryCtxRelease(device.handle);
}

//===----------------------------------------------------------------------===//
// GpuContext
//===----------------------------------------------------------------------===//

aicc_status_t GpuContext::failure(GpuResult result, const std::string &what) {
  // Remembered before anything that allocates: a message that cannot be
  // built must not make a lost device usable again. The model shares it:
  // its contexts share the device's context, which the error took.
  if (model.gpuDriver->isSticky(result))
    model.lost.store(true);
  try {
    aicc_status_t status = model.failure(result, what);
    if (status == AICC_DEVICE_LOST)
      lost = aicc_last_error_message();
    return status;
  } catch (const std::bad_alloc &) {
    if (isLost())
      return reportLost();
    throw;
  }
}

bool GpuContext::isLost() const { return model.lost.load(); }

aicc_status_t GpuContext::reportLost() const {
  if (!lost.empty()) {
    try {
      return fail(AICC_DEVICE_LOST, lost);
    } catch (const std::bad_alloc &) {
    }
  }
  return failStatic(AICC_DEVICE_LOST,
                    "the device failed earlier; this context cannot run");
}

aicc_status_t
GpuModel::createContext(unsigned, uint32_t flags,
                        std::unique_ptr<ContextExecutor> &context) const {
  std::unique_ptr<GpuContext> gpu;
  if (aicc_status_t s = GpuContext::create(*this, flags, gpu))
    return s;
  context = std::move(gpu);
  return AICC_OK;
}

namespace {
aicc_status_t loadGpuExecutor(const BundleView &view, const GpuVendor &vendor,
                              std::unique_ptr<ModelExecutor> &executor) {
  std::unique_ptr<GpuModel> model;
  if (aicc_status_t s = GpuModel::load(view, vendor, model))
    return s;
  executor = std::move(model);
  return AICC_OK;
}
} // namespace

aicc_status_t
aicc::runtime::loadCudaExecutor(const BundleView &view,
                                std::unique_ptr<ModelExecutor> &executor) {
  return loadGpuExecutor(view, cudaVendor, executor);
}

aicc_status_t
aicc::runtime::loadHipExecutor(const BundleView &view,
                               std::unique_ptr<ModelExecutor> &executor) {
  return loadGpuExecutor(view, hipVendor, executor);
}

aicc_status_t GpuContext::create(const GpuModel &model, uint32_t flags,
                                 std::unique_ptr<GpuContext> &out) {
  std::unique_ptr<GpuContext> context(new GpuContext(model));
  if (context->isLost())
    return context->reportLost();
  context->profiling = flags & AICC_CONTEXT_PROFILE;
  ScopedDevice current(model);
  if (current.result)
    return context->failure(current.result, "selecting the device");
  if (aicc_status_t s = context->allocate())
    return s;
  if (!context->profiling && !(flags & AICC_CONTEXT_NO_GRAPHS))
    if (aicc_status_t s = context->capture())
      return s;
  out = std::move(context);
  return AICC_OK;
}

aicc_status_t GpuContext::allocate() {
  const BundleView &view = model.view;
  const aicc_manifest_header *m = view.manifest;

  // Device memory: the arena, then every input and output.
  uint64_t arenaAlignment =
      std::max<uint64_t>(view.plan->arena_alignment, kDeviceAlignment);
  uint64_t deviceSize = alignUp(view.plan->arena_size, kDeviceAlignment);
  uint64_t hostSize = 0;
  auto place = [&](const aicc_tensor_record &t, std::vector<DevicePtr> &at,
                   std::vector<size_t> &staged) {
    at.push_back(deviceSize);
    staged.push_back(hostSize);
    deviceSize = alignUp(deviceSize + t.byte_size, kDeviceAlignment);
    hostSize = alignUp(hostSize + t.byte_size, kHostAlignment);
  };
  for (uint32_t i = 0; i < m->input_count; ++i)
    place(view.input(i), deviceInputs, stagedInputs);
  for (uint32_t i = 0; i < m->output_count; ++i)
    place(view.output(i), deviceOutputs, stagedOutputs);
  // The tensor maps' kernel parameters are their device addresses.
  uint64_t mapsAt = alignUp(deviceSize, kCuTensorMapSize);
  if (uint32_t count = view.plan->tensor_map_count)
    deviceSize = mapsAt + count * kCuTensorMapSize;
  // The layout starts at the first multiple of the arena's alignment in
  // the allocation, whatever alignment the driver gives it.
  uint64_t slack = arenaAlignment;
  DevicePtr base = 0;
  if (deviceSize > 0) {
    if (GpuResult r = api().memAlloc(&memory, deviceSize + slack)) {
      memory = 0;
      return failure(r, "allocating " + std::to_string(deviceSize + slack) +
                            " bytes of device memory for a context");
    }
    base = alignUp(memory, arenaAlignment);
  }
  for (DevicePtr &address : deviceInputs)
    address += base;
  for (DevicePtr &address : deviceOutputs)
    address += base;
  if (view.plan->tensor_map_count) {
    tensorMaps = base + mapsAt;
    if (aicc_status_t s = encodeTensorMaps(base))
      return s;
  }
  if (hostSize > 0) {
    void *pinned = nullptr;
    if (GpuResult r = api().memHostAlloc(&pinned, hostSize, 0))
      return failure(r, "allocating " + std::to_string(hostSize) +
                            " bytes of pinned host memory");
    staging = static_cast<uint8_t *>(pinned);
  }
  if (GpuResult r = api().streamCreate(
          &stream, model.gpuDriver->vendor->streamNonBlocking)) {
    stream = nullptr;
    return failure(r, "creating a stream");
  }

  // The kernel parameters: one device address per buffer reference, and
  // a pointer to it, as cuLaunchKernel/hipModuleLaunchKernel take them.
  addresses.resize(view.plan->arg_count);
  params.resize(view.plan->arg_count);
  for (uint32_t i = 0; i < view.plan->arg_count; ++i) {
    const aicc_buffer_ref &arg = view.args[i];
    addresses[i] = arg.kind == AICC_BUFFER_TENSOR_MAP
                       ? tensorMaps + arg.index * kCuTensorMapSize
                       : bufferAddress(arg, base);
    params[i] = &addresses[i];
  }

  for (void *&event : kernelEvents)
    if (GpuResult r =
            api().eventCreate(&event, model.gpuDriver->vendor->eventDefault)) {
      event = nullptr;
      return failure(r, "creating an event");
    }
  if (!profiling)
    return AICC_OK;
  entries.resize(view.plan->step_count);
  events.assign(2 * size_t(view.plan->step_count), nullptr);
  for (uint32_t s = 0; s < view.plan->step_count; ++s) {
    const aicc_launch_step &step = view.steps[s];
    aicc_profile_entry &entry = entries[s];
    entry.kernel = view.string(step.entry);
    entry.source = view.string(step.source);
    entry.milliseconds = 0;
    std::memcpy(entry.grid, step.grid, sizeof(entry.grid));
    std::memcpy(entry.block, step.block, sizeof(entry.block));
    entry.bytes = step.bytes;
    entry.flops = step.flops;
    entry.bound_ms =
        rooflineMilliseconds(model.device, step.bytes, step.flops, step.math);
  }
  for (void *&event : events)
    if (GpuResult r =
            api().eventCreate(&event, model.gpuDriver->vendor->eventDefault)) {
      event = nullptr;
      return failure(r, "creating an event");
    }
  return AICC_OK;
}

DevicePtr GpuContext::bufferAddress(const aicc_buffer_ref &ref,
                                    DevicePtr arena) const {
  switch (ref.kind) {
  case AICC_BUFFER_INPUT:
    return deviceInputs[ref.index];
  case AICC_BUFFER_OUTPUT:
    return deviceOutputs[ref.index];
  case AICC_BUFFER_WEIGHT:
    return model.weightAddresses[ref.index];
  default: // the arena (the reader admits nothing else here)
    return arena + ref.offset;
  }
}

aicc_status_t GpuContext::encodeTensorMaps(DevicePtr arena) {
  const BundleView &view = model.view;
  struct alignas(kCuTensorMapSize) Encoded {
    uint8_t bytes[kCuTensorMapSize];
  };
  uint32_t count = view.plan->tensor_map_count;
  std::vector<Encoded> encoded(count);
  const uint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  for (uint32_t i = 0; i < count; ++i) {
    const aicc_tensor_map &map = view.tensorMaps[i];
    int dataType = map.dtype == AICC_DTYPE_FLOAT16    ? kCuTensorMapFloat16
                   : map.dtype == AICC_DTYPE_BFLOAT16 ? kCuTensorMapBFloat16
                   : map.dtype == AICC_DTYPE_FLOAT32  ? kCuTensorMapFloat32
                                                      : kCuTensorMapUint8;
    // CU_TENSOR_MAP_SWIZZLE_32B, _64B and _128B are 1, 2 and 3.
    int swizzle = map.swizzle == 0    ? kCuTensorMapSwizzleNone
                  : map.swizzle == 32 ? 1
                  : map.swizzle == 64 ? 2
                                      : 3;
    DevicePtr address = bufferAddress(map.buffer, arena) + map.byte_offset;
    if (GpuResult r = api().tensorMapEncodeTiled(
            encoded[i].bytes, dataType, map.rank,
            reinterpret_cast<void *>(static_cast<uintptr_t>(address)), map.dims,
            map.strides, map.box, elementStrides, kCuTensorMapInterleaveNone,
            swizzle, kCuTensorMapL2Promotion128B, kCuTensorMapOobFillNone))
      return failure(r, "encoding TMA tensor map " + std::to_string(i));
  }
  if (GpuResult r = api().memcpyHtoD(tensorMaps, encoded.data(),
                                     count * kCuTensorMapSize))
    return failure(r, "copying the TMA tensor maps to the device");
  return AICC_OK;
}

aicc_status_t GpuContext::enqueueInputs() {
  const BundleView &view = model.view;
  for (uint32_t i = 0; i < view.manifest->input_count; ++i)
    if (uint64_t size = view.input(i).byte_size)
      if (GpuResult r = api().memcpyHtoDAsync(
              deviceInputs[i], staging + stagedInputs[i], size, stream))
        return failure(r,
                       "copying input " + std::to_string(i) + " to the device");
  return AICC_OK;
}

aicc_status_t GpuContext::record(void *event) {
  if (GpuResult r = api().eventRecord(event, stream))
    return failure(r, "recording an event");
  return AICC_OK;
}

aicc_status_t GpuContext::enqueueKernels(bool timed) {
  const BundleView &view = model.view;
  for (uint32_t s = 0; s < view.plan->step_count; ++s) {
    const aicc_launch_step &step = view.steps[s];
    if (timed)
      if (aicc_status_t recorded = record(events[2 * s]))
        return recorded;
    if (GpuResult r = api().launchKernel(
            model.kernels[s], step.grid[0], step.grid[1], step.grid[2],
            step.block[0], step.block[1], step.block[2], step.shared_bytes,
            stream, step.arg_count ? params.data() + step.first_arg : nullptr,
            nullptr))
      return failure(r, "launching kernel '" +
                            std::string(view.string(step.entry)) +
                            "' (launch step " + std::to_string(s) + ")");
    if (timed)
      if (aicc_status_t recorded = record(events[2 * s + 1]))
        return recorded;
  }
  return AICC_OK;
}

aicc_status_t GpuContext::enqueueOutputs() {
  const BundleView &view = model.view;
  for (uint32_t i = 0; i < view.manifest->output_count; ++i)
    if (uint64_t size = view.output(i).byte_size)
      if (GpuResult r = api().memcpyDtoHAsync(staging + stagedOutputs[i],
                                              deviceOutputs[i], size, stream))
        return failure(r, "copying output " + std::to_string(i) +
                              " from the device");
  return AICC_OK;
}

aicc_status_t GpuContext::launchGraph() {
  if (GpuResult r = api().graphLaunch(graph, stream))
    return failure(r, "launching the graph");
  return AICC_OK;
}

aicc_status_t GpuContext::capture() {
  if (GpuResult r = api().streamBeginCapture(
          stream, model.gpuDriver->vendor->captureModeThreadLocal))
    return failure(r, "starting to capture a graph");
  aicc_status_t enqueued;
  void *captured = nullptr;
  try {
    enqueued = enqueueKernels(false);
  } catch (...) {
    // The stream leaves capture mode before the exception leaves.
    if (api().streamEndCapture(stream, &captured) == 0 && captured)
      (void)api().graphDestroy(captured);
    throw;
  }
  GpuResult ended = api().streamEndCapture(stream, &captured);
  if (enqueued || ended) {
    if (captured)
      (void)api().graphDestroy(captured);
    return enqueued ? enqueued : failure(ended, "capturing the run as a graph");
  }
  GpuResult r = api().graphInstantiate(&graph, captured, 0);
  (void)api().graphDestroy(captured);
  if (r) {
    graph = nullptr;
    return failure(r, "instantiating the captured graph");
  }
  return AICC_OK;
}

aicc_status_t GpuContext::execute(bool copyIn, bool copyOut) {
  profiled = false;
  aicc_status_t status = AICC_OK;
  try {
    // The copies stay outside the graph, so that the two events time the
    // kernels alone (the copies' time depends on the host, not the model).
    if (copyIn)
      status = enqueueInputs();
    if (!status)
      status = record(kernelEvents[0]);
    if (!status)
      status = graph ? launchGraph() : enqueueKernels(profiling);
    if (!status)
      status = record(kernelEvents[1]);
    if (!status && copyOut)
      status = enqueueOutputs();
  } catch (...) {
    // Out of memory for a message: the queued copies still finish before
    // the exception leaves.
    (void)api().streamSynchronize(stream);
    throw;
  }
  // Wait even after a failure, so that nothing still runs on the staging
  // buffers when the caller reuses them.
  GpuResult waited = api().streamSynchronize(stream);
  // A kernel that faulted earlier in this run outranks a later launch's
  // error: the device is gone either way.
  if (waited && model.gpuDriver->isSticky(waited))
    return failure(waited, "running the model");
  if (status)
    return status;
  if (waited)
    return failure(waited, "running the model");
  return AICC_OK;
}

aicc_status_t GpuContext::readTimes() {
  // The outputs are written already: a time that cannot be read is only
  // missing (aicc_context_device_time says so), not a failed run.
  float kernels = 0;
  if (api().eventElapsedTime(&kernels, kernelEvents[0], kernelEvents[1]) == 0)
    deviceMilliseconds = kernels;
  if (profiling) {
    for (size_t s = 0; s < entries.size(); ++s) {
      float milliseconds = 0;
      if (GpuResult r = api().eventElapsedTime(&milliseconds, events[2 * s],
                                               events[2 * s + 1]))
        return failure(r, "reading a kernel's time");
      entries[s].milliseconds = milliseconds;
    }
    profiled = true;
  }
  return AICC_OK;
}

aicc_status_t GpuContext::run(const void *const *inputs, void *const *outputs) {
  deviceMilliseconds = -1;
  if (isLost())
    return reportLost();
  const BundleView &view = model.view;
  const aicc_manifest_header *m = view.manifest;
  ScopedDevice current(model);
  if (current.result)
    return failure(current.result, "selecting the device");
  for (uint32_t i = 0; i < m->input_count; ++i)
    if (uint64_t size = view.input(i).byte_size)
      std::memcpy(staging + stagedInputs[i], inputs[i], size);
  if (aicc_status_t status = execute(/*copyIn=*/true, /*copyOut=*/true))
    return status;
  for (uint32_t i = 0; i < m->output_count; ++i)
    if (uint64_t size = view.output(i).byte_size)
      std::memcpy(outputs[i], staging + stagedOutputs[i], size);
  return readTimes();
}

aicc_status_t GpuContext::runResident() {
  deviceMilliseconds = -1;
  if (isLost())
    return reportLost();
  ScopedDevice current(model);
  if (current.result)
    return failure(current.result, "selecting the device");
  if (aicc_status_t status = execute(/*copyIn=*/false, /*copyOut=*/false))
    return status;
  return readTimes();
}

aicc_status_t GpuContext::ioBuffer(bool output, size_t index,
                                   uint64_t &address) const {
  if (isLost())
    return reportLost();
  address = output ? deviceOutputs[index] : deviceInputs[index];
  return AICC_OK;
}

aicc_status_t GpuContext::deviceTime(double &milliseconds) const {
  if (isLost())
    return reportLost();
  milliseconds = deviceMilliseconds;
  return AICC_OK;
}

aicc_status_t
GpuContext::profile(const std::vector<aicc_profile_entry> *&result) const {
  if (isLost())
    return reportLost();
  static const std::vector<aicc_profile_entry> none;
  result = profiled ? &entries : &none;
  return AICC_OK;
}

GpuContext::~GpuContext() {
  ScopedDevice current(model);
  if (graph)
    (void)api().graphExecDestroy(graph);
  for (void *event : events)
    if (event)
      (void)api().eventDestroy(event);
  for (void *event : kernelEvents)
    if (event)
      (void)api().eventDestroy(event);
  if (stream)
    (void)api().streamDestroy(stream);
  if (staging)
    (void)api().memFreeHost(staging);
  if (memory)
    (void)api().memFree(memory);
}
