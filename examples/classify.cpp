//===- classify.cpp - Run a compiled model on two threads -------*- C++ -*-===//
//
// aicc-classify MODEL.bin [INPUT.npy ...] [--runs N]
//
// Loads a bundle made by `aicc model.onnx -o model.bin`, lists its inputs and
// outputs, and runs it on two threads at once: both share the one loaded
// model, which is immutable, and each has its own execution context, which
// must never be used by two threads at a time. Inputs come from .npy files in
// graph input order, or are deterministic values when none are given. The
// program checks that the two threads computed bitwise identical outputs.
//
// Exit status: 0 success, 1 the threads disagree, 2 bad usage or an error.
//
// Uses only the installed runtime's public headers (aicc/runtime.hpp).
//
//===----------------------------------------------------------------------===//

#include "aicc/runtime.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 2;

using Buffer = std::vector<uint8_t>;

std::string formatDims(const aicc_tensor_info &info) {
  std::string text = "[";
  for (uint32_t d = 0; d < info.rank; ++d)
    text += (d ? ", " : "") + std::to_string(info.dims[d]);
  return text + "]";
}

/// numpy's type string for an element type, without the byte-order mark;
/// "" where numpy has none (bfloat16).
const char *numpyType(aicc_dtype dtype) {
  switch (dtype) {
  case AICC_DTYPE_FLOAT32:
    return "f4";
  case AICC_DTYPE_FLOAT64:
    return "f8";
  case AICC_DTYPE_FLOAT16:
    return "f2";
  case AICC_DTYPE_INT8:
    return "i1";
  case AICC_DTYPE_INT16:
    return "i2";
  case AICC_DTYPE_INT32:
    return "i4";
  case AICC_DTYPE_INT64:
    return "i8";
  case AICC_DTYPE_UINT8:
    return "u1";
  case AICC_DTYPE_UINT16:
    return "u2";
  case AICC_DTYPE_UINT32:
    return "u4";
  case AICC_DTYPE_UINT64:
    return "u8";
  case AICC_DTYPE_BOOL:
    return "b1";
  default:
    return "";
  }
}

/// Reads a C-order, little-endian .npy file whose type and shape must be
/// those of `info`. Returns an error message, empty on success.
std::string readNpy(const std::string &path, const aicc_tensor_info &info,
                    Buffer &data) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return "cannot open '" + path + "'";
  std::string bytes((std::istreambuf_iterator<char>(file)),
                    std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return "'" + path + "' is not a .npy file";
  size_t lengthBytes = bytes[6] == 1 ? 2 : 4, headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
  size_t start = 8 + lengthBytes + headerLength;
  if (start > bytes.size())
    return "'" + path + "': truncated header";
  std::string header = bytes.substr(8 + lengthBytes, headerLength);
  header.erase(header.find_last_not_of(" \n") + 1); // padding

  // The header is a Python dict literal: {'descr': '<f4',
  // 'fortran_order': False, 'shape': (1, 4), }.
  std::string shape = "(";
  for (uint32_t d = 0; d < info.rank; ++d)
    shape += std::to_string(info.dims[d]) + (info.rank == 1 ? "," : "") +
             (d + 1 < info.rank ? ", " : "");
  shape += ")";
  std::string type = numpyType(info.dtype);
  bool typeOk =
      !type.empty() && (header.find("'<" + type + "'") != std::string::npos ||
                        (type.size() == 2 && type[1] == '1' &&
                         header.find("'|" + type + "'") != std::string::npos));
  if (!typeOk)
    return "'" + path + "': expected " + aicc_dtype_name(info.dtype) +
           " data, header is " + header;
  if (header.find("'fortran_order': False") == std::string::npos)
    return "'" + path + "': only C-order arrays are supported";
  if (header.find("'shape': " + shape) == std::string::npos)
    return "'" + path + "': expected shape " + shape + ", header is " + header;
  if (bytes.size() - start != info.byte_size)
    return "'" + path + "': expected " + std::to_string(info.byte_size) +
           " bytes of data, found " + std::to_string(bytes.size() - start);
  data.assign(bytes.begin() + start, bytes.end());
  return "";
}

