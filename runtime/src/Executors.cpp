//===- Executors.cpp - The executors of this runtime ----------------------===//

#include "Executor.h"

#include "Error.h"

using namespace aicc::runtime;

namespace {
/// Each bundle target this runtime runs, and its executor; a new one is a
/// line here.
struct ExecutorEntry {
  uint32_t target;
  aicc_status_t (*load)(const BundleView &, std::unique_ptr<ModelExecutor> &);
};

constexpr ExecutorEntry kExecutors[] = {
    {AICC_TARGET_CPU_X86_64, loadCpuExecutor},
    {AICC_TARGET_CUDA, loadCudaExecutor},
    {AICC_TARGET_ROCM, loadHipExecutor},
};
} // namespace

ContextExecutor::~ContextExecutor() = default;
ModelExecutor::~ModelExecutor() = default;

aicc_status_t ContextExecutor::runResident() {
  return fail(AICC_INVALID_ARGUMENT,
              "the context runs on the host: use aicc_context_run with the "
              "caller's buffers");
}

aicc_status_t ContextExecutor::ioBuffer(bool, size_t, uint64_t &) const {
  return fail(AICC_INVALID_ARGUMENT,
              "the context runs on the host: its runs use the caller's "
              "buffers, it has none on a device");
}

aicc_status_t ContextExecutor::deviceTime(double &) const {
  return fail(AICC_INVALID_ARGUMENT,
              "the context runs on the host: it has no device time");
}

aicc_status_t
aicc::runtime::loadExecutor(const BundleView &view, uint32_t target,
                            std::unique_ptr<ModelExecutor> &executor) {
  for (const ExecutorEntry &entry : kExecutors)
    if (entry.target == target)
      return entry.load(view, executor);
  return fail(AICC_UNSUPPORTED_TARGET,
              std::string("the model runs on the ") + targetName(target) +
                  " target, which this runtime does not execute");
}
