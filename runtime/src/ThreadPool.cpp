//===- ThreadPool.cpp - The threads of one execution context --------------===//

#include "ThreadPool.h"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#define AICC_PAUSE() _mm_pause()
#else
#define AICC_PAUSE() std::this_thread::yield()
#endif

using namespace aicc::runtime;

namespace {
// About 50-100 microseconds of pause instructions.
constexpr int kSpinIterations = 1 << 14;

// The pool whose loop the calling thread is running a task of, if any: a
// task that calls parallelFor on it again runs the inner loop itself
// (the pool's fields describe the outer loop until it ends).
thread_local const ThreadPool *runningIn = nullptr;

struct RunningIn {
  const ThreadPool *previous;
  explicit RunningIn(const ThreadPool *pool) : previous(runningIn) {
    runningIn = pool;
  }
  ~RunningIn() { runningIn = previous; }
};
} // namespace

ThreadPool::ThreadPool(unsigned threads) {
  try {
    workers.reserve(threads ? threads - 1 : 0);
    for (unsigned i = 1; i < threads; ++i)
      workers.emplace_back([this] { workerLoop(); });
  } catch (...) {
    // No memory or no thread: the workers that did start stop before the
    // exception leaves (a joinable std::thread destroyed would terminate).
    stop();
    throw;
  }
}

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping.store(true);
    generation.fetch_add(1);
  }
  wake.notify_all();
  for (std::thread &worker : workers)
    worker.join();
}

void ThreadPool::runChunks() {
  while (true) {
    int64_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
    if (begin >= count)
      return;
    task(ctx, begin, std::min(begin + chunk, count));
  }
}

void ThreadPool::workerLoop() {
  uint64_t seen = 0;
  while (true) {
    uint64_t current = generation.load(std::memory_order_acquire);
    for (int i = 0; current == seen && i < kSpinIterations; ++i) {
      AICC_PAUSE();
      current = generation.load(std::memory_order_acquire);
    }
    if (current == seen) {
      std::unique_lock<std::mutex> lock(mutex);
      sleepers.fetch_add(1);
      wake.wait(lock, [&] { return generation.load() != seen; });
      sleepers.fetch_sub(1);
      current = generation.load();
    }
    if (stopping.load())
      return;
    seen = current;
    RunningIn scope(this);
    runChunks();
    finished.fetch_add(1, std::memory_order_release);
  }
}

void ThreadPool::parallelFor(aicc_cpu_task_fn fn, void *data, int64_t n) {
  if (n <= 0)
    return;
  if (workers.empty() || n == 1 || runningIn == this) {
    fn(data, 0, n);
    return;
  }
  task = fn;
  ctx = data;
  count = n;
  chunk = std::max<int64_t>(1, n / (4 * int64_t(size())));
  next.store(0, std::memory_order_relaxed);
  finished.store(0, std::memory_order_relaxed);
  generation.fetch_add(1); // publishes the fields above
  if (sleepers.load() > 0) {
    std::lock_guard<std::mutex> lock(mutex);
    wake.notify_all();
  }
  {
    RunningIn scope(this);
    runChunks();
  }
  // Every worker checks in, so none still reads this loop's fields when
  // the next loop writes them.
  unsigned expected = static_cast<unsigned>(workers.size());
  for (int i = 0; finished.load(std::memory_order_acquire) != expected; ++i) {
    if (i < kSpinIterations)
      AICC_PAUSE();
    else
      std::this_thread::yield();
  }
}
