//===- Runtime.cpp - Models and execution contexts ------------------------===//

#include "aicc/runtime.h"

#include "BundleReader.h"
#include "CpuCode.h"
#include "CpuFeatures.h"
#include "Error.h"
#include "GpuExecutor.h"
#include "ThreadPool.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <new>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace aicc::runtime;

namespace {
struct AlignedFree {
  void operator()(void *p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<uint8_t, AlignedFree>;

AlignedBuffer alignedAllocate(size_t size, size_t alignment) {
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return AlignedBuffer(static_cast<uint8_t *>(
      std::aligned_alloc(alignment, rounded ? rounded : alignment)));
}

/// The execution record compiled code receives, with the pool behind it.
struct CpuExec {
  aicc_cpu_exec base;
  ThreadPool *pool;
};

void parallelFor(aicc_cpu_exec *exec, aicc_cpu_task_fn task, void *ctx,
                 int64_t count) {
  reinterpret_cast<CpuExec *>(exec)->pool->parallelFor(task, ctx, count);
}

/// Closes a file descriptor when it goes out of scope.
struct FileDescriptor {
  int fd;
  explicit FileDescriptor(int fd) : fd(fd) {}
  ~FileDescriptor() {
    if (fd >= 0)
      ::close(fd);
  }
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
};

unsigned onlineCpus() {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1;
}
} // namespace

struct aicc_model {
  std::atomic<int> references{1};
  // The bundle's bytes: a read-only file mapping or an aligned copy.
  void *mapping = nullptr;
  size_t mappingSize = 0;
  AlignedBuffer copy;
  BundleView view;
  CpuCode code;
  std::vector<aicc_cpu_entry_fn> entries; // one per launch step
  std::unique_ptr<GpuModel> gpu;          // GPU models only
  std::string device;
  std::string driver; // GPU models only

  ~aicc_model() {
    gpu.reset(); // before the bundle it reads goes
    if (mapping)
      munmap(mapping, mappingSize);
  }

  aicc_status_t initialize(const uint8_t *data, size_t size);
  aicc_status_t initializeCpu();
  aicc_tensor_info info(const aicc_tensor_record &record) const {
    aicc_tensor_info result;
    result.name = view.string(record.name);
    result.dtype = static_cast<aicc_dtype>(record.dtype);
    result.rank = record.rank;
    result.dims = view.dims + record.first_dim;
    result.byte_size = static_cast<size_t>(record.byte_size);
    return result;
  }
};

aicc_status_t aicc_model::initialize(const uint8_t *data, size_t size) {
  if (aicc_status_t s = parseBundle(data, size, view))
    return s;
  // A plan runs on one device: every step has the first one's target. A
  // plan with no steps (every output empty) runs where its code would.
  uint32_t target = view.plan->step_count ? view.steps[0].target
                                          : view.code.front().header->target;
  for (uint32_t i = 1; i < view.plan->step_count; ++i)
    if (view.steps[i].target != target)
      return fail(AICC_UNSUPPORTED_TARGET,
                  std::string("the plan mixes ") + targetName(target) +
                      " and " + targetName(view.steps[i].target) +
                      " steps; this runtime runs a plan on one device");
  switch (target) {
  case AICC_TARGET_CPU_X86_64:
    return initializeCpu();
  case AICC_TARGET_CUDA:
  case AICC_TARGET_ROCM:
    if (aicc_status_t s = GpuModel::load(view, target, gpu))
      return s;
    device = gpu->description();
    driver = gpu->driverDescription();
    return AICC_OK;
  }
  return fail(AICC_UNSUPPORTED_TARGET,
              std::string("the model runs on the ") + targetName(target) +
                  " target, which this runtime does not execute");
}

aicc_status_t aicc_model::initializeCpu() {
  // Pick the CPU code object that uses the most of what this host has.
  uint64_t host = hostCpuFeatures();
  const CodeView *chosen = nullptr;
  uint64_t missingOfBest = 0;
  for (const CodeView &code : view.code) {
    if (code.header->target != AICC_TARGET_CPU_X86_64)
      continue;
    uint64_t needed = code.header->required_features;
    if ((needed & ~host) != 0) {
      missingOfBest = needed & ~host;
      continue;
    }
    if (!chosen || __builtin_popcountll(needed) >
                       __builtin_popcountll(chosen->header->required_features))
      chosen = &code;
  }
  if (!chosen) {
    if (missingOfBest)
      return fail(AICC_UNSUPPORTED_TARGET,
                  "the model was compiled for a CPU with " +
                      cpuFeatureNames(missingOfBest) +
                      ", which this machine lacks; recompile with "
                      "--cpu=x86-64-v3 or --cpu=native");
    return fail(AICC_UNSUPPORTED_TARGET,
                "the bundle holds no code for x86-64 CPUs");
  }
  if ((chosen->header->required_features & AICC_CPU_AMX_TILE) && !enableAmx())
    return fail(AICC_UNSUPPORTED_TARGET,
                "the model uses AMX, which the operating system refused");
  if (aicc_status_t s = code.load(chosen->image, chosen->header->image_size))
    return s;
  for (uint32_t i = 0; i < view.plan->step_count; ++i) {
    const char *name = view.string(view.steps[i].entry);
    void *entry = code.symbol(name);
    if (!entry)
      return fail(AICC_INVALID_BUNDLE, std::string("the code object does not "
                                                   "export '") +
                                           name + "'");
    entries.push_back(reinterpret_cast<aicc_cpu_entry_fn>(entry));
  }
  device = std::string("cpu ") + chosen->arch;
  return AICC_OK;
}

struct aicc_context {
  aicc_model *model;
  uint32_t flags;
  AlignedBuffer arena;
  ThreadPool pool;
  CpuExec exec;
  std::vector<void *> buffers;     // every step's arguments, back to back
  std::unique_ptr<GpuContext> gpu; // GPU models only
  // AICC_CONTEXT_PROFILE on the CPU: each step's wall time.
  std::vector<aicc_profile_entry> profile;
  bool profiled = false;

