//===- FuzzContext.h - An MLIR context for the fuzz targets -----*- C++ -*-===//

#ifndef AICC_TEST_FUZZ_FUZZCONTEXT_H
#define AICC_TEST_FUZZ_FUZZCONTEXT_H

#include "aicc/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>

namespace aicc::fuzz {

/// A fresh context per input (so that no input's attributes and types pile
/// up in a long run), single-threaded, every dialect registered, its
/// diagnostics swallowed: an error is an expected outcome, a crash is not.
inline std::unique_ptr<mlir::MLIRContext> makeContext() {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    aicc::registerAllDialects(*r);
    aicc::registerAllPasses();
    return r;
  }();
  auto context = std::make_unique<mlir::MLIRContext>(
      *registry, mlir::MLIRContext::Threading::DISABLED);
  context->getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  return context;
}

} // namespace aicc::fuzz

#endif // AICC_TEST_FUZZ_FUZZCONTEXT_H
