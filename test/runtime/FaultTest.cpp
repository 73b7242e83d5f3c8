//===- FaultTest.cpp - Allocation failure at every site of the runtime ----===//
//
//   aicc-runtime-fault-test MODEL.bin
//
// Replaces the process's operator new and delete (every form) and, through
// the linker's --wrap, the runtime's aligned_alloc and free, then drives the
// C ABI through one scenario: load MODEL.bin from its file and from memory,
// query its tensors, create a context (three pool threads, and one with
// profiling), run both, read the profile, release everything. First the
// scenario runs once without faults, to record the outputs and the number
// of allocations the runtime makes. Then, for every N from 1 to that
// number, it runs again with the Nth allocation failing, and checks:
//
//   - the call that met the failure returned AICC_RESOURCE_EXHAUSTED with
//     a message (or, where the runtime could do without the memory,
//     succeeded); no exception crossed the C ABI; nothing aborted;
//   - the same call, retried without the fault, succeeds: the objects it
//     was given still work, and every run gives the recorded outputs bit
//     for bit;
//   - once everything is released, the heap blocks and file descriptors
//     alive are those alive before the scenario: nothing leaked.
//
// A CUDA bundle runs on the fake driver (test/runtime/FakeCudaDriver.cpp),
// whose own allocations are exempt through aicc_fault_exempt: a driver's
// host memory is not the runtime's. Prints "fault: N allocation sites, F
// failed with resource exhausted, S did without, no leaks" and exits 0, or
// names the first violation and exits 1.
//
//===----------------------------------------------------------------------===//

#include "aicc/runtime.h"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <new>
#include <string>
#include <vector>

//===----------------------------------------------------------------------===//
// The allocator
//===----------------------------------------------------------------------===//

namespace {
std::atomic<long> liveBlocks{0}; // blocks from new and wrapped aligned_alloc
std::atomic<long> armedCount{0}; // allocations since arming
std::atomic<bool> armed{false};  // inside a runtime call that may fail
bool faultsOn = false;           // whether this scenario injects
long failAt = 0;                 // the allocation that fails, counted from 1
bool injected = false;           // whether it has happened in this scenario
thread_local int exempt = 0;     // inside the fake driver

/// Whether the allocation being made must fail.
bool shouldFail() {
  if (!armed.load(std::memory_order_relaxed) || exempt > 0)
    return false;
  long n = armedCount.fetch_add(1) + 1;
  if (n != failAt)
    return false;
  injected = true;
  return true;
}

void *allocate(std::size_t size, std::size_t alignment, bool nothrow) {
  if (shouldFail()) {
    if (nothrow)
      return nullptr;
    throw std::bad_alloc();
  }
  if (size == 0)
    size = 1;
  void *p = nullptr;
  if (alignment <= alignof(std::max_align_t))
    p = std::malloc(size);
  else if (posix_memalign(&p, alignment, size) != 0)
    p = nullptr;
  if (!p) {
    if (nothrow)
      return nullptr;
    throw std::bad_alloc();
  }
  liveBlocks.fetch_add(1);
  return p;
}

void deallocate(void *p) {
  if (!p)
    return;
  liveBlocks.fetch_sub(1);
  std::free(p);
}

// The blocks the runtime took from aligned_alloc, so that free counts only
// those (it also frees memory from the C library's own allocations).
constexpr int kTracked = 1024;
std::atomic<void *> tracked[kTracked];
} // namespace

extern "C" {
/// Called by the fake CUDA driver on entry (+1) and exit (-1).
__attribute__((visibility("default"))) void aicc_fault_exempt(int change) {
  exempt += change;
}

void *__real_aligned_alloc(std::size_t alignment, std::size_t size);
void __real_free(void *p);

void *__wrap_aligned_alloc(std::size_t alignment, std::size_t size) {
  if (shouldFail()) {
    errno = ENOMEM;
    return nullptr;
  }
  void *p = __real_aligned_alloc(alignment, size);
  if (!p)
    return nullptr;
  for (std::atomic<void *> &slot : tracked) {
    void *none = nullptr;
    if (slot.compare_exchange_strong(none, p)) {
      liveBlocks.fetch_add(1);
      return p;
    }
  }
  std::fprintf(stderr, "fault: too many aligned blocks to track\n");
  std::abort();
}

void __wrap_free(void *p) {
  if (p)
    for (std::atomic<void *> &slot : tracked) {
      void *expected = p;
      if (slot.load(std::memory_order_relaxed) == p &&
          slot.compare_exchange_strong(expected, nullptr)) {
        liveBlocks.fetch_sub(1);
        break;
      }
    }
  __real_free(p);
}
}