  /// Holds a reference to `model` once constructed; a constructor that
  /// throws (no thread for the pool) takes none.
  aicc_context(aicc_model *model, unsigned threads, uint32_t flags)
      : model(model), flags(flags), pool(threads) {
    exec.base.parallel_for = parallelFor;
    exec.pool = &pool;
    model->references.fetch_add(1);
  }
  ~aicc_context() {
    gpu.reset(); // before the model it runs on may go
    aicc_model_release(model);
  }

  aicc_status_t runCpu(const void *const *inputs, void *const *outputs);
};

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

namespace {
aicc_status_t loadFile(const char *path, aicc_model **out_model) {
  if (!path || !out_model)
    return fail(AICC_INVALID_ARGUMENT, "path and out_model must not be NULL");
  *out_model = nullptr;
  FileDescriptor file(::open(path, O_RDONLY | O_CLOEXEC));
  if (file.fd < 0)
    return fail(AICC_IO_ERROR, std::string("cannot open '") + path +
                                   "': " + std::strerror(errno));
  struct stat st;
  if (fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode))
    return fail(AICC_IO_ERROR,
                std::string("'") + path + "' is not a regular file");
  size_t size = static_cast<size_t>(st.st_size);
  if (size == 0)
    return fail(AICC_INVALID_BUNDLE, std::string("'") + path + "' is empty");
  std::unique_ptr<aicc_model> model(new aicc_model());
  void *mapping = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file.fd, 0);
  if (mapping == MAP_FAILED)
    return fail(AICC_IO_ERROR, std::string("cannot map '") + path +
                                   "': " + std::strerror(errno));
  model->mapping = mapping; // the model unmaps it from here on
  model->mappingSize = size;
  if (aicc_status_t s =
          model->initialize(static_cast<const uint8_t *>(mapping), size))
    return fail(s, std::string(path) + ": " + aicc_last_error_message());
  *out_model = model.release();
  return AICC_OK;
}

aicc_status_t loadMemory(const void *data, size_t size,
                         aicc_model **out_model) {
  if (!data || !out_model)
    return fail(AICC_INVALID_ARGUMENT, "data and out_model must not be NULL");
  *out_model = nullptr;
  std::unique_ptr<aicc_model> model(new aicc_model());
  model->copy = alignedAllocate(size, AICC_BUNDLE_PAGE_ALIGNMENT);
  if (!model->copy)
    return fail(AICC_RESOURCE_EXHAUSTED,
                "cannot allocate " + std::to_string(size) + " bytes");
  std::memcpy(model->copy.get(), data, size);
  if (aicc_status_t s = model->initialize(model->copy.get(), size))
    return s;
  *out_model = model.release();
  return AICC_OK;
}
} // namespace

extern "C" aicc_status_t aicc_model_load_file(const char *path,
                                              aicc_model **out_model) {
  return guarded([&] { return loadFile(path, out_model); });
}

