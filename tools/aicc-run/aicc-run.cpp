//===- aicc-run.cpp - Run or benchmark a compiled model -------------------===//
//
// aicc-run model.bin -i FILE [-i FILE ...] [--output-dir DIR]
//          [--expect DIR [--rtol R] [--atol A]] [--bench N [--warmup W]]
//          [--threads T] [--no-graphs] [--profile] [--json] [--info]
//
// Inputs come in graph input order from .npy or ONNX TensorProto (.pb)
// files; outputs are written as DIR/output_K.npy in graph output order.
// --expect compares with DIR/output_K.pb or .npy: floats pass when
// |actual - expected| <= atol + rtol * |expected| (NaN matches NaN),
// integers and booleans must be equal. --bench runs W warm-up runs, then N
// timed ones, and prints min/median/p90 (on a GPU also the kernels' device
// time, the input and output copies excluded, and then W + N runs on the
// inputs and outputs in the context's device buffers, the latency of data
// that lives on the GPU, aicc_context_run_resident, unless --profile); with
// --json the last line is a JSON object. --profile times every launch step
// (over the --bench runs, else over one run after the first) and prints a
// table of their medians, with each step's bytes and FLOPs and the fraction
// of its roofline bound (the least time those take at the device's peaks)
// that it reached.
// --no-graphs makes a GPU context launch step by step instead of replaying
// a graph. Exit status: 0 success, 1 outputs differ from --expect, 2 error.
//
// Depends on the runtime only.
//
//===----------------------------------------------------------------------===//

#include "TensorFiles.h"

#include "aicc/runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace aicc::run;

namespace {
struct Options {
  std::string model;
  std::vector<std::string> inputs;
  std::string outputDir;
  std::string expectDir;
  double rtol = 1e-3, atol = 1e-5;
  int bench = 0;
  int warmup = -1;
  unsigned threads = 0;
  bool json = false;
  bool info = false;
  bool noGraphs = false;
  bool profile = false;
};

int usage(const char *message) {
  std::fprintf(stderr,
               "aicc-run: error: %s\n"
               "usage: aicc-run MODEL.bin -i FILE [-i FILE ...] "
               "[--output-dir DIR]\n"
               "       [--expect DIR [--rtol R] [--atol A]] [--bench N "
               "[--warmup W]]\n"
               "       [--threads T] [--no-graphs] [--profile] [--json] "
               "[--info]\n",
               message);
  return 2;
}

int error(const std::string &message) {
  std::fprintf(stderr, "aicc-run: error: %s\n", message.c_str());
  return 2;
}

bool parseNumber(const char *text, double &value) {
  char *end = nullptr;
  value = std::strtod(text, &end);
  return end && *end == 0 && end != text;
}

bool parseArgs(int argc, char **argv, Options &o, std::string &problem) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      size_t n = std::strlen(name);
      if (arg.compare(0, n, name) == 0 && arg.size() > n && arg[n] == '=')
        return argv[i] + n + 1;
      if (arg == name && i + 1 < argc)
        return argv[++i];
      return nullptr;
    };
    double number;
    if (const char *v = value("-i"))
      o.inputs.push_back(v);
    else if (const char *v = value("--input"))
      o.inputs.push_back(v);
    else if (const char *v = value("--output-dir"))
      o.outputDir = v;
    else if (const char *v = value("--expect"))
      o.expectDir = v;
    else if (const char *v = value("--rtol")) {
      if (!parseNumber(v, o.rtol) || o.rtol < 0)
        return problem = "--rtol needs a non-negative number", false;
    } else if (const char *v = value("--atol")) {
      if (!parseNumber(v, o.atol) || o.atol < 0)
        return problem = "--atol needs a non-negative number", false;
    } else if (const char *v = value("--bench")) {
      if (!parseNumber(v, number) || number < 1 || number > 1e7)
        return problem = "--bench needs a positive count", false;
      o.bench = int(number);
    } else if (const char *v = value("--warmup")) {
      if (!parseNumber(v, number) || number < 0 || number > 1e7)
        return problem = "--warmup needs a count", false;
      o.warmup = int(number);
    } else if (const char *v = value("--threads")) {
      if (!parseNumber(v, number) || number < 0 || number > 1024)
        return problem = "--threads needs a count", false;
      o.threads = unsigned(number);
    } else if (arg == "--json")
      o.json = true;
    else if (arg == "--info")
      o.info = true;
    else if (arg == "--no-graphs")
      o.noGraphs = true;
    else if (arg == "--profile")
      o.profile = true;
    else if (!arg.empty() && arg[0] == '-')
      return problem = "unknown option '" + arg + "'", false;
    else if (o.model.empty())
      o.model = arg;
    else
      return problem = "more than one model given ('" + arg + "')", false;
  }
  if (o.model.empty())
    return problem = "no model given", false;
  return true;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exponent = (h >> 10) & 0x1f,
           mantissa = h & 0x3ff, bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else { // subnormal
      int e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while (!(mantissa & 0x400));
      bits = sign | uint32_t(127 - 15 - e) << 23 | (mantissa & 0x3ff) << 13;
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000 | mantissa << 13;
  } else {
    bits = sign | (exponent + 127 - 15) << 23 | mantissa << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// Element `i` of `data` as a double.
double element(aicc_dtype dtype, const uint8_t *data, size_t i) {
  auto load = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, data + i * sizeof(v), sizeof(v));
    return v;
  };
  switch (dtype) {
  case AICC_DTYPE_FLOAT32:
    return load(float());
  case AICC_DTYPE_FLOAT64:
    return load(double());
  case AICC_DTYPE_FLOAT16:
    return halfToFloat(load(uint16_t()));
  case AICC_DTYPE_BFLOAT16: {
    uint32_t bits = uint32_t(load(uint16_t())) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case AICC_DTYPE_INT8:
    return load(int8_t());
  case AICC_DTYPE_UINT8:
  case AICC_DTYPE_BOOL:
    return load(uint8_t());
  case AICC_DTYPE_INT16:
    return load(int16_t());
  case AICC_DTYPE_UINT16:
    return load(uint16_t());
  case AICC_DTYPE_INT32:
    return load(int32_t());
  case AICC_DTYPE_UINT32:
    return load(uint32_t());
  case AICC_DTYPE_INT64:
    return double(load(int64_t()));
  case AICC_DTYPE_UINT64:
    return double(load(uint64_t()));
  }
  return 0;
}