void *operator new(std::size_t n) { return allocate(n, 0, false); }
void *operator new[](std::size_t n) { return allocate(n, 0, false); }
void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
  return allocate(n, 0, true);
}
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept {
  return allocate(n, 0, true);
}
void *operator new(std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a), false);
}
void *operator new[](std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a), false);
}
void *operator new(std::size_t n, std::align_val_t a,
                   const std::nothrow_t &) noexcept {
  return allocate(n, static_cast<std::size_t>(a), true);
}
void *operator new[](std::size_t n, std::align_val_t a,
                     const std::nothrow_t &) noexcept {
  return allocate(n, static_cast<std::size_t>(a), true);
}
void operator delete(void *p) noexcept { deallocate(p); }
void operator delete[](void *p) noexcept { deallocate(p); }
void operator delete(void *p, std::size_t) noexcept { deallocate(p); }
void operator delete[](void *p, std::size_t) noexcept { deallocate(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept {
  deallocate(p);
}
void operator delete[](void *p, const std::nothrow_t &) noexcept {
  deallocate(p);
}
void operator delete(void *p, std::align_val_t) noexcept { deallocate(p); }
void operator delete[](void *p, std::align_val_t) noexcept { deallocate(p); }
void operator delete(void *p, std::size_t, std::align_val_t) noexcept {
  deallocate(p);
}
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept {
  deallocate(p);
}
void operator delete(void *p, std::align_val_t,
                     const std::nothrow_t &) noexcept {
  deallocate(p);
}
void operator delete[](void *p, std::align_val_t,
                       const std::nothrow_t &) noexcept {
  deallocate(p);
}

//===----------------------------------------------------------------------===//
// The scenario
//===----------------------------------------------------------------------===//

namespace {

int openDescriptors() {
  int count = 0;
  if (DIR *dir = opendir("/proc/self/fd")) {
    while (readdir(dir))
      ++count;
    closedir(dir);
  }
  return count;
}

struct Failure {
  std::string what;
};

/// Counts of what the injected failures did.
struct Tally {
  long exhausted = 0; // the call reported AICC_RESOURCE_EXHAUSTED
  long tolerated = 0; // the call succeeded anyway
};

class Scenario {
public:
  Scenario(const std::string &path, const std::vector<unsigned char> &bytes,
           Tally &tally)
      : path(path), bytes(bytes), tally(tally) {}

  /// Runs the scenario; `outputs` is filled on the first (fault-free) run
  /// and compared on the others.
  void run(std::vector<std::vector<unsigned char>> &outputs, bool record);

private:
  /// Calls `body` with faults armed. A failure must be the injected one,
  /// reported as AICC_RESOURCE_EXHAUSTED; the call is then retried
  /// without faults and must succeed.
  template <typename Body> void call(const char *name, Body body) {
    bool before = injected;
    aicc_status_t status = armedCall(name, body);
    bool hit = injected && !before;
    if (status == AICC_OK) {
      if (hit)
        ++tally.tolerated;
      return;
    }
    std::string message = aicc_last_error_message();
    if (!hit)
      throw Failure{std::string(name) + " failed with no fault injected: " +
                    aicc_status_string(status) + ": " + message};
    if (status != AICC_RESOURCE_EXHAUSTED)
      throw Failure{std::string(name) + " met an allocation failure and " +
                    "returned '" + aicc_status_string(status) +
                    "', not resource exhausted: " + message};
    if (message.empty())
      throw Failure{std::string(name) + " gave no message"};
    ++tally.exhausted;
    status = body();
    if (status != AICC_OK)
      throw Failure{std::string(name) +
                    " failed when retried: " + aicc_status_string(status) +
                    ": " + aicc_last_error_message()};
  }

  /// Calls `body`, failing the chosen allocation when it is made there:
  /// the test's own allocations between calls are never counted.
  template <typename Body>
  aicc_status_t armedCall(const char *name, Body &body) {
    armed.store(faultsOn);
    try {
      aicc_status_t status = body();
      armed.store(false);
      return status;
    } catch (const std::exception &e) {
      armed.store(false);
      throw Failure{std::string("an exception crossed the C ABI from ") + name +
                    ": " + e.what()};
    }
  }

  void runContext(aicc_context *context, aicc_model *model,
                  std::vector<std::vector<unsigned char>> &outputs,
                  bool record);

  const std::string &path;
  const std::vector<unsigned char> &bytes;
  Tally &tally;
};

/// Inputs every run uses: small values whatever the element type.
std::vector<std::vector<unsigned char>> makeInputs(aicc_model *model) {
  std::vector<std::vector<unsigned char>> inputs;
  for (size_t i = 0; i < aicc_model_input_count(model); ++i) {
    aicc_tensor_info info;
    if (aicc_model_input_info(model, i, &info) != AICC_OK)
      throw Failure{"input info"};
    std::vector<unsigned char> data(info.byte_size);
    for (size_t b = 0; b < data.size(); ++b)
      data[b] = static_cast<unsigned char>((b * 7 + i) % 5);
    if (info.dtype == AICC_DTYPE_FLOAT32)
      for (size_t e = 0; e + 4 <= data.size(); e += 4) {
        float value = 0.25f * float((e / 4) % 9) - 1.0f;
        std::memcpy(&data[e], &value, 4);
      }
    inputs.push_back(std::move(data));
  }
  return inputs;
}

void Scenario::runContext(aicc_context *context, aicc_model *model,
                          std::vector<std::vector<unsigned char>> &outputs,
                          bool record) {
  std::vector<std::vector<unsigned char>> inputs = makeInputs(model);
  std::vector<std::vector<unsigned char>> results;
  for (size_t i = 0; i < aicc_model_output_count(model); ++i) {
    aicc_tensor_info info;
    call("aicc_model_output_info",
         [&] { return aicc_model_output_info(model, i, &info); });
    results.emplace_back(info.byte_size, 0xcd);
  }
  std::vector<const void *> in;
  for (auto &data : inputs)
    in.push_back(data.data());
  std::vector<void *> out;
  for (auto &data : results)
    out.push_back(data.data());
  for (int repeat = 0; repeat < 2; ++repeat) {
    call("aicc_context_run", [&] {
      return aicc_context_run(context, in.data(), in.size(), out.data(),
                              out.size());
    });
    if (record && outputs.size() < results.size()) {
      outputs = results;
    } else if (results != outputs) {
      throw Failure{"a run gave outputs different from the fault-free run"};
    }
  }
}

void Scenario::run(std::vector<std::vector<unsigned char>> &outputs,
                   bool record) {
  aicc_model *fromFile = nullptr, *fromMemory = nullptr;
  aicc_context *context = nullptr, *profiled = nullptr;
  auto releaseAll = [&] {
    aicc_context_release(profiled);
    aicc_context_release(context);
    aicc_model_release(fromMemory);
    aicc_model_release(fromFile);
  };
  try {
    call("aicc_model_load_file",
         [&] { return aicc_model_load_file(path.c_str(), &fromFile); });
    call("aicc_model_load_memory", [&] {
      return aicc_model_load_memory(bytes.data(), bytes.size(), &fromMemory);
    });
    for (size_t i = 0; i < aicc_model_input_count(fromFile); ++i) {
      aicc_tensor_info info;
      call("aicc_model_input_info",
           [&] { return aicc_model_input_info(fromFile, i, &info); });
    }
    aicc_context_options options;
    aicc_context_options_init(&options);
    options.num_threads = 3; // two workers: a failure can meet a started one
    call("aicc_context_create",
         [&] { return aicc_context_create(fromFile, &options, &context); });
    // The model may go while its context lives.
    aicc_model_release(fromFile);
    aicc_model *model = fromFile;
    fromFile = nullptr;
    runContext(context, model, outputs, record);
    options.flags = AICC_CONTEXT_PROFILE;
    call("aicc_context_create",
         [&] { return aicc_context_create(fromMemory, &options, &profiled); });
    runContext(profiled, fromMemory, outputs, false);
    const aicc_profile_entry *entries = nullptr;
    size_t count = 0;
    call("aicc_context_profile",
         [&] { return aicc_context_profile(profiled, &entries, &count); });
    if (count == 0)
      throw Failure{"a profiled run recorded no steps"};
  } catch (...) {
    releaseAll();
    throw;
  }
  releaseAll();
}

bool readFile(const std::string &path, std::vector<unsigned char> &bytes) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return false;
  unsigned char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    bytes.insert(bytes.end(), buffer, buffer + n);
  std::fclose(file);
  return true;
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: aicc-runtime-fault-test MODEL.bin\n");
    return 2;
  }
  std::string path = argv[1];
  std::vector<unsigned char> bytes;
  if (!readFile(path, bytes)) {
    std::fprintf(stderr, "fault: cannot read %s\n", path.c_str());
    return 1;
  }
  Tally tally;
  Scenario scenario(path, bytes, tally);
  std::vector<std::vector<unsigned char>> outputs;
  try {
    // Fault-free, twice: the first records the outputs and sets up what
    // lives as long as the process (a loaded driver, this thread's error
    // message buffer, which a long message gives a heap block).
    aicc_tensor_info info;
    (void)aicc_model_input_info(nullptr, 0, &info);
    scenario.run(outputs, true);
    failAt = 0;
    armedCount.store(0);
    faultsOn = true;
    scenario.run(outputs, false);
    long sites = armedCount.load();
    if (sites == 0)
      throw Failure{"the runtime made no allocations: nothing was tested"};
    for (failAt = 1; failAt <= sites; ++failAt) {
      long blocks = liveBlocks.load();
      int descriptors = openDescriptors();
      injected = false;
      armedCount.store(0);
      scenario.run(outputs, false);
      if (!injected)
        throw Failure{"allocation " + std::to_string(failAt) +
                      " was never made: the runtime's allocations differ "
                      "between runs"};
      if (liveBlocks.load() != blocks)
        throw Failure{std::to_string(liveBlocks.load() - blocks) +
                      " heap blocks leaked"};
      if (openDescriptors() != descriptors)
        throw Failure{"file descriptors leaked"};
    }
    std::printf("fault: %ld allocation sites, %ld failed with resource "
                "exhausted, %ld did without, no leaks\n",
                sites, tally.exhausted, tally.tolerated);
    return 0;
  } catch (const Failure &failure) {
    std::printf("fault: allocation %ld of the scenario: %s\n", failAt,
                failure.what.c_str());
    return 1;
  }
}
