//===- CpuExecutor.cpp - Running a bundle on the host CPU -----------------===//
//
// The code object that uses the most of what this host has is mapped once
// per model; each context has its arena (on huge pages where large), its
// thread pool, and the argument array of every step, whose weight and arena
// entries never change and whose inputs and outputs each run fills in.
//
//===----------------------------------------------------------------------===//

#include "AlignedBuffer.h"
#include "CpuCode.h"
#include "CpuFeatures.h"
#include "Error.h"
#include "Executor.h"
#include "ThreadPool.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace aicc::runtime;

namespace {
/// The execution record compiled code receives, with the pool behind it.
struct CpuExec {
  aicc_cpu_exec base;
  ThreadPool *pool;
};

void parallelFor(aicc_cpu_exec *exec, aicc_cpu_task_fn task, void *ctx,
                 int64_t count) {
  reinterpret_cast<CpuExec *>(exec)->pool->parallelFor(task, ctx, count);
}

unsigned onlineCpus() {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1;
}

class CpuModel;

class CpuContext final : public ContextExecutor {
public:
  /// Takes `threads` threads (the pool's constructor throws where it
  /// cannot start them, and Runtime.cpp's guard reports that).
  CpuContext(const CpuModel &model, unsigned threads, uint32_t flags)
      : model(model), flags(flags), pool(threads) {
    exec.base.parallel_for = parallelFor;
    exec.pool = &pool;
  }

  aicc_status_t initialize();

  unsigned threads() const override { return pool.size(); }
  aicc_status_t run(const void *const *inputs, void *const *outputs) override;
  aicc_status_t
  profile(const std::vector<aicc_profile_entry> *&entries) const override {
    static const std::vector<aicc_profile_entry> none;
    entries = profiled ? &steps : &none;
    return AICC_OK;
  }

private:
  const CpuModel &model;
  uint32_t flags;
  ThreadPool pool;
  CpuExec exec;
  AlignedBuffer arena;
  std::vector<void *> buffers; ///< every step's arguments, back to back
  /// AICC_CONTEXT_PROFILE: each step's wall time.
  std::vector<aicc_profile_entry> steps;
  bool profiled = false;
};

class CpuModel final : public ModelExecutor {
public:
  explicit CpuModel(const BundleView &view) : view(view) {}

  aicc_status_t load();

  const std::string &description() const override { return name; }
  aicc_status_t
  createContext(unsigned threads, uint32_t flags,
                std::unique_ptr<ContextExecutor> &context) const override {
    auto cpu = std::make_unique<CpuContext>(
        *this, threads ? threads : onlineCpus(), flags);
    if (aicc_status_t s = cpu->initialize())
      return s;
    context = std::move(cpu);
    return AICC_OK;
  }

  const BundleView &view;
  CpuCode code;
  std::vector<aicc_cpu_entry_fn> entries; ///< one per launch step
  std::string name;
};

aicc_status_t CpuModel::load() {
  // Pick the CPU code object that uses the most of what this host has.
  uint64_t host = hostCpuFeatures();
  const CodeView *chosen = nullptr;
  uint64_t missingOfBest = 0;
  for (const CodeView &candidate : view.code) {
    if (candidate.header->target != AICC_TARGET_CPU_X86_64)
      continue;
    uint64_t needed = candidate.header->required_features;
    if ((needed & ~host) != 0) {
      missingOfBest = needed & ~host;
      continue;
    }
    if (!chosen || __builtin_popcountll(needed) >
                       __builtin_popcountll(chosen->header->required_features))
      chosen = &candidate;
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
  name = std::string("cpu ") + chosen->arch;
  return AICC_OK;
}

aicc_status_t CpuContext::initialize() {
  const BundleView &view = model.view;
  if (view.plan->arena_size > 0) {
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
  // Weights and arena offsets never change; inputs and outputs are filled
  // in by every run. Tensor map references stay null: the reader lets only
  // CUDA steps take them.
  buffers.resize(view.plan->arg_count, nullptr);
  for (uint32_t i = 0; i < view.plan->arg_count; ++i) {
    const aicc_buffer_ref &arg = view.args[i];
    if (arg.kind == AICC_BUFFER_WEIGHT)
      buffers[i] = const_cast<uint8_t *>(view.constants +
                                         view.weight(arg.index).data_offset);
    else if (arg.kind == AICC_BUFFER_ARENA)
      buffers[i] = arena ? arena.get() + arg.offset : nullptr;
  }
  if (flags & AICC_CONTEXT_PROFILE) {
    steps.resize(view.plan->step_count);
    for (uint32_t s = 0; s < view.plan->step_count; ++s) {
      aicc_profile_entry &entry = steps[s];
      std::memset(&entry, 0, sizeof(entry));
      entry.kernel = view.string(view.steps[s].entry);
      entry.source = view.string(view.steps[s].source);
      entry.bytes = view.steps[s].bytes;
      entry.flops = view.steps[s].flops;
    }
  }
  return AICC_OK;
}

aicc_status_t CpuContext::run(const void *const *inputs, void *const *outputs) {
  const BundleView &view = model.view;
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
    model.entries[s](buffers.data() + view.steps[s].first_arg, &exec.base);
    if (timed)
      steps[s].milliseconds = std::chrono::duration<double, std::milli>(
                                  std::chrono::steady_clock::now() - start)
                                  .count();
  }
  profiled = timed;
  return AICC_OK;
}
} // namespace

aicc_status_t
aicc::runtime::loadCpuExecutor(const BundleView &view,
                               std::unique_ptr<ModelExecutor> &executor) {
  auto model = std::make_unique<CpuModel>(view);
  if (aicc_status_t s = model->load())
    return s;
  executor = std::move(model);
  return AICC_OK;
}
