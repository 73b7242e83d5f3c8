//===- CudaSmokeTest.cpp - The GPU executor end to end --------------------===//
//
// Usage: aicc-runtime-cuda-smoke-test MODEL.bin [--runs N] [--expect-lost]
//
// Exercises a GPU bundle through the public C API on whatever device the
// runtime finds (a real GPU, or the fake driver via AICC_CUDA_DRIVER):
//
//  - loads it and prints the device;
//  - runs it with graphs (the default), without (AICC_CONTEXT_NO_GRAPHS)
//    and profiled (AICC_CONTEXT_PROFILE), each twice, on the same
//    deterministic inputs, and requires every output to be bitwise equal
//    to the first run's;
//  - times N runs of each mode (median wall time) and prints the profile;
//  - writes other inputs into a context's device buffers with the driver's
//    own copies, runs it resident, reads the outputs back the same way
//    and requires them to equal a copying run's on those inputs;
//  - runs two contexts on two threads at once;
//  - releases and reloads the model, and accepts options of the first
//    header version (struct_size 8).
//
// With --expect-lost the bundle must fail on the device instead (a kernel
// that faults): the first run must return AICC_DEVICE_LOST, and so must
// every later call on that context, with the same message.
//
// Needs no CUDA headers or libraries to build. Prints one line per check;
// exits 0 when all pass.
//
//===----------------------------------------------------------------------===//

#include "aicc/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <vector>

namespace {
int failures = 0;

void check(bool ok, const std::string &what, const char *detail = "") {
  std::printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", what.c_str(),
              *detail ? ": " : "", detail);
  failures += !ok;
}

using Buffers = std::vector<std::vector<uint8_t>>;

/// Deterministic inputs: small values that every element type can hold.
Buffers makeInputs(aicc_model *model, uint32_t seed = 12345) {
  Buffers inputs;
  uint32_t state = seed;
  for (size_t i = 0; i < aicc_model_input_count(model); ++i) {
    aicc_tensor_info info;
    aicc_model_input_info(model, i, &info);
    std::vector<uint8_t> bytes(info.byte_size);
    size_t element = aicc_dtype_size(info.dtype);
    for (size_t e = 0; element && e < bytes.size() / element; ++e) {
      state = state * 1664525u + 1013904223u;
      float value = float(state >> 8) / float(1 << 24) - 0.5f;
      uint8_t *at = bytes.data() + e * element;
      switch (info.dtype) {
      case AICC_DTYPE_FLOAT32:
        std::memcpy(at, &value, 4);
        break;
      case AICC_DTYPE_FLOAT16:
      case AICC_DTYPE_BFLOAT16:
        // A value of magnitude 0.25 to 0.5 (f16) or 0.125 to 0.5 (bf16)
        // whose sign and low bits come from the seed's sequence.
        at[0] = uint8_t(state >> 16);
        at[1] = uint8_t((info.dtype == AICC_DTYPE_FLOAT16 ? 0x34 : 0x3e) |
                        ((state >> 31) << 7));
        break;
      case AICC_DTYPE_FLOAT64: {
        double d = value;
        std::memcpy(at, &d, 8);
        break;
      }
      case AICC_DTYPE_BOOL:
        at[0] = state >> 31;
        break;
      default:
        at[0] = uint8_t(state >> 28);
      }
    }
    inputs.push_back(std::move(bytes));
  }
  return inputs;
}

Buffers makeOutputs(aicc_model *model) {
  Buffers outputs;
  for (size_t i = 0; i < aicc_model_output_count(model); ++i) {
    aicc_tensor_info info;
    aicc_model_output_info(model, i, &info);
    outputs.emplace_back(info.byte_size, 0xcd);
  }
  return outputs;
}

aicc_status_t run(aicc_context *context, const Buffers &inputs,
                  Buffers &outputs) {
  std::vector<const void *> in;
  std::vector<void *> out;
  for (const auto &b : inputs)
    in.push_back(b.data());
  for (auto &b : outputs)
    out.push_back(b.data());
  return aicc_context_run(context, in.data(), in.size(), out.data(),
                          out.size());
}

aicc_context *create(aicc_model *model, uint32_t flags) {
  aicc_context_options options;
  aicc_context_options_init(&options);
  options.flags = flags;
  aicc_context *context = nullptr;
  if (aicc_context_create(model, &options, &context) != AICC_OK)
    return nullptr;
  return context;
}

