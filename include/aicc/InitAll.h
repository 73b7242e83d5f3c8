//===- InitAll.h - Register aicc's dialects and passes ----------*- C++ -*-===//
//
// What every aicc tool registers: our dialects and passes, plus the upstream
// dialects and passes that our pipelines produce and that lit tests use.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_INITALL_H
#define AICC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace aicc {

/// Adds every dialect aicc's pipelines create or consume to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers aicc's passes, the upstream ones its pipelines use and every
/// target's passes and pipeline (registerAllTargets), so that `aicc-opt`
/// can run any of them by flag. Safe to call more than once.
void registerAllPasses();

/// Adds every target of this build to the TargetRegistry (each folder of
/// lib/Target that calls CMake's aicc_register_target), and registers each
/// one's `aicc-<name>-pipeline` for aicc-opt. Safe to call more than once.
void registerAllTargets();

} // namespace aicc

#endif // AICC_INITALL_H
