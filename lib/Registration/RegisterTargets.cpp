//===- RegisterTargets.cpp - The targets of this build --------------------===//
//
// Targets.inc lists the registration function of every target folder of
// lib/Target (CMake's aicc_register_target), so that a new target adds its
// folder and one add_subdirectory line, nothing else
// (docs/adding-a-target.md).
//
//===----------------------------------------------------------------------===//

#include "aicc/InitAll.h"
#include "aicc/Target/Target.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace aicc {
#define AICC_TARGET(function) void function();
#include "Targets.inc"
#undef AICC_TARGET
} // namespace aicc

namespace {
void registerTargets() {
#define AICC_TARGET(function) aicc::function();
#include "Targets.inc"
#undef AICC_TARGET
}

/// `aicc-<name>-pipeline`, whose options are the target's own: what
/// `aicc --target=<name>` runs, for aicc-opt.
void registerPipeline(const aicc::Target *target) {
  std::string name = "aicc-" + target->getName().str() + "-pipeline";
  std::string description = "Compile tile IR for the " +
                            target->getName().str() + " target (" +
                            target->getDescription().str() + ")";
  registerPassPipeline(
      name, description,
      [target](OpPassManager &pm, StringRef text,
               function_ref<LogicalResult(const Twine &)> errorHandler) {
        std::unique_ptr<aicc::TargetOptions> options = target->createOptions();
        if (failed(options->parseFromString(text)))
          return failure();
        if (llvm::Error error = target->verify(*options))
          return errorHandler(llvm::toString(std::move(error)));
        const aicc::EmitStage *stage = target->findEmitStage(options->emit);
        if (!options->emit.empty() && (!stage || !stage->ir))
          return errorHandler("the " + target->getName() +
                              " pipeline has no IR stage '" + options->emit +
                              "'");
        target->buildPipeline(pm, *options);
        return success();
      },
      [target](function_ref<void(const detail::PassOptions &)> handler) {
        handler(*target->createOptions());
      });
}
} // namespace

void aicc::registerAllTargets() {
  static const bool once = [] {
    registerTargets();
    for (const Target *target : TargetRegistry::all())
      registerPipeline(target);
    return true;
  }();
  (void)once;
}