bool isFloat(aicc_dtype dtype) {
  return dtype == AICC_DTYPE_FLOAT32 || dtype == AICC_DTYPE_FLOAT64 ||
         dtype == AICC_DTYPE_FLOAT16 || dtype == AICC_DTYPE_BFLOAT16;
}

bool fileExists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
      out += escaped;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// The value at index round(q * (n - 1)) of `values`, sorted in place.
double quantile(std::vector<double> &values, double q) {
  std::sort(values.begin(), values.end());
  size_t index =
      std::min(values.size() - 1, size_t(q * (values.size() - 1) + 0.5));
  return values[index];
}

/// What --profile gathers: the launch steps and each one's times.
struct Profile {
  std::vector<aicc_profile_entry> steps;
  std::vector<std::vector<double>> times; ///< per step, one per run
  std::vector<double> medians;
  double total = 0;

  /// Adds the context's last run; false (with the runtime's message
  /// pending) when the runtime refuses.
  bool collect(aicc_context *context) {
    const aicc_profile_entry *entries = nullptr;
    size_t count = 0;
    if (aicc_context_profile(context, &entries, &count) != AICC_OK)
      return false;
    if (steps.empty()) {
      steps.assign(entries, entries + count);
      times.resize(count);
    }
    for (size_t i = 0; i < count && i < times.size(); ++i)
      times[i].push_back(entries[i].milliseconds);
    return true;
  }

  void summarize() {
    medians.clear();
    total = 0;
    for (std::vector<double> &t : times) {
      medians.push_back(t.empty() ? 0 : quantile(t, 0.5));
      total += medians.back();
    }
  }

  double share(size_t i) const { return total > 0 ? medians[i] / total : 0; }
};

/// `value` with `decimals` digits after the point.
std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

