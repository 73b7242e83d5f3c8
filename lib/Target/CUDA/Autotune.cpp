//===- Autotune.cpp - Measured tilings for tensor-core contractions -------===//
//
// A tiling's time is what the kernels of its contraction take in a run of
// the whole model: the steps that carry the contraction's signature, and
// the steps made of nothing but ONNX nodes those steps have covered in
// some variant (an epilogue a split-K tiling leaves as its own kernel,
// the sum of the splits), so that a tiling does not look faster by
// pushing work into a kernel of its own.
//
//===----------------------------------------------------------------------===//

#include "Autotune.h"

#include "aicc/runtime.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <thread>

using namespace aicc;
using llvm::SmallString;
using llvm::SmallVector;
using llvm::StringRef;

namespace {

llvm::Error failure(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// One cached choice: the tiling measured fastest for a signature on a
/// device, driver and set of architectures (the key), and its time.
struct CacheEntry {
  std::string key, signature, tiling;
  double milliseconds = 0;
};

/// The cache file: a line per entry, DEVICE, DRIVER, ARCHS, SIGNATURE,
/// TILING and MS separated by tabs ('#' lines are comments). A line that
/// does not parse is dropped with a warning (the file is the user's).
class TileCache {
public:
  explicit TileCache(std::string path) : path(std::move(path)) {}

  /// Adds the file's entries (none if it does not exist yet); fails if it
  /// exists but cannot be read.
  llvm::Error load(llvm::raw_ostream &log) {
    if (!llvm::sys::fs::exists(path))
      return llvm::Error::success();
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!file)
      return failure("cannot read the tile cache " + path + ": " +
                     file.getError().message());
    SmallVector<StringRef> lines;
    (*file)->getBuffer().split(lines, '\n');
    for (auto [index, line] : llvm::enumerate(lines)) {
      line = line.rtrim("\r");
      if (line.empty() || line.starts_with("#"))
        continue;
      SmallVector<StringRef> fields;
      line.split(fields, '\t');
      CacheEntry entry;
      if (fields.size() != 6 || fields[5].getAsDouble(entry.milliseconds) ||
          fields[3].empty() || fields[4].empty()) {
        log << "aicc: warning: " << path << ":" << index + 1
            << ": not DEVICE, DRIVER, ARCHS, SIGNATURE, TILING and MS "
               "separated by tabs; ignored\n";
        continue;
      }
      entry.key = (fields[0] + "\t" + fields[1] + "\t" + fields[2]).str();
      entry.signature = fields[3].str();
      entry.tiling = fields[4].str();
      set(std::move(entry));
    }
    return llvm::Error::success();
  }

  const CacheEntry *find(StringRef key, StringRef signature) const {
    for (const CacheEntry &entry : entries)
      if (entry.key == key && entry.signature == signature)
        return &entry;
    return nullptr;
  }

  void set(CacheEntry entry) {
    for (CacheEntry &old : entries)
      if (old.key == entry.key && old.signature == entry.signature) {
        old = std::move(entry);
        return;
      }
    entries.push_back(std::move(entry));
  }

  /// Writes the file anew with `added` over what it holds by then (another
  /// compile may have added entries meanwhile), through a temporary file
  /// of its own renamed over it, so that a reader never sees half of it.
  llvm::Error save(const std::vector<CacheEntry> &added,
                   llvm::raw_ostream &log) {
    entries.clear();
    if (llvm::Error error = load(log))
      return error;
    for (const CacheEntry &entry : added)
      set(entry);
    StringRef directory = llvm::sys::path::parent_path(path);
    if (!directory.empty())
      if (std::error_code ec = llvm::sys::fs::create_directories(directory))
        return failure("cannot create " + directory + ": " + ec.message());
    int fd = -1;
    SmallString<256> temporary;
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(
            path + "-%%%%%%.tmp", fd, temporary))
      return failure("cannot create a file beside " + path + ": " +
                     ec.message());
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << "# aicc tile cache: device, driver, architectures, contraction "
          "signature, tiling, milliseconds (tab-separated)\n";
    for (const CacheEntry &entry : entries)
      os << entry.key << "\t" << entry.signature << "\t" << entry.tiling << "\t"
         << llvm::format("%.6f", entry.milliseconds) << "\n";
    os.close();
    std::error_code ec = os.error();
    os.clear_error();
    if (!ec)
      ec = llvm::sys::fs::rename(temporary, path);
    if (ec) {
      llvm::sys::fs::remove(temporary);
      return failure("cannot write the tile cache " + path + ": " +
                     ec.message());
    }
    return llvm::Error::success();
  }