extern "C" aicc_status_t aicc_model_load_memory(const void *data, size_t size,
                                                aicc_model **out_model) {
  return guarded([&] { return loadMemory(data, size, out_model); });
}

extern "C" void aicc_model_release(aicc_model *model) {
  if (model && model->references.fetch_sub(1) == 1)
    delete model;
}

extern "C" const char *aicc_model_name(const aicc_model *model) {
  return model ? model->view.string(model->view.manifest->model_name) : "";
}

extern "C" const char *aicc_model_producer(const aicc_model *model) {
  return model ? model->view.header->producer : "";
}

extern "C" const char *aicc_model_device(const aicc_model *model) {
  return model ? model->device.c_str() : "";
}

extern "C" const char *aicc_model_driver(const aicc_model *model) {
  return model ? model->driver.c_str() : "";
}

extern "C" size_t aicc_model_input_count(const aicc_model *model) {
  return model ? model->view.manifest->input_count : 0;
}

extern "C" size_t aicc_model_output_count(const aicc_model *model) {
  return model ? model->view.manifest->output_count : 0;
}

extern "C" aicc_status_t aicc_model_input_info(const aicc_model *model,
                                               size_t index,
                                               aicc_tensor_info *out_info) {
  return guarded([&] {
    if (!model || !out_info)
      return fail(AICC_INVALID_ARGUMENT, "model and out_info must not be NULL");
    if (index >= model->view.manifest->input_count)
      return fail(AICC_INVALID_ARGUMENT,
                  "input " + std::to_string(index) + " does not exist");
    *out_info = model->info(model->view.input(static_cast<uint32_t>(index)));
    return AICC_OK;
  });
}

extern "C" aicc_status_t aicc_model_output_info(const aicc_model *model,
                                                size_t index,
                                                aicc_tensor_info *out_info) {
  return guarded([&] {
    if (!model || !out_info)
      return fail(AICC_INVALID_ARGUMENT, "model and out_info must not be NULL");
    if (index >= model->view.manifest->output_count)
      return fail(AICC_INVALID_ARGUMENT,
                  "output " + std::to_string(index) + " does not exist");
    *out_info = model->info(model->view.output(static_cast<uint32_t>(index)));
    return AICC_OK;
  });
}

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

extern "C" void aicc_context_options_init(aicc_context_options *options) {
  if (!options)
    return;
  options->struct_size = sizeof(aicc_context_options);
  options->num_threads = 0;
  options->flags = 0;
}

