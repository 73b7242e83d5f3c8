//===- Executor.h - Running a bundle on one kind of device ------*- C++ -*-===//
//
// The runtime runs a plan on one device, through the executor registered
// for the bundle's target (Executors.cpp): the CPU executor runs the code
// object's entry points on a thread pool, the GPU executor launches kernels
// on CUDA or HIP. The C ABI (Runtime.cpp) checks arguments and owns the
// bundle; everything device-specific is behind these two classes, so a new
// device is a new executor and one line in Executors.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_RUNTIME_EXECUTOR_H
#define AICC_RUNTIME_EXECUTOR_H

#include "BundleReader.h"

#include "aicc/runtime.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace aicc::runtime {

/// One execution context's state on its device. Calls must not overlap
/// (runtime.h); the model's executor outlives it.
class ContextExecutor {
public:
  virtual ~ContextExecutor();

  /// Threads a run uses (the CPU's pool; 1 where the calling thread
  /// drives a device).
  virtual unsigned threads() const = 0;

  /// Runs the plan on `inputs` (one pointer per input, host memory) into
  /// `outputs`, and waits for it.
  virtual aicc_status_t run(const void *const *inputs,
                            void *const *outputs) = 0;

  /// Runs every step on the device buffers of the inputs as they are,
  /// leaving the outputs in theirs. Devices without buffers of their own
  /// refuse it.
  virtual aicc_status_t runResident();

  /// The device address of input or output `index` (in range).
  virtual aicc_status_t ioBuffer(bool output, size_t index,
                                 uint64_t &address) const;

  /// The device time of the last run's steps: negative before the first
  /// run, after a failed one, or where it could not be read.
  virtual aicc_status_t deviceTime(double &milliseconds) const;

  /// Each step's time of the last profiled run (with
  /// AICC_CONTEXT_PROFILE): `entries` points at one entry per step, or at
  /// an empty list before the first.
  virtual aicc_status_t
  profile(const std::vector<aicc_profile_entry> *&entries) const = 0;
};

/// A model's side on its device: immutable once loaded, shared by its
/// contexts.
class ModelExecutor {
public:
  virtual ~ModelExecutor();

  /// "cpu x86-64-v3", "cuda sm_90 (NVIDIA H100 80GB HBM3)".
  virtual const std::string &description() const = 0;
  /// The driver's version where there is one ("CUDA 13.0"), else "".
  virtual std::string driverDescription() const { return ""; }

  /// A context's state; `threads` is what the caller asked for (0: the
  /// machine's), `flags` AICC_CONTEXT_* bits.
  virtual aicc_status_t
  createContext(unsigned threads, uint32_t flags,
                std::unique_ptr<ContextExecutor> &context) const = 0;
};

/// Loads the executor of the bundle target `target` for `view`, which must
/// outlive it; a clear error where this runtime has none for it.
aicc_status_t loadExecutor(const BundleView &view, uint32_t target,
                           std::unique_ptr<ModelExecutor> &executor);

/// The executors: each bundle target's loader (Executors.cpp lists them).
aicc_status_t loadCpuExecutor(const BundleView &view,
                              std::unique_ptr<ModelExecutor> &executor);
/// The GPU executor over the CUDA driver, and over the HIP runtime.
aicc_status_t loadCudaExecutor(const BundleView &view,
                               std::unique_ptr<ModelExecutor> &executor);
aicc_status_t loadHipExecutor(const BundleView &view,
                              std::unique_ptr<ModelExecutor> &executor);

} // namespace aicc::runtime

#endif // AICC_RUNTIME_EXECUTOR_H