  const std::string &file() const { return path; }

private:
  std::string path;
  std::vector<CacheEntry> entries;
};

/// A variant's run: the device and driver it ran on, and per launch step
/// its ONNX nodes and median time.
struct Measured {
  std::string device, driver;
  std::vector<std::string> sources;
  std::vector<double> milliseconds;
};

std::string lastError() {
  const char *message = aicc_last_error_message();
  return message && *message ? message : "unknown error";
}

/// Runs `bundle` `warmups + runs` times on zero inputs with the profiler
/// on and takes each step's median over the last `runs`.
llvm::Expected<Measured> measure(const std::string &bundle,
                                 const TuningOptions &options) {
  aicc_model *model = nullptr;
  if (aicc_model_load_memory(bundle.data(), bundle.size(), &model) != AICC_OK)
    return failure(lastError());
  Measured result;
  result.device = aicc_model_device(model);
  result.driver = aicc_model_driver(model);
  aicc_context_options contextOptions;
  aicc_context_options_init(&contextOptions);
  contextOptions.flags = AICC_CONTEXT_PROFILE;
  aicc_context *context = nullptr;
  if (aicc_context_create(model, &contextOptions, &context) != AICC_OK) {
    std::string message = lastError();
    aicc_model_release(model);
    return failure(message);
  }
  auto buffers = [&](size_t count, bool input) {
    std::vector<std::vector<char>> result(count);
    for (size_t i = 0; i < count; ++i) {
      aicc_tensor_info info;
      if ((input ? aicc_model_input_info(model, i, &info)
                 : aicc_model_output_info(model, i, &info)) == AICC_OK)
        result[i].assign(std::max<size_t>(info.byte_size, 1), 0);
    }
    return result;
  };
  std::vector<std::vector<char>> inputs =
      buffers(aicc_model_input_count(model), true);
  std::vector<std::vector<char>> outputs =
      buffers(aicc_model_output_count(model), false);
  std::vector<const void *> inputPointers;
  std::vector<void *> outputPointers;
  for (std::vector<char> &b : inputs)
    inputPointers.push_back(b.data());
  for (std::vector<char> &b : outputs)
    outputPointers.push_back(b.data());

  std::vector<std::vector<double>> times;
  std::string problem; // what failed, if anything
  for (unsigned run = 0; run < options.warmups + options.runs; ++run) {
    if (aicc_context_run(context, inputPointers.data(), inputPointers.size(),
                         outputPointers.data(),
                         outputPointers.size()) != AICC_OK) {
      problem = lastError();
      break;
    }
    if (run < options.warmups)
      continue;
    const aicc_profile_entry *entries = nullptr;
    size_t count = 0;
    if (aicc_context_profile(context, &entries, &count) != AICC_OK) {
      problem = lastError();
      break;
    }
    times.resize(count);
    result.sources.resize(count);
    for (size_t i = 0; i < count; ++i) {
      times[i].push_back(entries[i].milliseconds);
      result.sources[i] = entries[i].source ? entries[i].source : "";
    }
  }
  aicc_context_release(context);
  aicc_model_release(model);
  if (!problem.empty())
    return failure(problem);
  for (std::vector<double> &t : times) {
    std::sort(t.begin(), t.end());
    result.milliseconds.push_back(t.empty() ? 0 : t[t.size() / 2]);
  }
  return result;
}

/// Each signature's time in one variant and the tiling it ran with.
struct SignatureTimes {
  llvm::StringMap<double> milliseconds;
  llvm::StringMap<std::string> tilings;
};

/// The ONNX nodes of a step's source, "a,b,c".
SmallVector<StringRef> nodesOf(StringRef source) {
  SmallVector<StringRef> nodes;
  source.split(nodes, ',', -1, false);
  return nodes;
}

