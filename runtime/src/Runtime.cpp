//===- Runtime.cpp - Models and execution contexts ------------------------===//

#include "aicc/runtime.h"

#include "AlignedBuffer.h"
#include "BundleReader.h"
#include "Error.h"
#include "Executor.h"

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

} // namespace

struct aicc_model {
  std::atomic<int> references{1};
  // The bundle's bytes: a read-only file mapping or an aligned copy.
  void *mapping = nullptr;
  size_t mappingSize = 0;
  AlignedBuffer copy;
  BundleView view;
  /// The plan's device: the executor of its target (Executor.h).
  std::unique_ptr<ModelExecutor> executor;
  std::string driver;

  ~aicc_model() {
    executor.reset(); // before the bundle it reads goes
    if (mapping)
      munmap(mapping, mappingSize);
  }

  aicc_status_t initialize(const uint8_t *data, size_t size);
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
  if (aicc_status_t s = loadExecutor(view, target, executor))
    return s;
  driver = executor->driverDescription();
  return AICC_OK;
}

struct aicc_context {
  aicc_model *model;
  uint32_t flags;
  std::unique_ptr<ContextExecutor> executor;

  /// Holds a reference to `model`.
  aicc_context(aicc_model *model, uint32_t flags) : model(model), flags(flags) {
    model->references.fetch_add(1);
  }
  ~aicc_context() {
    executor.reset(); // before the model it runs on may go
    aicc_model_release(model);
  }
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
  return model ? model->executor->description().c_str() : "";
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
  if (settings.num_threads > 1024)
    return fail(AICC_INVALID_ARGUMENT, "num_threads is implausibly large");
  std::unique_ptr<aicc_context> context(
      new aicc_context(model, settings.flags));
  if (aicc_status_t s = model->executor->createContext(
          settings.num_threads, settings.flags, context->executor))
    return s;
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
  return context ? context->executor->threads() : 0;
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
  return context->executor->run(inputs, outputs);
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
    if (aicc_status_t s = context->executor->ioBuffer(output, index, *address))
      return s; // a device without buffers, or one lost
    *byte_size =
        output ? view.output(index).byte_size : view.input(index).byte_size;
    return AICC_OK;
  });
}

extern "C" aicc_status_t aicc_context_run_resident(aicc_context *context) {
  return guarded([&] {
    if (!context)
      return fail(AICC_INVALID_ARGUMENT, "context must not be NULL");
    return context->executor->runResident();
  });
}

extern "C" aicc_status_t aicc_context_device_time(const aicc_context *context,
                                                  double *milliseconds) {
  return guarded([&] {
    if (!context || !milliseconds)
      return fail(AICC_INVALID_ARGUMENT,
                  "context and milliseconds must not be NULL");
    *milliseconds = 0;
    double last = -1;
    if (aicc_status_t s = context->executor->deviceTime(last))
      return s; // a device without one, or one lost
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
    const std::vector<aicc_profile_entry> *profile = nullptr;
    if (aicc_status_t s = context->executor->profile(profile))
      return s; // the device was lost
    if (!(context->flags & AICC_CONTEXT_PROFILE))
      return fail(AICC_INVALID_ARGUMENT,
                  "the context was created without AICC_CONTEXT_PROFILE");
    *entries = profile->empty() ? nullptr : profile->data();
    *count = profile->size();
    return AICC_OK;
  });
}