int expectLost(aicc_model *model) {
  // The device is gone for the whole process after the fault: for the
  // context that ran the kernel, for another context of the model, and
  // for a context created afterwards.
  aicc_context *context = create(model, 0);
  aicc_context *other = create(model, 0);
  if (!context || !other) {
    check(false, "context", aicc_last_error_message());
    return 1;
  }
  Buffers inputs = makeInputs(model), outputs = makeOutputs(model);
  aicc_status_t first = run(context, inputs, outputs);
  std::string message = aicc_last_error_message();
  check(first == AICC_DEVICE_LOST, "the run fails: device lost",
        message.c_str());
  aicc_status_t second = run(context, inputs, outputs);
  check(second == AICC_DEVICE_LOST && message == aicc_last_error_message(),
        "a second run returns the same", aicc_last_error_message());
  const aicc_profile_entry *entries = nullptr;
  size_t count = 0;
  check(aicc_context_profile(context, &entries, &count) == AICC_DEVICE_LOST,
        "and so does the profile");
  double deviceMs = 0;
  check(aicc_context_device_time(context, &deviceMs) == AICC_DEVICE_LOST,
        "and the device time");
  check(run(other, inputs, outputs) == AICC_DEVICE_LOST,
        "another context of the model: device lost", aicc_last_error_message());
  aicc_context *later = nullptr;
  aicc_context_options options;
  aicc_context_options_init(&options);
  check(aicc_context_create(model, &options, &later) == AICC_DEVICE_LOST &&
            !later,
        "a new context: device lost", aicc_last_error_message());
  aicc_context_release(other);
  aicc_context_release(context);
  aicc_model_release(model);
  std::printf(failures ? "%d checks failed\n" : "all checks passed\n",
              failures);
  return failures ? 1 : 0;
}

/// The driver's own calls, as an application whose data lives on the GPU
/// makes them: the same library the runtime loads (AICC_CUDA_DRIVER, else
/// libcuda.so.1), copies in the device's primary context.
class Driver {
public:
  Driver() {
    const char *path = std::getenv("AICC_CUDA_DRIVER");
    library = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW);
    if (!library)
      return;
    ok = load(init, "cuInit") && load(deviceGet, "cuDeviceGet") &&
         load(retain, "cuDevicePrimaryCtxRetain") &&
         load(release, "cuDevicePrimaryCtxRelease_v2") &&
         load(push, "cuCtxPushCurrent_v2") && load(pop, "cuCtxPopCurrent_v2") &&
         load(toDevice, "cuMemcpyHtoD_v2") && load(toHost, "cuMemcpyDtoH_v2");
    const char *ordinal = std::getenv("AICC_CUDA_DEVICE");
    ok = ok && init(0) == 0 &&
         deviceGet(&device, ordinal ? std::atoi(ordinal) : 0) == 0 &&
         retain(&context, device) == 0;
  }
  ~Driver() {
    if (context)
      release(device);
    if (library)
      dlclose(library);
  }
  bool ok = false;
  /// Copies `size` bytes to (`in`) or from the device, in the primary
  /// context.
  bool copy(bool in, uint64_t address, void *host, size_t size) {
    void *popped = nullptr;
    if (push(context) != 0)
      return false;
    bool copied =
        (in ? toDevice(address, host, size) : toHost(host, address, size)) == 0;
    return pop(&popped) == 0 && copied;
  }

private:
  template <typename F> bool load(F &function, const char *name) {
    function = reinterpret_cast<F>(dlsym(library, name));
    return function != nullptr;
  }
  void *library = nullptr;
  void *context = nullptr;
  int device = 0;
  int (*init)(unsigned) = nullptr;
  int (*deviceGet)(int *, int) = nullptr;
  int (*retain)(void **, int) = nullptr;
  int (*release)(int) = nullptr;
  int (*push)(void *) = nullptr;
  int (*pop)(void **) = nullptr;
  int (*toDevice)(uint64_t, const void *, size_t) = nullptr;
  int (*toHost)(void *, uint64_t, size_t) = nullptr;
};