std::string dims3(const uint32_t (&d)[3]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" +
         std::to_string(d[2]);
}

/// The --profile table.
void printProfile(const Profile &p, size_t runs, const char *device) {
  std::printf("profile: %zu %s, median of %zu %s on %s\n", p.steps.size(),
              p.steps.size() == 1 ? "step" : "steps", runs,
              runs == 1 ? "run" : "runs", device);
  // Bytes and FLOPs as the compiler recorded them; the roofline fraction
  // is the least time they could take on this device over the time taken.
  std::vector<std::vector<std::string>> rows = {
      {"#", "kernel", "median ms", "share", "MB", "GFLOP", "roofline", "grid",
       "block", "source"}};
  auto fraction = [](double bound, double ms) {
    return bound > 0 && ms > 0 ? fixed(100 * bound / ms, 1) + "%"
                               : std::string("-");
  };
  double bytes = 0, flops = 0, bound = 0;
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const aicc_profile_entry &e = p.steps[i];
    bool gpu = e.block[0] != 0;
    bytes += e.bytes;
    flops += e.flops;
    bound += e.bound_ms;
    rows.push_back({std::to_string(i), e.kernel, fixed(p.medians[i], 3),
                    fixed(100 * p.share(i), 1) + "%",
                    e.bytes ? fixed(e.bytes / 1e6, 2) : "-",
                    e.flops ? fixed(e.flops / 1e9, 3) : "-",
                    fraction(e.bound_ms, p.medians[i]),
                    gpu ? dims3(e.grid) : "-", gpu ? dims3(e.block) : "-",
                    *e.source ? e.source : "-"});
  }
  rows.push_back({"", "total", fixed(p.total, 3), "",
                  bytes ? fixed(bytes / 1e6, 2) : "",
                  flops ? fixed(flops / 1e9, 3) : "",
                  bound > 0 ? fraction(bound, p.total) : "", "", "", ""});
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto &row : rows)
    for (size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  // Numbers right-aligned, text left-aligned; no trailing blanks.
  const bool right[] = {true, false, true,  true,  true,
                        true, true,  false, false, false};
  for (const auto &row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      std::string pad(width[c] - row[c].size(), ' ');
      line += "  " + (right[c] ? pad + row[c] : row[c] + pad);
    }
    line.erase(line.find_last_not_of(' ') + 1);
    std::printf("%s\n", line.c_str());
  }
}

enum class Comparison { Match, Mismatch, Error };

/// Compares output `index`; prints a line when it matches, else describes
/// the difference or the error in `problem`.
Comparison compareOutput(size_t index, const aicc_tensor_info &info,
                         const std::vector<uint8_t> &actual, const Options &o,
                         std::string &problem) {
  std::string base = o.expectDir + "/output_" + std::to_string(index);
  std::string path = fileExists(base + ".pb") ? base + ".pb" : base + ".npy";
  HostTensor expected;
  problem = readTensorFile(path, expected);
  if (!problem.empty())
    return Comparison::Error;
  if (info.dtype == AICC_DTYPE_BFLOAT16 && expected.dtype == AICC_DTYPE_UINT16)
    expected.dtype = AICC_DTYPE_BFLOAT16; // bfloat16 bits stored as uint16
  if (expected.dtype != info.dtype) {
    problem = "output " + std::to_string(index) + " is " +
              aicc_dtype_name(info.dtype) + ", " + path + " holds " +
              aicc_dtype_name(expected.dtype);
    return Comparison::Mismatch;
  }
  std::vector<int64_t> dims(info.dims, info.dims + info.rank);
  if (expected.dims != dims) {
    problem = "output " + std::to_string(index) + " has shape " +
              formatDims(dims) + ", " + path + " has " +
              formatDims(expected.dims);
    return Comparison::Mismatch;
  }
  size_t count =
      actual.size() / std::max<size_t>(1, aicc_dtype_size(info.dtype));
  size_t mismatches = 0, firstBad = 0;
  double maxAbs = 0, maxRel = 0;
  bool floats = isFloat(info.dtype);
  for (size_t i = 0; i < count; ++i) {
    double a = element(info.dtype, actual.data(), i);
    double e = element(info.dtype, expected.data.data(), i);
    bool ok;
    if (floats) {
      if (std::isnan(a) || std::isnan(e)) {
        ok = std::isnan(a) && std::isnan(e);
      } else if (std::isinf(a) || std::isinf(e)) {
        ok = a == e;
      } else {
        double diff = std::fabs(a - e);
        maxAbs = std::max(maxAbs, diff);
        if (e != 0)
          maxRel = std::max(maxRel, diff / std::fabs(e));
        ok = diff <= o.atol + o.rtol * std::fabs(e);
      }
    } else {
      ok = a == e;
      maxAbs = std::max(maxAbs, std::fabs(a - e));
    }
    if (!ok && mismatches++ == 0)
      firstBad = i;
  }
  if (mismatches) {
    char line[256];
    std::snprintf(line, sizeof(line),
                  "output %zu '%s': %zu of %zu elements differ (first at %zu: "
                  "%.9g, expected %.9g); max abs error %.3g, max rel error "
                  "%.3g",
                  index, info.name, mismatches, count, firstBad,
                  element(info.dtype, actual.data(), firstBad),
                  element(info.dtype, expected.data.data(), firstBad), maxAbs,
                  maxRel);
    problem = line;
    return Comparison::Mismatch;
  }
  std::printf("output %zu '%s': match (%zu elements, max abs error %.3g, max "
              "rel error %.3g)\n",
              index, info.name, count, maxAbs, maxRel);
  return Comparison::Match;
}
} // namespace