/// Small deterministic values in [-0.75, 0.75] (or [0, 6] unsigned) so that
/// a run without input files is reproducible.
Buffer deterministicInput(const aicc_tensor_info &info, size_t inputIndex) {
  Buffer data(info.byte_size);
  size_t elementSize = aicc_dtype_size(info.dtype);
  size_t count = elementSize ? info.byte_size / elementSize : 0;
  for (size_t i = 0; i < count; ++i) {
    int k = int((i * 7 + inputIndex * 3) % 13) - 6; // -6 .. 6
    uint8_t *p = data.data() + i * elementSize;
    auto put = [&](auto value) { std::memcpy(p, &value, sizeof(value)); };
    float f = float(k) / 8;
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    switch (info.dtype) {
    case AICC_DTYPE_FLOAT32:
      put(f);
      break;
    case AICC_DTYPE_FLOAT64:
      put(double(f));
      break;
    case AICC_DTYPE_BFLOAT16:
      put(uint16_t(bits >> 16));
      break;                 // exact
    case AICC_DTYPE_FLOAT16: // k/8 is exact in half precision too
      put(uint16_t(k == 0 ? 0
                          : (bits >> 16 & 0x8000) |
                                ((bits >> 23 & 0xff) - 112) << 10 |
                                (bits >> 13 & 0x3ff)));
      break;
    case AICC_DTYPE_INT8:
      put(int8_t(k));
      break;
    case AICC_DTYPE_INT16:
      put(int16_t(k));
      break;
    case AICC_DTYPE_INT32:
      put(int32_t(k));
      break;
    case AICC_DTYPE_INT64:
      put(int64_t(k));
      break;
    case AICC_DTYPE_UINT8:
      put(uint8_t(k + 6));
      break;
    case AICC_DTYPE_UINT16:
      put(uint16_t(k + 6));
      break;
    case AICC_DTYPE_UINT32:
      put(uint32_t(k + 6));
      break;
    case AICC_DTYPE_UINT64:
      put(uint64_t(k + 6));
      break;
    case AICC_DTYPE_BOOL:
      put(uint8_t(k > 0));
      break;
    }
  }
  return data;
}

/// Element `i` as a double for the types that print plainly; false for
/// the 16-bit floats.
bool element(const Buffer &data, aicc_dtype dtype, size_t i, double &value) {
  const uint8_t *p = data.data() + i * aicc_dtype_size(dtype);
  auto get = [&](auto sample) {
    std::memcpy(&sample, p, sizeof(sample));
    value = double(sample);
    return true;
  };
  switch (dtype) {
  case AICC_DTYPE_FLOAT32:
    return get(float());
  case AICC_DTYPE_FLOAT64:
    return get(double());
  case AICC_DTYPE_INT8:
    return get(int8_t());
  case AICC_DTYPE_INT16:
    return get(int16_t());
  case AICC_DTYPE_INT32:
    return get(int32_t());
  case AICC_DTYPE_INT64:
    return get(int64_t());
  case AICC_DTYPE_UINT8:
  case AICC_DTYPE_BOOL:
    return get(uint8_t());
  case AICC_DTYPE_UINT16:
    return get(uint16_t());
  case AICC_DTYPE_UINT32:
    return get(uint32_t());
  case AICC_DTYPE_UINT64:
    return get(uint64_t());
  default:
    return false;
  }
}

/// "[0.1, 0.2, ...]  argmax 1 (0.7)": the first values and, for a
/// classifier's scores, the winning class.
std::string summarize(const Buffer &data, const aicc_tensor_info &info) {
  size_t elementSize = aicc_dtype_size(info.dtype);
  size_t count = elementSize ? info.byte_size / elementSize : 0;
  std::string text = "[";
  size_t best = 0;
  double bestValue = 0, value;
  char number[32];
  for (size_t i = 0; i < count; ++i) {
    if (!element(data, info.dtype, i, value))
      return "(" + std::to_string(count) + " values, not shown for " +
             aicc_dtype_name(info.dtype) + ")";
    if (i == 0 || value > bestValue)
      best = i, bestValue = value;
    if (i < 8) {
      std::snprintf(number, sizeof(number), "%.6g", value);
      text += (i ? ", " : "") + std::string(number);
    }
  }
  text += count > 8 ? ", ...]" : "]";
  if (count > 0) {
    std::snprintf(number, sizeof(number), "%.6g", bestValue);
    text += "  argmax " + std::to_string(best) + " (" + number + ")";
  }
  return text;
}

/// What one thread does: its own context over the shared model, `runs`
/// inferences into its own output buffers. Errors are handed back to main.
struct Worker {
  std::vector<Buffer> outputs;
  double seconds = 0;
  bool stable = true; // every run reproduced the first
  std::exception_ptr error;