/// Attributes one variant's step times to signatures (see the top of the
/// file); `covered` holds the nodes each signature's steps covered in any
/// variant, `signatures` the order in which they are tried.
SignatureTimes attribute(const TuningBuild &build, const Measured &run,
                         const llvm::StringMap<llvm::StringSet<>> &covered,
                         const std::vector<std::string> &signatures) {
  SignatureTimes result;
  size_t steps = std::min(build.steps.size(), run.milliseconds.size());
  for (size_t i = 0; i < steps; ++i) {
    const LaunchTiling &step = build.steps[i];
    if (!step.signature.empty()) {
      result.milliseconds[step.signature] += run.milliseconds[i];
      result.tilings[step.signature] = step.tiling;
      continue;
    }
    SmallVector<StringRef> nodes = nodesOf(run.sources[i]);
    if (nodes.empty())
      continue;
    for (const std::string &signature : signatures) {
      auto entry = covered.find(signature);
      if (entry != covered.end() && llvm::all_of(nodes, [&](StringRef node) {
            return entry->second.contains(node);
          })) {
        result.milliseconds[signature] += run.milliseconds[i];
        break;
      }
    }
  }
  return result;
}

bool sameTilings(const TuningBuild &a, const TuningBuild &b) {
  if (a.steps.size() != b.steps.size())
    return false;
  for (size_t i = 0; i < a.steps.size(); ++i)
    if (a.steps[i].signature != b.steps[i].signature ||
        a.steps[i].tiling != b.steps[i].tiling)
      return false;
  return true;
}

} // namespace

std::string aicc::defaultTileCachePath() {
  SmallString<256> path;
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("AICC_CACHE_DIR");
      dir && !dir->empty()) {
    path = *dir;
  } else if (std::optional<std::string> xdg =
                 llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
             xdg && !xdg->empty()) {
    path = *xdg;
    llvm::sys::path::append(path, "aicc");
  } else if (std::optional<std::string> home =
                 llvm::sys::Process::GetEnv("HOME");
             home && !home->empty()) {
    path = *home;
    llvm::sys::path::append(path, ".cache", "aicc");
  } else {
    path = ".";
  }
  llvm::sys::path::append(path, "tiles.tsv");
  return std::string(path);
}

