//===- FakeCudaDriver.cpp - A CUDA driver without a GPU, for tests --------===//
//
// A shared library that exports the part of the CUDA driver API the runtime
// calls, under the same versioned names, so that the CUDA executor can be
// tested on machines without a GPU: point AICC_CUDA_DRIVER at it. Device
// memory is host memory; streams run their work at once, except while
// capturing, when it is recorded into a graph that cuGraphLaunch replays.
// A module's kernels are a fixed set, run on the host:
//
//   add_f32(a, b, out)   out[i] = a[i] + b[i]   for every thread i
//   mul_f32(a, b, out)   out[i] = a[i] * b[i]
//   mul_tma_f32(map, b, out)
//                        out[i] = a[i] * b[i], a the float32 tensor the
//                        tensor map at `map` describes, element i in
//                        row-major order of its dimensions; an illegal
//                        address when `map` is no map this driver encoded
//                        or the tensor has fewer elements than threads
//   fault()              an illegal address, reported (sticky) at the next
//                        synchronization, as a real GPU reports it
//
// cuTensorMapEncodeTiled checks its arguments as the real driver documents
// them and writes a FakeTensorMap (below) into the 128 bytes: the address,
// dimensions, strides and box it was given, readable by the kernel above.
// Built with AICC_FAKE_CUDA_NO_TENSOR_MAPS (libaicc-fake-cuda-no-tma.so) it
// lacks the call, as drivers before CUDA 12.0 do.
//
// Environment:
//   AICC_FAKE_CUDA_CC=7.0         the device's compute capability (9.0)
//   AICC_FAKE_CUDA_VERSION=12040  cuDriverGetVersion (13000)
//   AICC_FAKE_CUDA_DEVICES=0      the number of devices (1)
//   AICC_FAKE_CUDA_FAIL=cuMemAlloc_v2=2,...  calls that return an error
//   AICC_FAKE_CUDA_LOG=FILE       at exit, append one line of counts:
//                                 calls made and objects still alive
//   AICC_FAKE_CUDA_ANY_KERNEL=1   any other kernel name resolves too, and
//                                 its launches do nothing (to drive the
//                                 compiler's --autotune without a GPU)
//
// Calls that need a context fail with CUDA_ERROR_INVALID_CONTEXT unless
// one has been pushed on the calling thread, which checks the runtime's
// push/pop discipline.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

enum : int {
  kSuccess = 0,
  kInvalidValue = 1,
  kNotInitialized = 3,
  kNoDevice = 100,
  kInvalidContext = 201,
  kNotFound = 500,
  kIllegalAddress = 700,
};

/// What this driver's cuTensorMapEncodeTiled writes into a CUtensorMap.
struct FakeTensorMap {
  char magic[8]; // "FAKETMAP"
  uint64_t address;
  uint32_t dataType; // CUtensorMapDataType
  uint32_t rank;
  uint64_t dims[5];
  uint64_t strides[4]; // bytes of dimensions 1 to rank - 1
  uint32_t box[5];
  uint8_t interleave, swizzle, l2Promotion, oobFill;
};
static_assert(sizeof(FakeTensorMap) <= 128, "a CUtensorMap's size");

struct Op {
  enum Kind { Copy, Launch, Record } kind;
  explicit Op(Kind kind) : kind(kind) {}
  void *destination = nullptr;
  const void *source = nullptr;
  size_t size = 0;
  std::string kernel;
  uint64_t threads = 0;
  std::vector<uint64_t> args;
  void *event = nullptr;
};

struct Stream {
  bool capturing = false;
  std::vector<Op> captured;
};

struct Graph {
  std::vector<Op> ops;
};

struct Event {
  Clock::time_point when;
};

struct State {
  std::mutex mutex;
  bool initialized = false;
  int sticky = 0;
  int primaryReferences = 0;
  std::map<std::string, long> counts; // calls, and live objects
  std::map<std::string, int> failures;

