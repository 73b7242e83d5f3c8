//===- GpuExecutor.h - Running a launch plan on a GPU -----------*- C++ -*-===//
//
// The CUDA and ROCm executor, written once against the driver table of
// GpuDriver.h. A GpuModel is what a model shares between its contexts: the
// driver, the device, the loaded code object with one kernel per launch
// step, and the weights, uploaded once. A GpuContext is one thread's
// state: its stream, its device arena and input/output buffers, pinned
// staging for the copies, the kernel parameters built once, and the whole
// run captured as a graph that each run replays.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_RUNTIME_GPUEXECUTOR_H
#define AICC_RUNTIME_GPUEXECUTOR_H

#include "BundleReader.h"
#include "Executor.h"
#include "GpuDriver.h"

#include "aicc/runtime.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace aicc::runtime {

/// A model's GPU side: immutable once loaded, shared by its contexts.
class GpuModel final : public ModelExecutor {
public:
  /// Loads `vendor`'s driver, opens the device (its deviceVariable,
  /// $AICC_CUDA_DEVICE or $AICC_HIP_DEVICE, default 0),
  /// chooses the code object that runs on it (refusing, before anything
  /// runs, a bundle with none), loads it, resolves every step's kernel and
  /// uploads the weights. `view` must outlive the model.
  static aicc_status_t load(const BundleView &view, const GpuVendor &vendor,
                            std::unique_ptr<GpuModel> &model);
  ~GpuModel() override;
  GpuModel(const GpuModel &) = delete;
  GpuModel &operator=(const GpuModel &) = delete;

  /// "cuda sm_90 (NVIDIA H100 80GB HBM3)".
  const std::string &description() const override { return deviceDescription; }
  /// The driver's version, "CUDA 13.0" ("CUDA unknown" where it gave none).
  std::string driverDescription() const override;
  /// A GpuContext; the calling thread drives the device (`threads` is
  /// ignored).
  aicc_status_t
  createContext(unsigned threads, uint32_t flags,
                std::unique_ptr<ContextExecutor> &context) const override;

private:
  friend class GpuContext;
  friend class ScopedDevice;
  explicit GpuModel(const BundleView &view) : view(view) {}

  aicc_status_t openDevice(const GpuVendor &vendor);
  aicc_status_t chooseCode(const CodeView *&chosen) const;
  aicc_status_t checkLimits() const;
  /// Refuses a plan with TMA tensor maps on a driver that cannot encode
  /// them.
  aicc_status_t checkTensorMaps() const;
  aicc_status_t loadCode(const CodeView &code);
  aicc_status_t uploadWeights();

  /// Records the failure of `what` with the driver's error `result`, with
  /// the status its class maps to.
  aicc_status_t failure(GpuResult result, const std::string &what) const;

  const BundleView &view;
  const GpuDriver *gpuDriver = nullptr;
  GpuDevice device;
  void *primaryContext = nullptr;
  void *module = nullptr;
  std::vector<void *> kernels; ///< one per launch step
  DevicePtr weights = 0;
  std::vector<DevicePtr> weightAddresses; ///< one per weight
  std::string deviceDescription;
  /// Set by the first context that meets a sticky error: the device's
  /// context is gone for every context of the model.
  mutable std::atomic<bool> lost{false};
};

/// One context's GPU state. Calls must not overlap (runtime.h).
class GpuContext final : public ContextExecutor {
public:
  /// Allocates the context's memory and stream; with graphs (the default)
  /// also captures the run as a graph. `flags` are AICC_CONTEXT_* bits.
  static aicc_status_t create(const GpuModel &model, uint32_t flags,
                              std::unique_ptr<GpuContext> &context);
  ~GpuContext() override;
  GpuContext(const GpuContext &) = delete;
  GpuContext &operator=(const GpuContext &) = delete;

  /// The calling thread drives the device.
  unsigned threads() const override { return 1; }

  /// Copies the inputs in, runs every step, copies the outputs out, and
  /// waits. After a device failure every call returns AICC_DEVICE_LOST.
  aicc_status_t run(const void *const *inputs, void *const *outputs) override;

  /// Runs every step on the device buffers of the inputs as they are,
  /// leaving the outputs in theirs, and waits: no host copies.
  aicc_status_t runResident() override;

  /// The device address of input or output `index` (in range).
  aicc_status_t ioBuffer(bool output, size_t index,
                         uint64_t &address) const override;

  /// The per-step times of the last run (AICC_CONTEXT_PROFILE), empty
  /// before the first.
  aicc_status_t
  profile(const std::vector<aicc_profile_entry> *&entries) const override;

  /// The device time of the last run's kernels (between events around
  /// them, the copies of inputs and outputs outside); negative before the
  /// first run, after a failed one, or if the driver could not give it.
  /// AICC_DEVICE_LOST after a device failure.
  aicc_status_t deviceTime(double &milliseconds) const override;

private:
  explicit GpuContext(const GpuModel &model) : model(model) {}

  aicc_status_t allocate();
  /// The device address of an input, output, weight or arena reference,
  /// with the arena at `arena`.
  DevicePtr bufferAddress(const aicc_buffer_ref &ref, DevicePtr arena) const;
  /// Encodes every tensor map of the plan for the buffers' final addresses
  /// and copies them to `tensorMaps`.
  aicc_status_t encodeTensorMaps(DevicePtr arena);
  /// Captures the kernels (not the copies) as a graph.
  aicc_status_t capture();
  aicc_status_t enqueueInputs();
  /// Every launch step, with events around each where `timed`.
  aicc_status_t enqueueKernels(bool timed);
  aicc_status_t launchGraph();
  aicc_status_t enqueueOutputs();
  /// Queues the kernels between the two timing events (copyIn and copyOut
  /// around them) and waits for the stream: the body of both runs.
  aicc_status_t execute(bool copyIn, bool copyOut);
  /// After a run that succeeded: its device time and, when profiling, each
  /// step's time.
  aicc_status_t readTimes();
  /// Records `event` on the context's stream.
  aicc_status_t record(void *event);
  /// As GpuModel::failure, and remembers a device loss.
  aicc_status_t failure(GpuResult result, const std::string &what);

  const GpuModel &model;
  const GpuApi &api() const { return model.gpuDriver->api; }
  bool profiling = false;
  bool profiled = false;
  void *stream = nullptr;
  void *graph = nullptr;    ///< the instantiated run, or null
  DevicePtr memory = 0;     ///< arena, inputs, outputs and tensor maps
  DevicePtr tensorMaps = 0; ///< kCuTensorMapSize bytes per map of the plan
  uint8_t *staging = nullptr;
  std::vector<DevicePtr> deviceInputs, deviceOutputs;
  std::vector<size_t> stagedInputs, stagedOutputs; ///< offsets in staging
  std::vector<DevicePtr> addresses;                ///< one per buffer reference
  std::vector<void *> params;                      ///< &addresses[i]
  std::vector<void *> events;                 ///< start and end of each step
  void *kernelEvents[2] = {nullptr, nullptr}; ///< around every run's kernels
  double deviceMilliseconds = -1;
  std::vector<aicc_profile_entry> entries;
  /// Whether this context, or another of its model, met a sticky error.
  bool isLost() const;
  /// AICC_DEVICE_LOST with why, for every call after a device failure.
  aicc_status_t reportLost() const;
  std::string lost; ///< why, where the message could be kept
};

} // namespace aicc::runtime

#endif // AICC_RUNTIME_GPUEXECUTOR_H
