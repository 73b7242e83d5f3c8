//===- Calibrate.cpp - Activation ranges from the float model -------------===//
//
// The float model, with every tensor to observe added to its outputs, is
// compiled for the CPU and run by the runtime over the calibration samples.
// A first pass records each tensor's minimum and maximum; the entropy and
// percentile methods then run the samples again into a histogram of |x|
// over [0, max |x|] and choose a clipping threshold from it.
//
//===----------------------------------------------------------------------===//

#include "QuantizeInternal.h"

#include "aicc/Compiler/Compiler.h"
#include "aicc/Target/Target.h"
#include "aicc/runtime.h"

#include "TensorFiles.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace aicc::quantize {
namespace {

constexpr int kBins = 2048;
/// The most calibration samples read (each is a forward pass).
constexpr size_t kMaxSamples = 100000;

Error failure(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// The sample folders of `dir`, sorted by name.
Expected<std::vector<std::string>> sampleFolders(const std::string &dir) {
  std::vector<std::string> folders;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (sys::fs::is_directory(it->path()))
      folders.push_back(it->path());
  if (ec)
    return failure("--calibration-data '" + dir + "': " + ec.message());
  if (folders.empty())
    return failure("--calibration-data '" + dir +
                   "' holds no sample folders (one folder per sample, with "
                   "input_<k>.npy files)");
  if (folders.size() > kMaxSamples)
    return failure("--calibration-data '" + dir + "' holds more than " +
                   Twine(kMaxSamples) + " samples");
  llvm::sort(folders);
  return folders;
}

/// A compiled, loaded observer model and one context on it.
class Observer {
public:
  ~Observer() {
    if (context)
      aicc_context_release(context);
    if (model)
      aicc_model_release(model);
  }

  Error load(const std::string &bundle) {
    if (aicc_model_load_file(bundle.c_str(), &model) != AICC_OK ||
        aicc_context_create(model, nullptr, &context) != AICC_OK)
      return failure(Twine("calibration: cannot load the observer model: ") +
                     aicc_last_error_message());
    return Error::success();
  }

  /// Runs the sample in `folder`; `outputs[i]` receives output i's bytes.
  Error run(const std::string &folder,
            std::vector<std::vector<uint8_t>> &outputs) {
    size_t inputCount = aicc_model_input_count(model);
    std::vector<run::HostTensor> inputs(inputCount);
    std::vector<const void *> inputPointers;
    for (size_t k = 0; k < inputCount; ++k) {
      aicc_tensor_info info;
      aicc_model_input_info(model, k, &info);
      std::string path = folder + "/input_" + std::to_string(k) + ".npy";
      std::string error = run::readTensorFile(path, inputs[k]);
      if (!error.empty())
        return failure("calibration sample '" + path + "': " + error);
      std::vector<int64_t> dims(info.dims, info.dims + info.rank);
      if (inputs[k].dtype != info.dtype || inputs[k].dims != dims)
        return failure("calibration sample '" + path + "' is " +
                       aicc_dtype_name(inputs[k].dtype) + " " +
                       run::formatDims(inputs[k].dims) + "; input '" +
                       info.name + "' is " + aicc_dtype_name(info.dtype) + " " +
                       run::formatDims(dims));
      inputPointers.push_back(inputs[k].data.data());
    }
    size_t outputCount = aicc_model_output_count(model);
    outputs.resize(outputCount);
    std::vector<void *> outputPointers;
    for (size_t i = 0; i < outputCount; ++i) {
      aicc_tensor_info info;
      aicc_model_output_info(model, i, &info);
      outputs[i].resize(info.byte_size);
      outputPointers.push_back(outputs[i].data());
    }
    if (aicc_context_run(context, inputPointers.data(), inputCount,
                         outputPointers.data(), outputCount) != AICC_OK)
      return failure(Twine("calibration: running sample '") + folder +
                     "' failed: " + aicc_last_error_message());
    return Error::success();
  }

  /// Whether output `i` holds float32 values.
  bool isFloat(size_t i) const {
    aicc_tensor_info info;
    aicc_model_output_info(model, i, &info);
    return info.dtype == AICC_DTYPE_FLOAT32;
  }

private:
  aicc_model *model = nullptr;
  aicc_context *context = nullptr;
};

ArrayRef<float> floats(const std::vector<uint8_t> &bytes) {
  return ArrayRef<float>(reinterpret_cast<const float *>(bytes.data()),
                         bytes.size() / sizeof(float));
}

/// The threshold keeping `percentile`% of the histogram's mass.
double percentileThreshold(ArrayRef<double> histogram, double width,
                           double percentile) {
  double total = 0;
  for (double count : histogram)
    total += count;
  double kept = 0;
  for (size_t bin = 0; bin < histogram.size(); ++bin) {
    kept += histogram[bin];
    if (kept >= total * percentile / 100.0)
      return (bin + 1) * width;
  }
  return histogram.size() * width;
}

/// The threshold whose 128-level quantization of the histogram loses the
/// least information (smallest KL divergence between the clipped
/// distribution and its quantized form).
double entropyThreshold(ArrayRef<double> histogram, double width) {
  constexpr int kLevels = 128;
  double best = INFINITY;
  int bestBins = kBins;
  for (int bins = kLevels; bins <= kBins; bins += 16) {
    std::vector<double> p(histogram.begin(), histogram.begin() + bins);
    for (int b = bins; b < kBins; ++b)
      p[bins - 1] += histogram[b];
    // Merge into kLevels levels, then spread each level's mass evenly over
    // the bins that were non-zero.
    std::vector<double> q(bins, 0.0);
    double merge = double(bins) / kLevels;
    for (int level = 0; level < kLevels; ++level) {
      int start = int(std::floor(level * merge));
      int end =
          level + 1 == kLevels ? bins : int(std::floor((level + 1) * merge));
      double mass = 0;
      int nonzero = 0;
      for (int b = start; b < end; ++b) {
        mass += histogram[b];
        nonzero += histogram[b] != 0;
      }
      for (int b = start; b < end; ++b)
        if (histogram[b] != 0)
          q[b] = mass / nonzero;
    }
    double pTotal = 0, qTotal = 0;
    for (int b = 0; b < bins; ++b) {
      pTotal += p[b];
      qTotal += q[b];
    }
    if (pTotal == 0 || qTotal == 0)
      continue;
    double divergence = 0;
    for (int b = 0; b < bins; ++b) {
      if (p[b] == 0)
        continue;
      double pp = p[b] / pTotal;
      double qq = q[b] / qTotal;
      divergence += qq == 0 ? pp * 20.0 : pp * std::log(pp / qq);
    }
    if (divergence < best) {
      best = divergence;
      bestBins = bins;
    }
  }
  return (bestBins + 0.5) * width;
}

} // namespace

Expected<CalibrationTable> calibrate(const CompileOptions &base,
                                     const QuantizeOptions &options,
                                     const onnx::ModelProto &model,
                                     ArrayRef<std::string> tensors,
                                     raw_ostream &log) {
  Expected<std::vector<std::string>> folders =
      sampleFolders(options.calibrationDir);
  if (!folders)
    return folders.takeError();

  // The observer: the float model with every tensor to observe an output.
  onnx::ModelProto observer = model;
  onnx::GraphProto *graph = observer.mutable_graph();
  size_t firstObserved = graph->output_size();
  for (const std::string &name : tensors)
    graph->add_output()->set_name(name);
  std::string bytes;
  if (!observer.SerializeToString(&bytes))
    return failure("calibration: cannot serialize the observer model");

  SmallString<128> bundle;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("aicc-calibration", "bin", bundle))
    return failure("calibration: cannot create a temporary file: " +
                   ec.message());
  auto remove = make_scope_exit([&] { sys::fs::remove(bundle); });
  const Target *cpu = TargetRegistry::lookup("cpu");
  if (!cpu)
    return failure("calibration needs the cpu target in this build");
  Expected<std::unique_ptr<TargetOptions>> cpuOptions = cpu->parseOptions({});
  if (!cpuOptions)
    return cpuOptions.takeError();
  CompileOptions compileOptions;
  compileOptions.inputPath = base.inputPath;
  compileOptions.modelBytes = std::move(bytes);
  compileOptions.outputPath = bundle.str().str();
  compileOptions.inputShapes = base.inputShapes;
  compileOptions.progress = ProgressMode::Never;
  if (!compile(compileOptions, *cpu, **cpuOptions, log))
    return failure("calibration: the float model with its observed "
                   "tensors did not compile for the cpu");
  Observer run;
  if (Error error = run.load(bundle.str().str()))
    return std::move(error);

