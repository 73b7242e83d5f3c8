//===- StressTest.cpp - One model, many threads, one context each ---------===//
//
//   aicc-runtime-stress-test MODEL.bin [THREADS] [RUNS] [POOL]
//
// Loads MODEL.bin once and starts THREADS threads (default 8); each creates
// its own context of POOL threads (default 2, so that the contexts' pools
// run at once too), runs it RUNS times (default 50) on inputs of its own
// (a pattern that depends on the thread and the run, so that a context that
// read another's data would show it), and compares every output bit for bit
// with what a context computed alone, before the threads started, for the
// same inputs. Contexts are created and released while others run. Prints
// "stress: N threads x M runs, all outputs identical" and exits 0, or names
// the first difference or failed call and exits 1. Run under
// ThreadSanitizer by scripts/tsan.sh.
//
//===----------------------------------------------------------------------===//

#include "aicc/runtime.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Model {
  aicc_model *model = nullptr;
  std::vector<aicc_tensor_info> inputs, outputs;
};

/// Input bytes for (thread, run): small float-like values whatever the
/// element type, deterministic.
std::vector<std::vector<unsigned char>> makeInputs(const Model &m,
                                                   unsigned seed) {
  std::vector<std::vector<unsigned char>> result;
  for (const aicc_tensor_info &info : m.inputs) {
    std::vector<unsigned char> bytes(info.byte_size);
    if (info.dtype == AICC_DTYPE_FLOAT32) {
      for (size_t i = 0; i < bytes.size() / 4; ++i) {
        float v = static_cast<float>((i * 2654435761u + seed * 40503u) % 1000) /
                      500.0f -
                  1.0f;
        std::memcpy(bytes.data() + 4 * i, &v, 4);
      }
    } else {
      for (size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<unsigned char>((i * 31 + seed * 7) % 3);
    }
    result.push_back(std::move(bytes));
  }
  return result;
}

/// Runs `context` once on `inputs`; the outputs, or an empty vector.
std::vector<std::vector<unsigned char>>
runOnce(const Model &m, aicc_context *context,
        const std::vector<std::vector<unsigned char>> &inputs) {
  std::vector<std::vector<unsigned char>> outputs;
  std::vector<const void *> in;
  std::vector<void *> out;
  for (const auto &bytes : inputs)
    in.push_back(bytes.data());
  for (const aicc_tensor_info &info : m.outputs)
    outputs.emplace_back(info.byte_size, 0xAB);
  for (auto &bytes : outputs)
    out.push_back(bytes.data());
  if (aicc_context_run(context, in.data(), in.size(), out.data(), out.size()) !=
      AICC_OK)
    return {};
  return outputs;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: aicc-runtime-stress-test MODEL.bin [THREADS] [RUNS] "
                 "[POOL]\n");
    return 2;
  }
  unsigned threads = argc > 2 ? std::atoi(argv[2]) : 8;
  unsigned runs = argc > 3 ? std::atoi(argv[3]) : 50;
  unsigned pool = argc > 4 ? std::atoi(argv[4]) : 2;
  Model m;
  if (aicc_model_load_file(argv[1], &m.model) != AICC_OK) {
    std::fprintf(stderr, "stress: load: %s\n", aicc_last_error_message());
    return 1;
  }
  for (size_t i = 0; i < aicc_model_input_count(m.model); ++i) {
    aicc_tensor_info info;
    aicc_model_input_info(m.model, i, &info);
    m.inputs.push_back(info);
  }
  for (size_t i = 0; i < aicc_model_output_count(m.model); ++i) {
    aicc_tensor_info info;
    aicc_model_output_info(m.model, i, &info);
    m.outputs.push_back(info);
  }
  aicc_context_options options;
  aicc_context_options_init(&options);
  options.num_threads = pool;

  // References, computed alone: a few distinct input sets, reused.
  constexpr unsigned kSets = 4;
  std::vector<std::vector<std::vector<unsigned char>>> inputs, expected;
  {
    aicc_context *context = nullptr;
    if (aicc_context_create(m.model, &options, &context) != AICC_OK) {
      std::fprintf(stderr, "stress: context: %s\n", aicc_last_error_message());
      return 1;
    }
    for (unsigned s = 0; s < kSets; ++s) {
      inputs.push_back(makeInputs(m, s));
      expected.push_back(runOnce(m, context, inputs.back()));
      if (expected.back().empty() && !m.outputs.empty()) {
        std::fprintf(stderr, "stress: run: %s\n", aicc_last_error_message());
        return 1;
      }
    }
    aicc_context_release(context);
  }

  std::atomic<bool> failed{false};
  std::mutex report;
  auto fail = [&](unsigned t, unsigned r, const std::string &what) {
    std::lock_guard<std::mutex> lock(report);
    if (!failed.exchange(true))
      std::fprintf(stderr, "stress: thread %u run %u: %s\n", t, r,
                   what.c_str());
  };
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      aicc_context *context = nullptr;
      for (unsigned r = 0; r < runs && !failed; ++r) {
        // Every tenth run starts on a fresh context, created while the
        // other threads run theirs.
        if (!context || r % 10 == 0) {
          aicc_context_release(context);
          context = nullptr;
          if (aicc_context_create(m.model, &options, &context) != AICC_OK)
            return fail(t, r,
                        std::string("context: ") + aicc_last_error_message());
        }
        unsigned set = (t + r) % kSets;
        std::vector<std::vector<unsigned char>> got =
            runOnce(m, context, inputs[set]);
        if (got.empty() && !m.outputs.empty())
          return fail(t, r, std::string("run: ") + aicc_last_error_message());
        for (size_t o = 0; o < got.size(); ++o)
          if (got[o] != expected[set][o])
            return fail(t, r,
                        "output " + std::to_string(o) +
                            " differs from the single-thread result");
      }
      aicc_context_release(context);
    });
  for (std::thread &w : workers)
    w.join();
  aicc_model_release(m.model);
  if (failed)
    return 1;
  std::printf("stress: %u threads x %u runs, all outputs identical\n", threads,
              runs);
  return 0;
}
