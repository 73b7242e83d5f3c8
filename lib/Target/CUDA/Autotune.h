//===- Autotune.h - Measured tilings of tensor-core products ----*- C++ -*-===//
//
// aicc --autotune: on a machine with the GPU, each contraction signature's
// candidate tilings are compiled (one whole-model variant per candidate
// index), run through the runtime's profiler, and the fastest kept in a
// persistent cache keyed by signature, device, driver and architectures.
// Private to the cuda target.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_CUDA_AUTOTUNE_H
#define AICC_LIB_TARGET_CUDA_AUTOTUNE_H

#include "../GPU/GPUTarget.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace aicc {

/// One compiled variant: the bundle's bytes and, per launch step, the
/// signature and tiling of the contraction it computes ("" for none).
struct TuningBuild {
  std::string bundle;
  std::vector<LaunchTiling> steps;
};

/// Builds the model with every contraction on its `candidate`-th candidate
/// tiling (-1: the model's). Called from several threads at once.
using TuningBuilder =
    llvm::function_ref<llvm::Expected<TuningBuild>(long candidate)>;

struct TuningOptions {
  /// The cache file; empty: defaultTileCachePath().
  std::string cachePath;
  /// The architectures the bundle is compiled for, "sm_90a": part of the
  /// key, since a tiling measured on one architecture's code says nothing
  /// of another's.
  std::string archs;
  /// Profiled runs a variant is timed over (the median per step counts),
  /// after `warmups` unprofiled ones.
  unsigned runs = 7, warmups = 2;
  /// Most variants compiled.
  long maxVariants = 16;
  /// Variants compiled at once (each in a thread of its own, with its own
  /// context).
  unsigned jobs =
      std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
};

/// $AICC_CACHE_DIR/tiles.tsv, else $XDG_CACHE_HOME/aicc/tiles.tsv, else
/// $HOME/.cache/aicc/tiles.tsv.
std::string defaultTileCachePath();

/// The SIGNATURE=TILING choices for every contraction of the model on
/// this machine's GPU: from the cache where it has them, else measured
/// (and then added to it). Fails when there is no GPU to run on.
llvm::Expected<std::vector<std::string>> autotune(const TuningOptions &options,
                                                  TuningBuilder build,
                                                  llvm::raw_ostream &log);

} // namespace aicc

#endif // AICC_LIB_TARGET_CUDA_AUTOTUNE_H