  size_t count = tensors.size();
  std::vector<double> low(count, INFINITY), high(count, -INFINITY);
  std::vector<bool> usable(count);
  for (size_t t = 0; t < count; ++t)
    usable[t] = run.isFloat(firstObserved + t);
  std::vector<std::vector<uint8_t>> outputs;
  for (const std::string &folder : *folders) {
    if (Error error = run.run(folder, outputs))
      return std::move(error);
    for (size_t t = 0; t < count; ++t) {
      if (!usable[t])
        continue;
      for (float v : floats(outputs[firstObserved + t]))
        if (std::isfinite(v)) {
          low[t] = std::min<double>(low[t], v);
          high[t] = std::max<double>(high[t], v);
        }
    }
  }

  CalibrationTable table;
  table.samples = folders->size();
  table.method = options.method == CalibrationMethod::MinMax    ? "minmax"
                 : options.method == CalibrationMethod::Entropy ? "entropy"
                                                                : "percentile";
  std::vector<std::vector<double>> histograms;
  if (options.method != CalibrationMethod::MinMax) {
    histograms.assign(count, std::vector<double>(kBins, 0.0));
    for (const std::string &folder : *folders) {
      if (Error error = run.run(folder, outputs))
        return std::move(error);
      for (size_t t = 0; t < count; ++t) {
        double top = std::max(std::abs(low[t]), std::abs(high[t]));
        if (!usable[t] || !(top > 0))
          continue;
        for (float v : floats(outputs[firstObserved + t]))
          if (std::isfinite(v))
            histograms[t][std::min<int>(kBins - 1,
                                        int(std::abs(v) / top * kBins))] += 1;
      }
    }
  }
  for (size_t t = 0; t < count; ++t) {
    if (!usable[t] || !std::isfinite(low[t]))
      continue;
    TensorRange range;
    range.min = low[t];
    range.max = high[t];
    double top = std::max(std::abs(low[t]), std::abs(high[t]));
    range.threshold = top;
    if (!histograms.empty() && top > 0) {
      double width = top / kBins;
      range.threshold =
          options.method == CalibrationMethod::Entropy
              ? entropyThreshold(histograms[t], width)
              : percentileThreshold(histograms[t], width, options.percentile);
      range.threshold = std::min(range.threshold, top);
    }
    table.tensors[tensors[t]] = range;
  }
  return table;
}

} // namespace aicc::quantize
