//===- Compiler.h - ONNX model to model.bin ---------------------*- C++ -*-===//
//
// The whole compile as one library call, so that the aicc tool, the Python
// package and tests drive the same code: import, the target's pipeline,
// its code objects and launch plan, and the bundle writer. The driver
// knows no target by name: everything target-specific comes through the
// Target interface (aicc/Target/Target.h).
//
//===----------------------------------------------------------------------===//

#ifndef AICC_COMPILER_COMPILER_H
#define AICC_COMPILER_COMPILER_H

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace aicc {

class Target;
class TargetOptions;

enum class ProgressMode {
  Auto,   ///< stage lines once a compile has run for a second
  Always, ///< a line per stage
  Never,
};

/// The options every compile has; the target's own are its TargetOptions.
struct CompileOptions {
  std::string inputPath;
  /// The model's bytes when they are not the file's (a quantized model);
  /// inputPath then only names it and locates its external data.
  std::string modelBytes;
  /// The bundle, or the IR or text of the other stages ("-" is stdout;
  /// not allowed for bundles).
  std::string outputPath = "model.bin";
  /// Where the compile stops: "bundle" (model.bin), "tile" (the imported
  /// IR), or one of the target's stages (Target::getEmitStages).
  std::string emit = "bundle";
  /// NAME=DxD... pins of graph input shapes.
  llvm::SmallVector<std::string> inputShapes;
  bool timings = false;
  ProgressMode progress = ProgressMode::Auto;
};

/// Compiles for `target` with `targetOptions` (from Target::parseOptions;
/// their `emit` is set from `options.emit`). Diagnostics, progress and
/// timings go to `log`. Returns true on success; on failure nothing is
/// left at `outputPath`.
bool compile(const CompileOptions &options, const Target &target,
             TargetOptions &targetOptions, llvm::raw_ostream &log);

/// "tile, linalg, gpu, isa, bundle": the stages --emit takes for `target`,
/// in pipeline order.
std::string emitChoices(const Target &target);

/// aicc's version, "MAJOR.MINOR.PATCH".
const char *compilerVersion();

} // namespace aicc

#endif // AICC_COMPILER_COMPILER_H
