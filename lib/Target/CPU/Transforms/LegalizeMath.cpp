//===- LegalizeMath.cpp - Math functions as vectorizable arithmetic -------===//
//
// libm calls stop the vectorizer and tie a code object to a C library; the
// polynomial approximations upstream provides are accurate to a few ulp in
// f32 and vectorize. Functions without an approximation are first expanded
// into ones that have one where upstream knows how.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPULEGALIZEMATHPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {
/// Math functions with a polynomial approximation in f32.
const llvm::StringSet<> &approximated() {
  static const llvm::StringSet<> names = {
      "acos", "asin",  "atan", "atan2", "cbrt", "cos", "erf", "erfc",
      "exp",  "expm1", "log",  "log1p", "log2", "sin", "tanh"};
  return names;
}

/// Functions expanded into approximated ones. powf stays a library call:
/// its expansion through exp and log loses accuracy for large exponents.
constexpr StringRef kExpanded[] = {"acosh", "asinh", "atanh", "cosh",
                                   "sinh",  "tan",   "fpowi"};

struct CPULegalizeMathPass
    : aicc::cpu::impl::CPULegalizeMathPassBase<CPULegalizeMathPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto isApproximated = [](StringRef name) {
      name.consume_front("math.");
      return approximated().contains(name);
    };
    {
      RewritePatternSet patterns(context);
      math::populateExpansionPatterns(patterns, kExpanded);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    RewritePatternSet patterns(context);
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