int main(int argc, char **argv) {
  Options o;
  std::string problem;
  if (!parseArgs(argc, argv, o, problem))
    return usage(problem.c_str());

  aicc_model *model = nullptr;
  if (aicc_model_load_file(o.model.c_str(), &model) != AICC_OK)
    return error(aicc_last_error_message());
  struct ModelGuard {
    aicc_model *m;
    ~ModelGuard() { aicc_model_release(m); }
  } modelGuard{model};

  size_t numInputs = aicc_model_input_count(model);
  size_t numOutputs = aicc_model_output_count(model);
  if (o.info) {
    std::printf("model '%s' by %s, running on %s\n", aicc_model_name(model),
                aicc_model_producer(model), aicc_model_device(model));
    for (size_t i = 0; i < numInputs + numOutputs; ++i) {
      aicc_tensor_info info;
      if (i < numInputs)
        aicc_model_input_info(model, i, &info);
      else
        aicc_model_output_info(model, i - numInputs, &info);
      std::printf(
          "%s %zu '%s': %s %s\n", i < numInputs ? "input" : "output",
          i < numInputs ? i : i - numInputs, info.name,
          aicc_dtype_name(info.dtype),
          formatDims(std::vector<int64_t>(info.dims, info.dims + info.rank))
              .c_str());
    }
    if (o.inputs.empty())
      return 0;
  }

  if (o.inputs.size() != numInputs)
    return error("the model takes " + std::to_string(numInputs) + " inputs, " +
                 std::to_string(o.inputs.size()) + " given");
  std::vector<HostTensor> inputs(numInputs);
  std::vector<const void *> inputPointers;
  for (size_t i = 0; i < numInputs; ++i) {
    std::string e = readTensorFile(o.inputs[i], inputs[i]);
    if (!e.empty())
      return error(e);
    aicc_tensor_info info;
    aicc_model_input_info(model, i, &info);
    std::vector<int64_t> dims(info.dims, info.dims + info.rank);
    // ONNX test data and numpy carry bfloat16 bits as uint16.
    if (info.dtype == AICC_DTYPE_BFLOAT16 &&
        inputs[i].dtype == AICC_DTYPE_UINT16)
      inputs[i].dtype = AICC_DTYPE_BFLOAT16;
    if (inputs[i].dtype != info.dtype)
      return error("input " + std::to_string(i) + " '" + info.name + "' is " +
                   aicc_dtype_name(info.dtype) + ", " + o.inputs[i] +
                   " holds " + aicc_dtype_name(inputs[i].dtype));
    if (inputs[i].dims != dims)
      return error("input " + std::to_string(i) + " '" + info.name +
                   "' has shape " + formatDims(dims) + ", " + o.inputs[i] +
                   " has " + formatDims(inputs[i].dims));
    inputPointers.push_back(inputs[i].data.data());
  }
  std::vector<HostTensor> outputs(numOutputs);
  std::vector<void *> outputPointers;
  for (size_t i = 0; i < numOutputs; ++i) {
    aicc_tensor_info info;
    aicc_model_output_info(model, i, &info);
    outputs[i].dtype = info.dtype;
    outputs[i].dims.assign(info.dims, info.dims + info.rank);
    outputs[i].data.assign(info.byte_size, 0);
    outputPointers.push_back(outputs[i].data.data());
  }

  aicc_context_options options;
  aicc_context_options_init(&options);
  options.num_threads = o.threads;
  options.flags = (o.noGraphs ? AICC_CONTEXT_NO_GRAPHS : 0) |
                  (o.profile ? AICC_CONTEXT_PROFILE : 0);
  aicc_context *context = nullptr;
  if (aicc_context_create(model, &options, &context) != AICC_OK)
    return error(aicc_last_error_message());
  struct ContextGuard {
    aicc_context *c;
    ~ContextGuard() { aicc_context_release(c); }
  } contextGuard{context};

  auto run = [&] {
    return aicc_context_run(context, inputPointers.data(), numInputs,
                            outputPointers.data(), numOutputs);
  };
  if (run() != AICC_OK)
    return error(aicc_last_error_message());

  if (!o.outputDir.empty()) {
    mkdir(o.outputDir.c_str(), 0777);
    // All outputs or none: a failed write removes those already written.
    std::vector<std::string> written;
    for (size_t i = 0; i < numOutputs; ++i) {
      std::string path = o.outputDir + "/output_" + std::to_string(i) + ".npy";
      std::string e = writeNpy(path, outputs[i]);
      if (!e.empty()) {
        for (const std::string &done : written)
          std::remove(done.c_str());
        return error(e);
      }
      written.push_back(path);
    }
  }

  int status = 0;
  std::string jsonLine; // printed last, with its closing brace
  if (!o.expectDir.empty()) {
    for (size_t i = 0; i < numOutputs; ++i) {
      aicc_tensor_info info;
      aicc_model_output_info(model, i, &info);
      Comparison result = compareOutput(i, info, outputs[i].data, o, problem);
      if (result == Comparison::Error)
        return error(problem);
      if (result == Comparison::Mismatch) {
        std::printf("%s\n", problem.c_str());
        status = 1;
      }
    }
    std::printf("%s (rtol %g, atol %g)\n", status ? "MISMATCH" : "PASS", o.rtol,
                o.atol);
  }

  Profile profile;
  size_t profiledRuns = 0;
  std::string device = aicc_model_device(model);
  if (o.bench > 0) {
    int warmup = o.warmup >= 0 ? o.warmup : std::max(3, o.bench / 10);
    for (int i = 0; i < warmup; ++i)
      if (run() != AICC_OK)
        return error(aicc_last_error_message());
    // Device times where the context has them (GPU models): every run's.
    std::vector<double> times, deviceTimes;
    for (int i = 0; i < o.bench; ++i) {
      auto start = std::chrono::steady_clock::now();
      if (run() != AICC_OK)
        return error(aicc_last_error_message());
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
      double kernels = 0;
      if (aicc_context_device_time(context, &kernels) == AICC_OK)
        deviceTimes.push_back(kernels);
      if (o.profile && !profile.collect(context))
        return error(aicc_last_error_message());
    }
    profiledRuns = o.profile ? size_t(o.bench) : 0;
    double minimum = *std::min_element(times.begin(), times.end());
    double median = quantile(times, 0.5), p90 = quantile(times, 0.9);
    unsigned used = aicc_context_num_threads(context);
    std::string threads =
        std::to_string(used) + (used == 1 ? " thread" : " threads");
    std::printf("bench: %d runs after %d warm-up on %s, %s: min %.3f ms, "
                "median %.3f ms, p90 %.3f ms\n",
                o.bench, warmup, device.c_str(), threads.c_str(), minimum,
                median, p90);
    // On a GPU, the kernels alone (events around them, the input and
    // output copies outside): the model's time with its data on the
    // device, as a framework's GPU timing measures it.
    bool gpu = deviceTimes.size() == times.size();
    double deviceMedian = gpu ? quantile(deviceTimes, 0.5) : 0;
    if (gpu)
      std::printf("device: kernels of each run between events: min %.3f ms, "
                  "median %.3f ms (copies of inputs and outputs excluded)\n",
                  *std::min_element(deviceTimes.begin(), deviceTimes.end()),
                  deviceMedian);
    // On a GPU, also whole runs with the inputs and outputs left in the
    // context's device buffers (aicc_context_run_resident, on the inputs
    // the runs above left there): an application's latency when its data
    // lives on the GPU, launch and wait included, on the host's clock.
    // Not with --profile: a profiling context launches step by step with
    // events around each, which is no application's latency.
    std::vector<double> resident;
    double residentMedian = 0;
    bool timeResident = gpu && !o.profile;
    if (timeResident) {
      for (int i = 0; i < warmup + o.bench; ++i) {
        auto start = std::chrono::steady_clock::now();
        if (aicc_context_run_resident(context) != AICC_OK)
          return error(aicc_last_error_message());
        if (i >= warmup)
          resident.push_back(std::chrono::duration<double, std::milli>(
                                 std::chrono::steady_clock::now() - start)
                                 .count());
      }
      residentMedian = quantile(resident, 0.5);
      std::printf("resident: %d runs on inputs and outputs in device memory "
                  "(launch and wait included): min %.3f ms, median %.3f ms\n",
                  o.bench, *std::min_element(resident.begin(), resident.end()),
                  residentMedian);
    }
    if (o.json)
      jsonLine = "{\"model\": " + jsonString(o.model) +
                 ", \"device\": " + jsonString(device) +
                 ", \"threads\": " + std::to_string(used) +
                 ", \"runs\": " + std::to_string(o.bench) +
                 ", \"warmup\": " + std::to_string(warmup) +
                 ", \"min_ms\": " + fixed(minimum, 6) +
                 ", \"median_ms\": " + fixed(median, 6) +
                 ", \"p90_ms\": " + fixed(p90, 6) +
                 (gpu ? ", \"device_median_ms\": " + fixed(deviceMedian, 6)
                      : std::string()) +
                 (timeResident
                      ? ", \"resident_median_ms\": " + fixed(residentMedian, 6)
                      : std::string());
  } else if (o.profile) {
    // The first run was the warm-up.
    if (run() != AICC_OK || !profile.collect(context))
      return error(aicc_last_error_message());
    profiledRuns = 1;
    if (o.json)
      jsonLine = "{\"model\": " + jsonString(o.model) +
                 ", \"device\": " + jsonString(device) + ", \"runs\": 1";
  }
  if (o.profile) {
    profile.summarize();
    printProfile(profile, profiledRuns, device.c_str());
    if (o.json) {
      jsonLine += ", \"kernels\": [";
      for (size_t i = 0; i < profile.steps.size(); ++i) {
        const aicc_profile_entry &e = profile.steps[i];
        auto array = [](const uint32_t (&d)[3]) {
          return "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) +
                 ", " + std::to_string(d[2]) + "]";
        };
        jsonLine +=
            std::string(i ? ", " : "") + "{\"index\": " + std::to_string(i) +
            ", \"kernel\": " + jsonString(e.kernel) +
            ", \"median_ms\": " + fixed(profile.medians[i], 6) +
            ", \"share\": " + fixed(profile.share(i), 4) +
            ", \"bytes\": " + std::to_string(e.bytes) +
            ", \"flops\": " + std::to_string(e.flops) +
            ", \"bound_ms\": " + fixed(e.bound_ms, 9) +
            ", \"grid\": " + array(e.grid) + ", \"block\": " + array(e.block) +
            ", \"source\": " + jsonString(e.source) + "}";
      }
      jsonLine += "]";
    }
  }
  if (!jsonLine.empty())
    std::printf("%s}\n", jsonLine.c_str());
  return status;
}
