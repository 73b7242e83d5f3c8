//===- Target.h - The interface every target implements ---------*- C++ -*-===//
//
// A target (cpu, cuda, rocm, ...) is a plug-in: it registers itself by
// name with the TargetRegistry and gives the driver everything the driver
// does not know about it: its options and their validation, its pass
// pipeline up to each `--emit` stage, the limits tile selection chooses
// by, its code objects and its part of the bundle's launch plan. The
// driver (lib/Compiler) knows no target by name; docs/adding-a-target.md
// walks through a new one.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_TARGET_TARGET_H
#define AICC_TARGET_TARGET_H

#include "aicc/bundle_format.h"

#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class MLIRContext;
class ModuleOp;
class OpPassManager;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace aicc {

namespace bundle {
struct Bundle;
} // namespace bundle

struct ModelInterface;

/// The options every target has. A target's own options derive from this
/// and from `mlir::PassPipelineOptions<Self>`: each is a typed `key=value`
/// option, so the same struct is what `aicc --KEY=VALUE` sets, what
/// `aicc-opt --aicc-<target>-pipeline="KEY=VALUE ..."` parses, and what the
/// target's pipeline reads.
class TargetOptions : public virtual mlir::detail::PassOptions {
public:
  virtual ~TargetOptions() = default;

  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("Optimization level, 0 to 3"),
                            llvm::cl::init(2)};
  Option<bool> integerQuant{
      *this, "integer-quant",
      llvm::cl::desc("Run convolutions and matrix products of dequantized "
                     "8-bit operands on the stored integers (tile-fold-qdq) "
                     "instead of in float on the dequantized values "
                     "(default: where the target's integer kernels are the "
                     "faster, the cpu with VNNI)"),
      llvm::cl::init(false)};
  Option<std::string> emit{
      *this, "emit",
      llvm::cl::desc("The IR stage the pipeline stops after (one of the "
                     "target's stages; empty: the whole pipeline)"),
      llvm::cl::init("")};
};

/// A stage `aicc --emit=NAME` may stop at, besides the driver's own
/// (`tile`: the imported IR; `bundle`: model.bin).
struct EmitStage {
  llvm::StringRef name;
  llvm::StringRef help;
  /// True where the pipeline stops and the IR is printed (what
  /// `aicc-opt --aicc-<target>-pipeline="emit=NAME"` reproduces); false
  /// for text the target makes after its pipeline (assembly, LLVM IR).
  bool ir;
};

/// What tile selection chooses tilings by: the parallel units, their lanes
/// and threads, their fast local memory and registers. Zero where a field
/// does not apply or is not known when compiling (a CPU's cores).
struct TargetLimits {
  /// Multiprocessors (NVIDIA SMs, AMD compute units), cores, arrays.
  int64_t computeUnits = 0;
  /// Lanes that run in lockstep: a warp or wave, or a vector register's
  /// 32-bit lanes.
  int64_t lanes = 0;
  int64_t maxThreadsPerGroup = 0;
  int64_t maxThreadsPerUnit = 0;
  /// Memory a group (block) may share, and a unit's: shared memory, LDS,
  /// scratchpads.
  int64_t localMemoryPerGroup = 0;
  int64_t localMemoryPerUnit = 0;
  int64_t registersPerUnit = 0;
  int64_t maxRegistersPerThread = 0;
};

/// What the driver offers a target while it compiles.
class CompileSession {
public:
  virtual ~CompileSession();
  /// Starts a named stage of the compile (progress lines, --timings).
  virtual void beginStage(llvm::StringRef name) = 0;
  /// Where errors the target reports outside MLIR's diagnostics go.
  virtual llvm::raw_ostream &log() = 0;
  /// The model imported again into `context`, as the compile imported it
  /// (for targets that compile variants of the model side by side); null
  /// after a diagnostic in `context`.
  virtual mlir::OwningOpRef<mlir::ModuleOp>
  reload(mlir::MLIRContext &context) const = 0;
};

/// A compilation target. Implementations are stateless and shared.
class Target {
public:
  virtual ~Target();

  /// The name `--target=` takes ("cuda").
  virtual llvm::StringRef getName() const = 0;
  /// One line for `aicc --list-targets`.
  virtual llvm::StringRef getDescription() const = 0;
  /// The target of its code objects and launch steps in the bundle.
  virtual aicc_target getBundleTarget() const = 0;
  /// The stages `--emit` may name, in pipeline order.
  virtual llvm::ArrayRef<EmitStage> getEmitStages() const = 0;

  /// An option struct with the target's defaults.
  virtual std::unique_ptr<TargetOptions> createOptions() const = 0;
  /// Checks `options`: those every target has, then verifyOptions. The
  /// driver and the registered pipelines call it before anything else.
  llvm::Error verify(const TargetOptions &options) const;
  /// Checks the target's own options, one against another (an unknown CPU
  /// or GPU architecture, options that exclude each other); the error
  /// names the option and says why.
  virtual llvm::Error verifyOptions(const TargetOptions &options) const = 0;

  /// The limits its tilings are chosen by under `options`.
  virtual llvm::Expected<TargetLimits>
  getLimits(const TargetOptions &options) const = 0;

  /// The passes from imported tile IR to `options.emit` (an IR stage of
  /// getEmitStages()), or to the pipeline's end when it is empty.
  virtual void buildPipeline(mlir::OpPassManager &pm,
                             const TargetOptions &options) const = 0;

  /// Compiles `module` (imported tile IR whose interface is `interface`):
  /// the whole pipeline, then the code objects and the launch plan into
  /// `result`. With `text`, stops instead at `options.emit`, a stage of
  /// getEmitStages() that is not an IR stage, and writes it there.
  virtual mlir::LogicalResult
  emit(mlir::ModuleOp module, const TargetOptions &options,
       const ModelInterface &interface, CompileSession &session,
       bundle::Bundle &result, llvm::raw_ostream *text) const = 0;

  /// Adds the target's own dialects and interfaces to `registry`, and
  /// registers its passes with the pass registry (for aicc-opt). Either
  /// may be called more than once.
  virtual void registerDialects(mlir::DialectRegistry &registry) const {}
  virtual void registerPasses() const {}

  /// The stage `name` of getEmitStages(), or null.
  const EmitStage *findEmitStage(llvm::StringRef name) const;
  /// A new option struct parsed from `args` ("key=value", or "key" alone
  /// for a true flag), on top of the defaults.
  llvm::Expected<std::unique_ptr<TargetOptions>>
  parseOptions(llvm::ArrayRef<std::string> args) const;
};

/// The targets this build has, by name.
class TargetRegistry {
public:
  /// Adds `target`; its name must be new.
  static void add(std::unique_ptr<Target> target);
  /// The target called `name`, or null.
  static const Target *lookup(llvm::StringRef name);
  /// Every target, in the order they were added.
  static std::vector<const Target *> all();
  /// "cpu, cuda, rocm".
  static std::string names();
};

} // namespace aicc

#endif // AICC_TARGET_TARGET_H
