//===- Compiler.h - ONNX model to model.bin ---------------------*- C++ -*-===//
//
// The whole compile as one library call, so that the aicc tool, the Python
// package and tests drive the same code: import, the target's pipeline,
// code generation and the bundle writer.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_COMPILER_COMPILER_H
#define AICC_COMPILER_COMPILER_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace aicc {

/// Where a compile stops and what it writes.
enum class EmitKind {
  Bundle, ///< model.bin
  Tile,   ///< the imported tile IR
  Linalg, ///< linalg on tensors, before bufferization
  LLVM,   ///< optimized LLVM IR of the host code
  GPU,    ///< GPU targets: kernels and launches, before device lowering
  ISA,    ///< GPU targets: PTX or AMDGPU assembly of the first architecture
};

enum class ProgressMode {
  Auto,   ///< stage lines once a compile has run for a second
  Always, ///< a line per stage
  Never,
};

struct CompileOptions {
  std::string inputPath;
  /// The bundle, or the IR for the other emit kinds ("-" is stdout; not
  /// allowed for bundles).
  std::string outputPath = "model.bin";
  std::string target = "cpu";
  /// LLVM CPU name or "native"; the default is the AVX2 baseline.
  std::string cpu = "x86-64-v3";
  std::string cpuFeatures;
  /// GPU targets: how an f32 model's tensors are stored: fp32, fp16, bf16.
  std::string precision = "fp32";
  /// cuda, fp32: f32 contractions on the tensor cores in tf32.
  bool allowTF32 = false;
  /// cuda, sm_90a: wgmma kernels read their operands through TMA tensor
  /// maps where they can (else by cp.async).
  bool tma = true;
  /// GPU targets: the fusion groups decided on tile IR (tile-fuse) above
  /// -O0, which the kernel passes keep to; off, each decides alone.
  bool tileFuse = true;
  /// GPU targets: independent element-wise ops of one iteration space
  /// merged into one kernel (aicc-fuse-siblings) above -O0.
  bool fuseSiblings = true;
  /// cuda: BMxBNxBK[xSTAGES], the tiling of every tensor-core contraction
  /// (for experiments and tuning); empty: chosen per contraction.
  std::string mmaTile;
  /// cuda: time the tensor-core contractions' candidate tilings on this
  /// machine's GPU and compile with the fastest, kept in `tileCache`
  /// (empty: the default cache file) for later compiles.
  bool autotune = false;
  std::string tileCache;
  /// Convolutions on channels-last images (tile-channels-last); unset: the
  /// target's default (on for cuda above -O0, off elsewhere).
  std::optional<bool> channelsLast;
  /// GPU architectures, oldest first; empty means the target's default.
  std::vector<std::string> gpuArchs;
  unsigned optLevel = 2;
  EmitKind emit = EmitKind::Bundle;
  /// NAME=DxD... pins of graph input shapes.
  llvm::SmallVector<std::string> inputShapes;
  bool timings = false;
  /// Keep symbols in CPU code objects (for perf and gdb).
  bool keepSymbols = false;
  ProgressMode progress = ProgressMode::Auto;
};

/// Runs the compile. Diagnostics, progress and timings go to `log`. Returns
/// true on success; on failure nothing is left at `outputPath`.
bool compile(const CompileOptions &options, llvm::raw_ostream &log);

/// aicc's version, "MAJOR.MINOR.PATCH".
const char *compilerVersion();

} // namespace aicc

#endif // AICC_COMPILER_COMPILER_H