  State() {
    for (const char *kind : {"device", "events", "execs", "graphs", "host",
                             "modules", "primary", "streams"})
      counts[std::string("live.") + kind] = 0;
    const char *spec = std::getenv("AICC_FAKE_CUDA_FAIL");
    std::string s = spec ? spec : "";
    for (size_t begin = 0; begin < s.size();) {
      size_t end = s.find(',', begin);
      if (end == std::string::npos)
        end = s.size();
      std::string item = s.substr(begin, end - begin);
      size_t eq = item.find('=');
      if (eq != std::string::npos)
        failures[item.substr(0, eq)] = std::atoi(item.c_str() + eq + 1);
      begin = end + 1;
    }
  }

  ~State() {
    const char *path = std::getenv("AICC_FAKE_CUDA_LOG");
    if (!path)
      return;
    FILE *log = std::fopen(path, "a");
    if (!log)
      return;
    std::fprintf(log, "fake-cuda:");
    for (const auto &[name, count] : counts)
      std::fprintf(log, " %s=%ld", name.c_str(), count);
    std::fprintf(log, "\n");
    std::fclose(log);
  }
};

State &state() {
  static State s;
  return s;
}

thread_local int contextDepth = 0;

int envInt(const char *name, int fallback) {
  const char *text = std::getenv(name);
  return text && *text ? std::atoi(text) : fallback;
}

/// The result an entry point starts with: an injected failure, the sticky
/// error, or a missing context.
int enter(const char *call, bool needsContext) {
  State &s = state();
  ++s.counts[std::string("call.") + call];
  auto failure = s.failures.find(call);
  if (failure != s.failures.end())
    return failure->second;
  if (s.sticky)
    return s.sticky;
  if (!s.initialized)
    return kNotInitialized;
  if (needsContext && contextDepth == 0)
    return kInvalidContext;
  return kSuccess;
}

void live(const char *what, int change) {
  state().counts[std::string("live.") + what] += change;
}

/// Deletes an object the driver handed out; like the real driver, fails
/// with the sticky error once there is one, but still frees.
template <typename T> int destroy(void *object, const char *kind) {
  std::lock_guard<std::mutex> lock(state().mutex);
  delete static_cast<T *>(object);
  live(kind, -1);
  return state().sticky;
}

/// The same for memory from malloc.
int freeMemory(void *pointer, const char *kind) {
  std::lock_guard<std::mutex> lock(state().mutex);
  std::free(pointer);
  live(kind, -1);
  return state().sticky;
}

/// The kernels that compute something (and take three buffers).
bool arithmeticKernel(const std::string &name) {
  return name == "add_f32" || name == "mul_f32" || name == "mul_tma_f32";
}

/// The address of element `i` of the float32 tensor the map at `address`
/// describes; null if it is no map or has no element `i`.
const float *tensorMapElement(uint64_t address, uint64_t i) {
  const auto *map = reinterpret_cast<const FakeTensorMap *>(address);
  if (address % 64 != 0 || std::memcmp(map->magic, "FAKETMAP", 8) != 0 ||
      map->dataType != 7) // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
    return nullptr;
  uint64_t offset = 0;
  for (uint32_t d = 0; d < map->rank; ++d) {
    offset += i % map->dims[d] * (d == 0 ? 4 : map->strides[d - 1]);
    i /= map->dims[d];
  }
  if (i != 0)
    return nullptr;
  return reinterpret_cast<const float *>(map->address + offset);
}

bool knownKernel(const std::string &name) {
  return arithmeticKernel(name) || name == "fault" ||
         envInt("AICC_FAKE_CUDA_ANY_KERNEL", 0) != 0;
}

