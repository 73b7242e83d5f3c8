//===- ThreadPool.h - The threads of one execution context -----*- C++ -*-===//

#ifndef AICC_RUNTIME_THREADPOOL_H
#define AICC_RUNTIME_THREADPOOL_H

#include "aicc/bundle_format.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace aicc::runtime {

/// A fork-join pool: the calling thread and `threads - 1` workers split the
/// iterations of one parallel loop at a time. Workers spin briefly between
/// loops, since an inference runs many back to back, then sleep.
class ThreadPool {
public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Runs task over [0, count) and returns when all iterations are done.
  /// A task that calls parallelFor on the same pool runs that inner loop
  /// on its own thread.
  void parallelFor(aicc_cpu_task_fn task, void *ctx, int64_t count);

  unsigned size() const { return static_cast<unsigned>(workers.size()) + 1; }

private:
  void workerLoop();
  /// Wakes the workers to return and joins them.
  void stop();
  void runChunks();

  std::vector<std::thread> workers;
  // The current loop; written only while no worker is inside it.
  aicc_cpu_task_fn task = nullptr;
  void *ctx = nullptr;
  int64_t count = 0;
  int64_t chunk = 1;
  std::atomic<int64_t> next{0};
  std::atomic<unsigned> finished{0};
  std::atomic<uint64_t> generation{0};
  std::atomic<unsigned> sleepers{0};
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::condition_variable wake;
};

} // namespace aicc::runtime

#endif // AICC_RUNTIME_THREADPOOL_H