  void operator()(const aicc::Model &model, const std::vector<Buffer> &inputs,
                  int runs, std::atomic<int> &ready) {
    bool arrived = false;
    // Waits until every thread has its context, so that the runs overlap.
    auto arrive = [&] {
      arrived = true;
      ready.fetch_add(1);
      while (ready.load() < kThreads)
        std::this_thread::yield();
    };
    try {
      // One worker thread per context: the two contexts share the cores.
      aicc::Context context(model, /*numThreads=*/1);
      std::vector<const void *> in;
      for (const Buffer &b : inputs)
        in.push_back(b.data());
      for (size_t i = 0; i < model.outputCount(); ++i)
        outputs.emplace_back(model.output(i).byte_size);
      std::vector<Buffer> first;
      arrive();
      auto start = std::chrono::steady_clock::now();
      for (int r = 0; r < runs; ++r) {
        std::vector<void *> out;
        for (Buffer &b : outputs)
          out.push_back(b.data());
        context.run(in, out);
        if (r == 0)
          first = outputs;
        else if (outputs != first)
          stable = false;
      }
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              start)
                    .count();
    } catch (...) {
      error = std::current_exception();
    }
    if (!arrived)
      arrive();
  }
};

int usage(const char *problem) {
  std::fprintf(stderr,
               "aicc-classify: error: %s\n"
               "usage: aicc-classify MODEL.bin [INPUT.npy ...] [--runs N]\n",
               problem);
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  std::string modelPath;
  std::vector<std::string> inputPaths;
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
      if (runs < 1)
        return usage("--runs needs a positive count");
    } else if (!arg.empty() && arg[0] == '-') {
      return usage(("unknown option '" + arg + "'").c_str());
    } else if (modelPath.empty()) {
      modelPath = arg;
    } else {
      inputPaths.push_back(arg);
    }
  }
  if (modelPath.empty())
    return usage("no model given");

  try {
    aicc::Model model = aicc::Model::load(modelPath);
    std::printf("model '%s' by %s on %s (runtime %s)\n", model.name().c_str(),
                model.producer().c_str(), model.device().c_str(),
                aicc_runtime_version());

    if (!inputPaths.empty() && inputPaths.size() != model.inputCount())
      return usage(("the model has " + std::to_string(model.inputCount()) +
                    " inputs, " + std::to_string(inputPaths.size()) +
                    " files given")
                       .c_str());
    std::vector<Buffer> inputs(model.inputCount());
    for (size_t i = 0; i < model.inputCount(); ++i) {
      aicc_tensor_info info = model.input(i);
      std::string source = "deterministic values";
      if (!inputPaths.empty()) {
        std::string problem = readNpy(inputPaths[i], info, inputs[i]);
        if (!problem.empty()) {
          std::fprintf(stderr, "aicc-classify: error: %s\n", problem.c_str());
          return 2;
        }
        source = inputPaths[i];
      } else {
        inputs[i] = deterministicInput(info, i);
      }
      std::printf("input %zu '%s': %s %s, %zu bytes, from %s\n", i, info.name,
                  aicc_dtype_name(info.dtype), formatDims(info).c_str(),
                  info.byte_size, source.c_str());
    }
    for (size_t i = 0; i < model.outputCount(); ++i) {
      aicc_tensor_info info = model.output(i);
      std::printf("output %zu '%s': %s %s, %zu bytes\n", i, info.name,
                  aicc_dtype_name(info.dtype), formatDims(info).c_str(),
                  info.byte_size);
    }

    // The model is shared read-only; each thread creates its own context.
    Worker workers[kThreads];
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (Worker &worker : workers)
      threads.emplace_back(std::ref(worker), std::cref(model),
                           std::cref(inputs), runs, std::ref(ready));
    for (std::thread &thread : threads)
      thread.join();
    for (Worker &worker : workers)
      if (worker.error)
        std::rethrow_exception(worker.error);

    bool agree = true, stable = true;
    for (const Worker &worker : workers) {
      agree = agree && worker.outputs == workers[0].outputs;
      stable = stable && worker.stable;
    }
    for (size_t i = 0; i < model.outputCount(); ++i)
      std::printf("result %zu '%s': %s\n", i, model.output(i).name,
                  summarize(workers[0].outputs[i], model.output(i)).c_str());
    for (int t = 0; t < kThreads; ++t)
      std::printf("thread %d: own context, %d runs, %.1f us per run\n", t, runs,
                  workers[t].seconds * 1e6 / runs);
    std::printf("%d threads, one shared model: outputs %s, runs %s\n", kThreads,
                agree ? "identical" : "DIFFER",
                stable ? "reproducible" : "NOT reproducible");
    return agree && stable ? 0 : 1;
  } catch (const std::exception &error) {
    // aicc::Error's message is the runtime's own, naming the file and what
    // is wrong with it; error.status() is there for callers that branch.
    std::fprintf(stderr, "aicc-classify: error: %s\n", error.what());
    return 2;
  }
}