void execute(const Op &op) {
  switch (op.kind) {
  case Op::Copy:
    std::memcpy(op.destination, op.source, op.size);
    return;
  case Op::Record:
    static_cast<Event *>(op.event)->when = Clock::now();
    return;
  case Op::Launch:
    ++state().counts["kernels"];
    if (op.kernel == "fault") {
      state().sticky = kIllegalAddress;
      return;
    }
    if (!arithmeticKernel(op.kernel) || op.args.size() != 3)
      return; // (AICC_FAKE_CUDA_ANY_KERNEL's kernels do nothing)
    auto *a = reinterpret_cast<const float *>(op.args[0]);
    auto *b = reinterpret_cast<const float *>(op.args[1]);
    auto *out = reinterpret_cast<float *>(op.args[2]);
    if (op.kernel == "mul_tma_f32") {
      for (uint64_t i = 0; i < op.threads; ++i)
        if (!tensorMapElement(op.args[0], i)) {
          state().sticky = kIllegalAddress;
          return;
        }
      for (uint64_t i = 0; i < op.threads; ++i)
        out[i] = *tensorMapElement(op.args[0], i) * b[i];
      return;
    }
    for (uint64_t i = 0; i < op.threads; ++i)
      out[i] = op.kernel == "add_f32" ? a[i] + b[i] : a[i] * b[i];
    return;
  }
}

int submit(void *stream, Op op) {
  auto *s = static_cast<Stream *>(stream);
  if (s && s->capturing)
    s->captured.push_back(std::move(op));
  else
    execute(op);
  return kSuccess;
}
} // namespace

/// The runtime's fault test (test/runtime/FaultTest.cpp) fails the
/// runtime's allocations one by one; this driver's own are exempt, through
/// the aicc_fault_exempt the test exports, since a driver's host memory is
/// not the runtime's to handle.
struct ExemptScope {
  using Hook = void (*)(int);
  static Hook hook() {
    static Hook found =
        reinterpret_cast<Hook>(dlsym(RTLD_DEFAULT, "aicc_fault_exempt"));
    return found;
  }
  ExemptScope() {
    if (Hook h = hook())
      h(1);
  }
  ~ExemptScope() {
    if (Hook h = hook())
      h(-1);
  }
  ExemptScope(const ExemptScope &) = delete;
  ExemptScope &operator=(const ExemptScope &) = delete;
};

#define AICC_FAKE_ENTER(needsContext)                                          \
  std::lock_guard<std::mutex> lock(state().mutex);                             \
  if (int early = enter(__func__, needsContext))                               \
    return early;

extern "C" {
__attribute__((visibility("default"))) int cuInit(unsigned flags) {
  ExemptScope exempt;
  std::lock_guard<std::mutex> lock(state().mutex);
  ++state().counts["call.cuInit"];
  auto failure = state().failures.find("cuInit");
  if (failure != state().failures.end())
    return failure->second;
  if (flags != 0)
    return kInvalidValue;
  state().initialized = true;
  return kSuccess;
}

__attribute__((visibility("default"))) int cuDriverGetVersion(int *version) {
  ExemptScope exempt;
  *version = envInt("AICC_FAKE_CUDA_VERSION", 13000);
  return kSuccess;
}

__attribute__((visibility("default"))) int cuDeviceGetCount(int *count) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(false)
  *count = envInt("AICC_FAKE_CUDA_DEVICES", 1);
  return kSuccess;
}

__attribute__((visibility("default"))) int cuDeviceGet(int *device,
                                                       int ordinal) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(false)
  if (ordinal < 0 || ordinal >= envInt("AICC_FAKE_CUDA_DEVICES", 1))
    return 101; // CUDA_ERROR_INVALID_DEVICE
  *device = ordinal;
  return kSuccess;
}

__attribute__((visibility("default"))) int cuDeviceGetName(char *name,
                                                           int length, int) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(false)
  std::snprintf(name, size_t(length), "aicc fake GPU");
  return kSuccess;
}