/// Resident runs: inputs written into the context's device buffers with
/// the driver's own copies, aicc_context_run_resident, outputs read back
/// from its device buffers; they must equal a copying run's on the same
/// inputs. The buffers' sizes are the tensors', and misuse is refused.
void checkResident(aicc_model *model) {
  Driver driver;
  if (!driver.ok) {
    const char *why = dlerror();
    check(false, "resident: loading the driver's copies", why ? why : "");
    return;
  }
  aicc_context *context = create(model, 0);
  if (!context) {
    check(false, "resident: context", aicc_last_error_message());
    return;
  }
  // The copying run's outputs on other inputs than those the device
  // buffers hold last.
  Buffers inputs = makeInputs(model, 777), expected = makeOutputs(model);
  Buffers other = makeInputs(model), scratch = makeOutputs(model);
  bool ok = run(context, inputs, expected) == AICC_OK &&
            run(context, other, scratch) == AICC_OK;
  check(ok, "resident: copying runs", ok ? "" : aicc_last_error_message());
  // Else a resident run that left the device buffers as they were would
  // pass.
  check(expected != scratch, "resident: the two input sets give different "
                             "outputs");
  Buffers outputs = makeOutputs(model);
  bool sizes = true, copied = true;
  // Copies every tensor of `data` to (AICC_IO_INPUT) or from its device
  // buffer.
  auto transfer = [&](aicc_io_kind kind, Buffers &data) {
    for (size_t i = 0; i < data.size(); ++i) {
      uint64_t address = 0;
      size_t size = 0;
      sizes &= aicc_context_device_buffer(context, kind, i, &address, &size) ==
                   AICC_OK &&
               size == data[i].size() && (address || !size);
      copied &= !size || driver.copy(kind == AICC_IO_INPUT, address,
                                     data[i].data(), size);
    }
  };
  transfer(AICC_IO_INPUT, inputs);
  aicc_status_t status = aicc_context_run_resident(context);
  check(status == AICC_OK, "resident: run", aicc_last_error_message());
  transfer(AICC_IO_OUTPUT, outputs);
  check(sizes, "resident: device buffers of the tensors' sizes");
  check(copied, "resident: the driver's copies to and from them");
  check(status == AICC_OK && outputs == expected,
        "resident: outputs equal the copying run's");
  // Each call before its check: the message is read after the call.
  double ms = -1;
  bool timed = aicc_context_device_time(context, &ms) == AICC_OK && ms >= 0;
  check(timed, "resident: device time " + std::to_string(ms) + " ms");
  uint64_t address = 1;
  size_t size = 1;
  bool refused =
      aicc_context_device_buffer(context, AICC_IO_OUTPUT, outputs.size(),
                                 &address, &size) == AICC_INVALID_ARGUMENT &&
      address == 0 && size == 0;
  check(refused, "resident: an output index out of range is refused",
        aicc_last_error_message());
  refused = aicc_context_device_buffer(context, aicc_io_kind(2), 0, &address,
                                       &size) == AICC_INVALID_ARGUMENT;
  check(refused, "resident: an unknown kind is refused",
        aicc_last_error_message());
  refused = aicc_context_run_resident(nullptr) == AICC_INVALID_ARGUMENT;
  check(refused, "resident: a NULL context is refused",
        aicc_last_error_message());
  aicc_context_release(context);
}

double medianMs(aicc_context *context, const Buffers &inputs, Buffers &outputs,
                int runs) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (run(context, inputs, outputs) != AICC_OK)
      return -1;
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
} // namespace