llvm::Expected<std::vector<std::string>>
aicc::autotune(const TuningOptions &options, TuningBuilder build,
               llvm::raw_ostream &log) {
  TileCache cache(options.cachePath.empty() ? defaultTileCachePath()
                                            : options.cachePath);
  if (llvm::Error error = cache.load(log))
    return std::move(error);

  // The model's own tilings first: its run says which GPU this is.
  llvm::Expected<TuningBuild> base = build(-1);
  if (!base)
    return base.takeError();
  llvm::Expected<Measured> baseRun = measure(base->bundle, options);
  if (!baseRun)
    return failure("--autotune times kernels on the GPU it tunes for, and "
                   "running the model failed: " +
                   llvm::toString(baseRun.takeError()));
  std::string key =
      baseRun->device + "\t" + baseRun->driver + "\t" + options.archs;

  std::vector<std::string> signatures;
  for (const LaunchTiling &step : base->steps)
    if (!step.signature.empty() &&
        !llvm::is_contained(signatures, step.signature))
      signatures.push_back(step.signature);
  std::vector<std::string> missing;
  for (const std::string &signature : signatures)
    if (!cache.find(key, signature))
      missing.push_back(signature);
  log << "aicc: autotune on " << baseRun->device << ", " << baseRun->driver
      << ": " << signatures.size() << " contraction shapes, "
      << signatures.size() - missing.size() << " in " << cache.file() << "\n";

  if (!missing.empty()) {
    // Every candidate index until none is left (each contraction back on
    // the model's tiling).
    std::vector<TuningBuild> builds;
    std::vector<Measured> runs;
    builds.push_back(std::move(*base));
    runs.push_back(std::move(*baseRun));
    builds.front().bundle.clear();
    // Variants compile `jobs` at a time, each in its own thread; then each
    // is timed alone, with nothing else running.
    unsigned jobs = std::max(1u, options.jobs);
    bool exhausted = false;
    for (long first = 1; first < options.maxVariants && !exhausted;
         first += jobs) {
      long last = std::min<long>(first + jobs, options.maxVariants);
      // Each thread keeps its variant or why it failed to compile.
      std::vector<std::optional<TuningBuild>> built(last - first);
      std::vector<std::string> failures(last - first);
      std::vector<std::thread> threads;
      for (long candidate = first; candidate < last; ++candidate)
        threads.emplace_back([&, candidate] {
          llvm::Expected<TuningBuild> variant = build(candidate);
          if (variant)
            built[candidate - first] = std::move(*variant);
          else
            failures[candidate - first] = llvm::toString(variant.takeError());
        });
      for (std::thread &thread : threads)
        thread.join();
      for (long candidate = first; candidate < last; ++candidate) {
        std::optional<TuningBuild> &variant = built[candidate - first];
        if (!variant) {
          // A candidate that does not compile is not a reason to give up.
          log << "aicc: warning: " << failures[candidate - first]
              << "; skipped\n";
          continue;
        }
        if (exhausted || sameTilings(*variant, builds.front())) {
          exhausted = true;
          continue;
        }
        llvm::Expected<Measured> run = measure(variant->bundle, options);
        if (!run)
          return failure("running tiling candidate " + llvm::Twine(candidate) +
                         " failed: " + llvm::toString(run.takeError()));
        variant->bundle.clear();
        builds.push_back(std::move(*variant));
        runs.push_back(std::move(*run));
      }
    }
    llvm::StringMap<llvm::StringSet<>> covered;
    for (size_t v = 0; v < builds.size(); ++v)
      for (size_t i = 0; i < builds[v].steps.size(); ++i)
        if (!builds[v].steps[i].signature.empty() && i < runs[v].sources.size())
          for (StringRef node : nodesOf(runs[v].sources[i]))
            covered[builds[v].steps[i].signature].insert(node);
    // signature -> tiling -> least time.
    llvm::StringMap<std::map<std::string, double>> best;
    llvm::StringMap<std::pair<std::string, double>> model;
    for (size_t v = 0; v < builds.size(); ++v) {
      SignatureTimes times = attribute(builds[v], runs[v], covered, signatures);
      for (const auto &entry : times.milliseconds) {
        const std::string &tiling = times.tilings[entry.first()];
        auto [it, inserted] =
            best[entry.first()].try_emplace(tiling, entry.second);
        if (!inserted)
          it->second = std::min(it->second, entry.second);
        if (v == 0)
          model[entry.first()] = {tiling, entry.second};
      }
    }
    std::vector<CacheEntry> added;
    for (const std::string &signature : missing) {
      const std::map<std::string, double> &measured = best[signature];
      if (measured.empty())
        continue;
      // The model's tiling unless another is strictly faster.
      auto known = model.find(signature);
      std::pair<std::string, double> chosen =
          known != model.end()
              ? known->second
              : std::make_pair(std::string("-"),
                               std::numeric_limits<double>::infinity());
      std::pair<std::string, double> fastest = chosen;
      for (const auto &[tiling, milliseconds] : measured)
        if (milliseconds < fastest.second)
          fastest = {tiling, milliseconds};
      added.push_back({key, signature, fastest.first, fastest.second});
      log << "aicc: autotune: " << signature << ": " << fastest.first << " "
          << llvm::format("%.4f", fastest.second) << " ms (model "
          << chosen.first << " " << llvm::format("%.4f", chosen.second)
          << " ms; " << measured.size() << " tilings:";
      for (const auto &[tiling, milliseconds] : measured)
        log << " " << tiling << " " << llvm::format("%.4f", milliseconds);
      log << ")\n";
    }
    if (llvm::Error error = cache.save(added, log))
      return std::move(error);
  }

  std::vector<std::string> choices;
  for (const std::string &signature : signatures)
    if (const CacheEntry *entry = cache.find(key, signature))
      choices.push_back(signature + "=" + entry->tiling);
  return choices;
}