namespace {
aicc_status_t createContext(aicc_model *model,
                            const aicc_context_options *options,
                            aicc_context **out_context) {
  if (!model || !out_context)
    return fail(AICC_INVALID_ARGUMENT,
                "model and out_context must not be NULL");
  *out_context = nullptr;
  aicc_context_options settings;
  aicc_context_options_init(&settings);
  if (options) {
    // Callers built against an older header pass a shorter struct: the
    // fields it lacks keep their defaults.
    if (options->struct_size < offsetof(aicc_context_options, flags) ||
        options->struct_size > sizeof(aicc_context_options))
      return fail(AICC_INVALID_ARGUMENT,
                  "options->struct_size is " +
                      std::to_string(options->struct_size) +
                      "; call aicc_context_options_init");
    std::memcpy(&settings, options, options->struct_size);
  }
  const uint32_t knownFlags = AICC_CONTEXT_NO_GRAPHS | AICC_CONTEXT_PROFILE;
  if (settings.flags & ~knownFlags)
    return fail(AICC_INVALID_ARGUMENT,
                "options->flags has unknown bits " +
                    std::to_string(settings.flags & ~knownFlags));
  unsigned threads = settings.num_threads ? settings.num_threads : onlineCpus();
  if (threads > 1024)
    return fail(AICC_INVALID_ARGUMENT, "num_threads is implausibly large");
  // A GPU run is driven by the calling thread alone.
  if (model->gpu)
    threads = 1;

  const BundleView &view = model->view;
  AlignedBuffer arena;
  if (!model->gpu && view.plan->arena_size > 0) {
    // A large arena lives on transparent huge pages where the kernel
    // offers them: tiles of wide activations touch a new 4 KiB page every
    // row, and the TLB misses would dominate.
    constexpr size_t kHugePage = size_t(2) << 20;
    size_t size = static_cast<size_t>(view.plan->arena_size);
    size_t alignment = std::max<size_t>(view.plan->arena_alignment, 64);
    if (size >= kHugePage)
      alignment = kHugePage;
    arena = alignedAllocate(size, alignment);
    if (!arena)
      return fail(AICC_RESOURCE_EXHAUSTED,
                  "cannot allocate the " +
                      std::to_string(view.plan->arena_size) + "-byte arena");
#ifdef MADV_HUGEPAGE
    if (size >= kHugePage)
      (void)madvise(arena.get(), (size + kHugePage - 1) / kHugePage * kHugePage,
                    MADV_HUGEPAGE);
#endif
  }
  std::unique_ptr<aicc_context> context(
      new aicc_context(model, threads, settings.flags));
  if (model->gpu) {
    if (aicc_status_t s =
            GpuContext::create(*model->gpu, settings.flags, context->gpu))
      return s;
    *out_context = context.release();
    return AICC_OK;
  }
  context->arena = std::move(arena);
  // Weights and arena offsets never change; inputs and outputs are filled
  // in by every run. Tensor map references stay null: the reader lets only
  // CUDA steps take them.
  context->buffers.resize(view.plan->arg_count, nullptr);
  for (uint32_t i = 0; i < view.plan->arg_count; ++i) {
    const aicc_buffer_ref &arg = view.args[i];
    if (arg.kind == AICC_BUFFER_WEIGHT)
      context->buffers[i] = const_cast<uint8_t *>(
          view.constants + view.weight(arg.index).data_offset);
    else if (arg.kind == AICC_BUFFER_ARENA)
      context->buffers[i] =
          context->arena.get() ? context->arena.get() + arg.offset : nullptr;
  }
  if (settings.flags & AICC_CONTEXT_PROFILE) {
    context->profile.resize(view.plan->step_count);
    for (uint32_t s = 0; s < view.plan->step_count; ++s) {
      aicc_profile_entry &entry = context->profile[s];
      std::memset(&entry, 0, sizeof(entry));
      entry.kernel = view.string(view.steps[s].entry);
      entry.source = view.string(view.steps[s].source);
      entry.bytes = view.steps[s].bytes;
      entry.flops = view.steps[s].flops;
    }
  }
  *out_context = context.release();
  return AICC_OK;
}
} // namespace

extern "C" aicc_status_t
aicc_context_create(aicc_model *model, const aicc_context_options *options,
                    aicc_context **out_context) {
  return guarded([&] { return createContext(model, options, out_context); });
}

extern "C" void aicc_context_release(aicc_context *context) { delete context; }

extern "C" uint32_t aicc_context_num_threads(const aicc_context *context) {
  return context ? context->pool.size() : 0;
}

aicc_status_t aicc_context::runCpu(const void *const *inputs,
                                   void *const *outputs) {
  const BundleView &view = model->view;
  for (uint32_t i = 0; i < view.plan->arg_count; ++i) {
    const aicc_buffer_ref &arg = view.args[i];
    if (arg.kind == AICC_BUFFER_INPUT)
      buffers[i] = const_cast<void *>(inputs[arg.index]);
    else if (arg.kind == AICC_BUFFER_OUTPUT)
      buffers[i] = outputs[arg.index];
  }
  bool timed = flags & AICC_CONTEXT_PROFILE;
  profiled = false;
  for (uint32_t s = 0; s < view.plan->step_count; ++s) {
    auto start = std::chrono::steady_clock::now();
    model->entries[s](buffers.data() + view.steps[s].first_arg, &exec.base);
    if (timed)
      profile[s].milliseconds = std::chrono::duration<double, std::milli>(
                                    std::chrono::steady_clock::now() - start)
                                    .count();
  }
  profiled = timed;
  return AICC_OK;
}

namespace {
aicc_status_t run(aicc_context *context, const void *const *inputs,
                  size_t input_count, void *const *outputs,
                  size_t output_count) {
  if (!context)
    return fail(AICC_INVALID_ARGUMENT, "context must not be NULL");
  const BundleView &view = context->model->view;
  if (input_count != view.manifest->input_count ||
      output_count != view.manifest->output_count)
    return fail(
        AICC_INVALID_ARGUMENT,
        "the model takes " + std::to_string(view.manifest->input_count) +
            " inputs and " + std::to_string(view.manifest->output_count) +
            " outputs; got " + std::to_string(input_count) + " and " +
            std::to_string(output_count));
  if ((input_count && !inputs) || (output_count && !outputs))
    return fail(AICC_INVALID_ARGUMENT, "inputs and outputs must not be NULL");
  for (uint32_t i = 0; i < view.manifest->input_count; ++i)
    if (!inputs[i] && view.input(i).byte_size != 0)
      return fail(AICC_INVALID_ARGUMENT,
                  "input " + std::to_string(i) + " is NULL");
  for (uint32_t i = 0; i < view.manifest->output_count; ++i)
    if (!outputs[i] && view.output(i).byte_size != 0)
      return fail(AICC_INVALID_ARGUMENT,
                  "output " + std::to_string(i) + " is NULL");
  if (context->gpu)
    return context->gpu->run(inputs, outputs);
  return context->runCpu(inputs, outputs);
}
} // namespace