int main(int argc, char **argv) {
  const char *path = nullptr;
  int runs = 50;
  bool lost = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--expect-lost"))
      lost = true;
    else if (!path && argv[i][0] != '-')
      path = argv[i];
    else
      path = nullptr, i = argc;
  }
  if (!path) {
    std::fprintf(stderr, "usage: %s MODEL.bin [--runs N] [--expect-lost]\n",
                 argv[0]);
    return 2;
  }
  aicc_model *model = nullptr;
  if (aicc_status_t s = aicc_model_load_file(path, &model)) {
    std::printf("FAIL load: %s: %s\n", aicc_status_string(s),
                aicc_last_error_message());
    return 1;
  }
  std::printf("ok   load: %s on %s\n", aicc_model_name(model),
              aicc_model_device(model));
  if (std::strncmp(aicc_model_driver(model), "CUDA ", 5) != 0) {
    std::printf("FAIL driver: '%s' is not 'CUDA <version>'\n",
                aicc_model_driver(model));
    aicc_model_release(model);
    return 1;
  }
  std::printf("ok   driver: %s\n", aicc_model_driver(model));
  if (lost)
    return expectLost(model);

  Buffers inputs = makeInputs(model);
  Buffers reference = makeOutputs(model);
  const struct {
    const char *name;
    uint32_t flags;
  } modes[] = {{"graphs", 0},
               {"no graphs", AICC_CONTEXT_NO_GRAPHS},
               {"profiled", AICC_CONTEXT_PROFILE}};
  bool haveReference = false;
  for (const auto &mode : modes) {
    aicc_context *context = create(model, mode.flags);
    if (!context) {
      check(false, std::string(mode.name) + ": context",
            aicc_last_error_message());
      continue;
    }
    check(aicc_context_num_threads(context) == 1,
          std::string(mode.name) + ": one thread per context");
    for (int r = 0; r < 2; ++r) {
      Buffers outputs = makeOutputs(model);
      if (run(context, inputs, outputs) != AICC_OK) {
        check(false, std::string(mode.name) + ": run",
              aicc_last_error_message());
        break;
      }
      if (!haveReference) {
        reference = outputs;
        haveReference = true;
      }
      check(outputs == reference, std::string(mode.name) + ": run " +
                                      std::to_string(r + 1) +
                                      " matches the first run");
    }
    Buffers outputs = makeOutputs(model);
    double ms = medianMs(context, inputs, outputs, runs);
    check(ms >= 0,
          std::string(mode.name) + ": " + std::to_string(runs) +
              " runs, median " + std::to_string(ms) + " ms",
          ms < 0 ? aicc_last_error_message() : "");
    if (mode.flags & AICC_CONTEXT_PROFILE) {
      const aicc_profile_entry *entries = nullptr;
      size_t count = 0;
      bool ok = aicc_context_profile(context, &entries, &count) == AICC_OK &&
                count > 0;
      double total = 0;
      for (size_t i = 0; ok && i < count; ++i) {
        const aicc_profile_entry &e = entries[i];
        ok &= e.milliseconds >= 0 && e.kernel && *e.kernel && e.source;
        total += e.milliseconds;
        if (i < 20)
          std::printf("       %2zu %-32s %9.4f ms  %ux%ux%u x %ux%ux%u  %s\n",
                      i, e.kernel, e.milliseconds, e.grid[0], e.grid[1],
                      e.grid[2], e.block[0], e.block[1], e.block[2], e.source);
      }
      check(ok, "profiled: " + std::to_string(count) +
                    " entries, kernels total " + std::to_string(total) + " ms");
    }
    aicc_context_release(context);
  }

  checkResident(model);

  // Two contexts, two threads, at once.
  bool agree[2] = {false, false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      aicc_context *context = create(model, 0);
      if (!context)
        return;
      bool ok = true;
      for (int r = 0; r < 20 && ok; ++r) {
        Buffers outputs = makeOutputs(model);
        ok = run(context, inputs, outputs) == AICC_OK && outputs == reference;
      }
      agree[t] = ok;
      aicc_context_release(context);
    });
  for (std::thread &t : threads)
    t.join();
  check(agree[0] && agree[1], "two contexts on two threads agree");

  // Options of the first header version: no flags field.
  aicc_context_options old;
  aicc_context_options_init(&old);
  old.struct_size = 8;
  aicc_context *context = nullptr;
  check(aicc_context_create(model, &old, &context) == AICC_OK,
        "8-byte options are accepted", aicc_last_error_message());
  aicc_context_release(context);
  aicc_model_release(model);

  for (int i = 0; i < 3; ++i) {
    if (aicc_model_load_file(path, &model) != AICC_OK) {
      check(false, "reload", aicc_last_error_message());
      break;
    }
    aicc_context *c = create(model, 0);
    Buffers outputs = makeOutputs(model);
    bool ok = c && run(c, inputs, outputs) == AICC_OK && outputs == reference;
    aicc_context_release(c);
    aicc_model_release(model);
    check(ok, "reload " + std::to_string(i + 1) + " runs and agrees");
  }
  std::printf(failures ? "%d checks failed\n" : "all checks passed\n",
              failures);
  return failures ? 1 : 0;
}