__attribute__((visibility("default"))) int
cuDeviceGetAttribute(int *value, int attribute, int) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(false)
  const char *cc = std::getenv("AICC_FAKE_CUDA_CC");
  int major = 9, minor = 0;
  if (cc && *cc)
    std::sscanf(cc, "%d.%d", &major, &minor);
  switch (attribute) {
  case 1: // max threads per block
  case 2: // max block x
  case 3: // max block y
    *value = 1024;
    break;
  case 4:
    *value = 64;
    break;
  case 5:
    *value = 0x7fffffff;
    break;
  case 6:
  case 7:
    *value = 65535;
    break;
  case 75:
    *value = major;
    break;
  case 76:
    *value = minor;
    break;
  case 97: // shared memory per block, opted in
    *value = 227 * 1024;
    break;
  // For the roofline: 100 multiprocessors at 1 GHz; memory at 1 GHz on a
  // 4096-bit bus, 1.024 TB/s.
  case 13: // clock rate, kHz
  case 36: // memory clock rate, kHz
    *value = 1000000;
    break;
  case 16: // multiprocessors
    *value = 100;
    break;
  case 37: // memory bus width, bits
    *value = 4096;
    break;
  default:
    *value = 0;
  }
  return kSuccess;
}

__attribute__((visibility("default"))) int cuDevicePrimaryCtxRetain(void **ctx,
                                                                    int) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(false)
  static int primary;
  *ctx = &primary;
  ++state().primaryReferences;
  live("primary", 1);
  return kSuccess;
}

__attribute__((visibility("default"))) int cuDevicePrimaryCtxRelease_v2(int) {
  ExemptScope exempt;
  std::lock_guard<std::mutex> lock(state().mutex);
  live("primary", -1);
  return state().sticky;
}

__attribute__((visibility("default"))) int cuCtxPushCurrent_v2(void *) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(false)
  ++contextDepth;
  return kSuccess;
}

__attribute__((visibility("default"))) int cuCtxPopCurrent_v2(void **ctx) {
  ExemptScope exempt;
  std::lock_guard<std::mutex> lock(state().mutex);
  if (contextDepth == 0)
    return kInvalidContext;
  --contextDepth;
  if (ctx)
    *ctx = nullptr;
  return kSuccess;
}

__attribute__((visibility("default"))) int
cuModuleLoadDataEx(void **module, const void *, unsigned, int *, void **) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  *module = new int(0);
  live("modules", 1);
  return kSuccess;
}

__attribute__((visibility("default"))) int cuModuleUnload(void *module) {
  ExemptScope exempt;
  return destroy<int>(module, "modules");
}

__attribute__((visibility("default"))) int
cuModuleGetFunction(void **function, void *, const char *name) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  if (!knownKernel(name))
    return kNotFound;
  static std::map<std::string, std::string> functions;
  *function = &functions.emplace(name, name).first->second;
  return kSuccess;
}

__attribute__((visibility("default"))) int cuFuncSetAttribute(void *, int,
                                                              int) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  return kSuccess;
}

__attribute__((visibility("default"))) int cuMemAlloc_v2(uint64_t *address,
                                                         size_t size) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  // cuMemAlloc aligns to at least 256 bytes.
  size_t rounded = (size + 255) / 256 * 256;
  *address = reinterpret_cast<uint64_t>(
      std::aligned_alloc(256, rounded ? rounded : 256));
  live("device", 1);
  return kSuccess;
}

__attribute__((visibility("default"))) int cuMemFree_v2(uint64_t address) {
  ExemptScope exempt;
  return freeMemory(reinterpret_cast<void *>(address), "device");
}

__attribute__((visibility("default"))) int
cuMemHostAlloc(void **pointer, size_t size, unsigned) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  *pointer = std::calloc(1, size ? size : 1);
  live("host", 1);
  return kSuccess;
}

__attribute__((visibility("default"))) int cuMemFreeHost(void *pointer) {
  ExemptScope exempt;
  return freeMemory(pointer, "host");
}

__attribute__((visibility("default"))) int
cuMemcpyHtoD_v2(uint64_t destination, const void *source, size_t size) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  std::memcpy(reinterpret_cast<void *>(destination), source, size);
  return kSuccess;
}

__attribute__((visibility("default"))) int
cuMemcpyDtoH_v2(void *destination, uint64_t source, size_t size) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  std::memcpy(destination, reinterpret_cast<const void *>(source), size);
  return kSuccess;
}

