//===- LowerCopies.cpp - Strided copies as loops --------------------------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPULOWERCOPIESPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {
bool isContiguous(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getLayout().isIdentity();
}

struct CPULowerCopiesPass
    : aicc::cpu::impl::CPULowerCopiesPassBase<CPULowerCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (!isContiguous(copy.getSource()) || !isContiguous(copy.getTarget()))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
  }
};
} // namespace