extern "C" aicc_status_t aicc_context_run(aicc_context *context,
                                          const void *const *inputs,
                                          size_t input_count,
                                          void *const *outputs,
                                          size_t output_count) {
  return guarded(
      [&] { return run(context, inputs, input_count, outputs, output_count); });
}

extern "C" aicc_status_t
aicc_context_device_buffer(const aicc_context *context, aicc_io_kind kind,
                           size_t index, uint64_t *address, size_t *byte_size) {
  return guarded([&] {
    if (!context || !address || !byte_size)
      return fail(AICC_INVALID_ARGUMENT,
                  "context, address and byte_size must not be NULL");
    *address = 0;
    *byte_size = 0;
    if (!context->gpu)
      return fail(AICC_INVALID_ARGUMENT,
                  "the context runs on the CPU: its runs use the caller's "
                  "buffers, it has none on a device");
    if (kind != AICC_IO_INPUT && kind != AICC_IO_OUTPUT)
      return fail(AICC_INVALID_ARGUMENT,
                  "kind must be AICC_IO_INPUT or AICC_IO_OUTPUT");
    bool output = kind == AICC_IO_OUTPUT;
    const BundleView &view = context->model->view;
    size_t count =
        output ? view.manifest->output_count : view.manifest->input_count;
    if (index >= count)
      return fail(AICC_INVALID_ARGUMENT,
                  std::string(output ? "output" : "input") + " index " +
                      std::to_string(index) + " out of range (the model has " +
                      std::to_string(count) + ")");
    if (aicc_status_t s = context->gpu->ioBuffer(output, index, *address))
      return s; // the device was lost
    *byte_size =
        output ? view.output(index).byte_size : view.input(index).byte_size;
    return AICC_OK;
  });
}

extern "C" aicc_status_t aicc_context_run_resident(aicc_context *context) {
  return guarded([&] {
    if (!context)
      return fail(AICC_INVALID_ARGUMENT, "context must not be NULL");
    if (!context->gpu)
      return fail(AICC_INVALID_ARGUMENT,
                  "the context runs on the CPU: use aicc_context_run with "
                  "the caller's buffers");
    return context->gpu->runResident();
  });
}

extern "C" aicc_status_t aicc_context_device_time(const aicc_context *context,
                                                  double *milliseconds) {
  return guarded([&] {
    if (!context || !milliseconds)
      return fail(AICC_INVALID_ARGUMENT,
                  "context and milliseconds must not be NULL");
    *milliseconds = 0;
    if (!context->gpu)
      return fail(AICC_INVALID_ARGUMENT,
                  "the context runs on the CPU: it has no device time");
    double last = -1;
    if (aicc_status_t s = context->gpu->deviceTime(last))
      return s; // the device was lost
    if (last < 0)
      return fail(AICC_INVALID_ARGUMENT,
                  "the context's last run did not succeed, or its time "
                  "could not be read");
    *milliseconds = last;
    return AICC_OK;
  });
}

extern "C" aicc_status_t
aicc_context_profile(const aicc_context *context,
                     const aicc_profile_entry **entries, size_t *count) {
  return guarded([&] {
    if (!context || !entries || !count)
      return fail(AICC_INVALID_ARGUMENT,
                  "context, entries and count must not be NULL");
    *entries = nullptr;
    *count = 0;
    const std::vector<aicc_profile_entry> *profile = &context->profile;
    if (context->gpu)
      if (aicc_status_t s = context->gpu->profile(profile))
        return s; // the device was lost
    if (!(context->flags & AICC_CONTEXT_PROFILE))
      return fail(AICC_INVALID_ARGUMENT,
                  "the context was created without AICC_CONTEXT_PROFILE");
    if (context->gpu || context->profiled) {
      *entries = profile->empty() ? nullptr : profile->data();
      *count = profile->size();
    }
    return AICC_OK;
  });
}