__attribute__((visibility("default"))) int
cuMemcpyHtoDAsync_v2(uint64_t destination, const void *source, size_t size,
                     void *stream) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  Op op(Op::Copy);
  op.destination = reinterpret_cast<void *>(destination);
  op.source = source;
  op.size = size;
  return submit(stream, op);
}

__attribute__((visibility("default"))) int
cuMemcpyDtoHAsync_v2(void *destination, uint64_t source, size_t size,
                     void *stream) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  Op op(Op::Copy);
  op.destination = destination;
  op.source = reinterpret_cast<const void *>(source);
  op.size = size;
  return submit(stream, op);
}

__attribute__((visibility("default"))) int cuStreamCreate(void **stream,
                                                          unsigned) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  *stream = new Stream;
  live("streams", 1);
  return kSuccess;
}

__attribute__((visibility("default"))) int cuStreamDestroy_v2(void *stream) {
  ExemptScope exempt;
  return destroy<Stream>(stream, "streams");
}

__attribute__((visibility("default"))) int cuStreamSynchronize(void *) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  return kSuccess;
}

__attribute__((visibility("default"))) int cuStreamBeginCapture_v2(void *stream,
                                                                   int) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  static_cast<Stream *>(stream)->capturing = true;
  return kSuccess;
}

__attribute__((visibility("default"))) int cuStreamEndCapture(void *stream,
                                                              void **graph) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  auto *s = static_cast<Stream *>(stream);
  s->capturing = false;
  *graph = new Graph{std::move(s->captured)};
  s->captured.clear();
  live("graphs", 1);
  return kSuccess;
}

__attribute__((visibility("default"))) int
cuGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  *exec = new Graph(*static_cast<Graph *>(graph));
  live("execs", 1);
  ++state().counts["instantiations"];
  return kSuccess;
}

__attribute__((visibility("default"))) int cuGraphLaunch(void *exec,
                                                         void *stream) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  ++state().counts["graph_launches"];
  for (const Op &op : static_cast<Graph *>(exec)->ops)
    submit(stream, op);
  return kSuccess;
}

__attribute__((visibility("default"))) int cuGraphExecDestroy(void *exec) {
  ExemptScope exempt;
  return destroy<Graph>(exec, "execs");
}

__attribute__((visibility("default"))) int cuGraphDestroy(void *graph) {
  ExemptScope exempt;
  return destroy<Graph>(graph, "graphs");
}

__attribute__((visibility("default"))) int cuEventCreate(void **event,
                                                         unsigned) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  *event = new Event;
  live("events", 1);
  return kSuccess;
}

__attribute__((visibility("default"))) int cuEventRecord(void *event,
                                                         void *stream) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  Op op(Op::Record);
  op.event = event;
  return submit(stream, op);
}

__attribute__((visibility("default"))) int cuEventSynchronize(void *) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  return kSuccess;
}

__attribute__((visibility("default"))) int
cuEventElapsedTime_v2(float *milliseconds, void *start, void *end) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  *milliseconds =
      std::chrono::duration<float, std::milli>(
          static_cast<Event *>(end)->when - static_cast<Event *>(start)->when)
          .count();
  return kSuccess;
}

__attribute__((visibility("default"))) int cuEventDestroy_v2(void *event) {
  ExemptScope exempt;
  return destroy<Event>(event, "events");
}

__attribute__((visibility("default"))) int
cuLaunchKernel(void *function, unsigned gridX, unsigned gridY, unsigned gridZ,
               unsigned blockX, unsigned blockY, unsigned blockZ, unsigned,
               void *stream, void **params, void **) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(true)
  Op op(Op::Launch);
  op.kernel = *static_cast<std::string *>(function);
  op.threads = uint64_t(gridX) * gridY * gridZ * blockX * blockY * blockZ;
  // Parameters are read at launch (or capture) time, as CUDA does.
  size_t count = arithmeticKernel(op.kernel) && params ? 3 : 0;
  for (size_t i = 0; i < count; ++i)
    op.args.push_back(*static_cast<uint64_t *>(params[i]));
  return submit(stream, op);
}

