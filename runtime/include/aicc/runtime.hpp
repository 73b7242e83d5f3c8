//===- aicc/runtime.hpp - C++ wrapper of the runtime C ABI ------*- C++ -*-===//
//
// RAII handles over aicc/runtime.h. Failures throw aicc::Error, which carries
// the status code and the runtime's message. Header-only: it adds nothing to
// the ABI.
//
//   aicc::Model model = aicc::Model::load("model.bin");
//   aicc::Context context(model);
//   context.run({input.data()}, {output.data()});
//
//===----------------------------------------------------------------------===//

#ifndef AICC_RUNTIME_HPP
#define AICC_RUNTIME_HPP

#include "aicc/runtime.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace aicc {

class Error : public std::runtime_error {
public:
  Error(aicc_status_t status, const std::string &message)
      : std::runtime_error(message), status_(status) {}
  aicc_status_t status() const { return status_; }

private:
  aicc_status_t status_;
};

namespace detail {
inline void check(aicc_status_t status) {
  if (status != AICC_OK) {
    std::string message = aicc_last_error_message();
    if (message.empty())
      message = aicc_status_string(status);
    throw Error(status, message);
  }
}
} // namespace detail

/// A loaded model: shared, immutable, usable from any thread.
class Model {
public:
  static Model load(const std::string &path) {
    aicc_model *model = nullptr;
    detail::check(aicc_model_load_file(path.c_str(), &model));
    return Model(model);
  }
  static Model fromMemory(const void *data, size_t size) {
    aicc_model *model = nullptr;
    detail::check(aicc_model_load_memory(data, size, &model));
    return Model(model);
  }

  Model(Model &&other) noexcept
      : model_(std::exchange(other.model_, nullptr)) {}
  Model &operator=(Model &&other) noexcept {
    std::swap(model_, other.model_);
    return *this;
  }
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;
  ~Model() { aicc_model_release(model_); }

  std::string name() const { return aicc_model_name(model_); }
  std::string producer() const { return aicc_model_producer(model_); }
  std::string device() const { return aicc_model_device(model_); }
  std::string driver() const { return aicc_model_driver(model_); }
  size_t inputCount() const { return aicc_model_input_count(model_); }
  size_t outputCount() const { return aicc_model_output_count(model_); }
  aicc_tensor_info input(size_t i) const {
    aicc_tensor_info info;
    detail::check(aicc_model_input_info(model_, i, &info));
    return info;
  }
  aicc_tensor_info output(size_t i) const {
    aicc_tensor_info info;
    detail::check(aicc_model_output_info(model_, i, &info));
    return info;
  }
  aicc_model *get() const { return model_; }

private:
  explicit Model(aicc_model *model) : model_(model) {}
  aicc_model *model_;
};

/// One thread's execution state. Keeps its model alive.
class Context {
public:
  /// `flags` are AICC_CONTEXT_* bits (AICC_CONTEXT_PROFILE, ...).
  explicit Context(const Model &model, unsigned numThreads = 0,
                   uint32_t flags = 0) {
    aicc_context_options options;
    aicc_context_options_init(&options);
    options.num_threads = numThreads;
    options.flags = flags;
    detail::check(aicc_context_create(model.get(), &options, &context_));
  }
  Context(Context &&other) noexcept
      : context_(std::exchange(other.context_, nullptr)) {}
  Context &operator=(Context &&other) noexcept {
    std::swap(context_, other.context_);
    return *this;
  }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context() { aicc_context_release(context_); }

  /// Threads per inference, the calling thread included.
  unsigned numThreads() const { return aicc_context_num_threads(context_); }

  void run(const std::vector<const void *> &inputs,
           const std::vector<void *> &outputs) {
    detail::check(aicc_context_run(context_, inputs.data(), inputs.size(),
                                   outputs.data(), outputs.size()));
  }

  /// The per-step times of the last run; the context must have been
  /// created with AICC_CONTEXT_PROFILE. The strings are the model's.
  std::vector<aicc_profile_entry> profile() const {
    const aicc_profile_entry *entries = nullptr;
    size_t count = 0;
    detail::check(aicc_context_profile(context_, &entries, &count));
    return std::vector<aicc_profile_entry>(entries, entries + count);
  }

  /// The device time of the last run's kernels, in milliseconds (GPU
  /// contexts; see aicc_context_device_time).
  double deviceTime() const {
    double milliseconds = 0;
    detail::check(aicc_context_device_time(context_, &milliseconds));
    return milliseconds;
  }

  /// A GPU context's device buffer of input or output `index`: its device
  /// address and size (see aicc_context_device_buffer).
  std::pair<uint64_t, size_t> deviceBuffer(aicc_io_kind kind,
                                           size_t index) const {
    uint64_t address = 0;
    size_t size = 0;
    detail::check(
        aicc_context_device_buffer(context_, kind, index, &address, &size));
    return {address, size};
  }

  /// Runs on the device buffers' inputs as they are, leaving the outputs
  /// there (GPU contexts; see aicc_context_run_resident).
  void runResident() { detail::check(aicc_context_run_resident(context_)); }

private:
  aicc_context *context_ = nullptr;
};

} // namespace aicc

#endif // AICC_RUNTIME_HPP