#ifndef AICC_FAKE_CUDA_NO_TENSOR_MAPS
__attribute__((visibility("default"))) int
cuTensorMapEncodeTiled(void *tensorMap, int dataType, uint32_t rank,
                       void *globalAddress, const uint64_t *globalDim,
                       const uint64_t *globalStrides, const uint32_t *boxDim,
                       const uint32_t *elementStrides, int interleave,
                       int swizzle, int l2Promotion, int oobFill) {
  ExemptScope exempt;
  AICC_FAKE_ENTER(false)
  // Element sizes of CU_TENSOR_MAP_DATA_TYPE_UINT8 to _TFLOAT32_FTZ.
  static const uint64_t sizes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  uint64_t address = reinterpret_cast<uint64_t>(globalAddress);
  if (!tensorMap || reinterpret_cast<uint64_t>(tensorMap) % 64 != 0 ||
      dataType < 0 || dataType > 12 || rank < 1 || rank > 5 || !address ||
      address % 16 != 0 || interleave != 0 || swizzle < 0 || swizzle > 3 ||
      l2Promotion < 0 || l2Promotion > 3 || oobFill < 0 || oobFill > 1)
    return kInvalidValue;
  uint64_t elementSize = sizes[dataType];
  for (uint32_t d = 0; d < rank; ++d) {
    if (globalDim[d] < 1 || globalDim[d] > (uint64_t(1) << 32) ||
        boxDim[d] < 1 || boxDim[d] > 256 || elementStrides[d] < 1 ||
        elementStrides[d] > 8)
      return kInvalidValue;
    if (d > 0 && (globalStrides[d - 1] % 16 != 0 ||
                  globalStrides[d - 1] >= (uint64_t(1) << 40)))
      return kInvalidValue;
  }
  uint64_t boxRow = boxDim[0] * elementSize;
  if (boxRow % 16 != 0 || (swizzle != 0 && boxRow > (16u << swizzle)))
    return kInvalidValue;
  FakeTensorMap map = {};
  std::memcpy(map.magic, "FAKETMAP", 8);
  map.address = address;
  map.dataType = uint32_t(dataType);
  map.rank = rank;
  for (uint32_t d = 0; d < rank; ++d) {
    map.dims[d] = globalDim[d];
    map.box[d] = boxDim[d];
    if (d > 0)
      map.strides[d - 1] = globalStrides[d - 1];
  }
  map.interleave = uint8_t(interleave);
  map.swizzle = uint8_t(swizzle);
  map.l2Promotion = uint8_t(l2Promotion);
  map.oobFill = uint8_t(oobFill);
  std::memset(tensorMap, 0, 128);
  std::memcpy(tensorMap, &map, sizeof(map));
  return kSuccess;
}
#endif

__attribute__((visibility("default"))) int cuGetErrorName(int error,
                                                          const char **name) {
  ExemptScope exempt;
  switch (error) {
  case 0:
    *name = "CUDA_SUCCESS";
    return kSuccess;
  case 1:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return kSuccess;
  case 2:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return kSuccess;
  case 100:
    *name = "CUDA_ERROR_NO_DEVICE";
    return kSuccess;
  case 201:
    *name = "CUDA_ERROR_INVALID_CONTEXT";
    return kSuccess;
  case 209:
    *name = "CUDA_ERROR_NO_BINARY_FOR_GPU";
    return kSuccess;
  case 222:
    *name = "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
    return kSuccess;
  case 700:
    *name = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return kSuccess;
  }
  *name = nullptr;
  return kInvalidValue;
}

__attribute__((visibility("default"))) int cuGetErrorString(int error,
                                                            const char **text) {
  ExemptScope exempt;
  *text = error == 700 ? "an illegal memory access was encountered"
                       : "fake CUDA driver error";
  return kSuccess;
}
} // extern "C"
