//===- ReadOnlyArguments.cpp - Arguments are never written
//------------------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPUREADONLYARGUMENTSPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {
struct CPUReadOnlyArgumentsPass
    : aicc::cpu::impl::CPUReadOnlyArgumentsPassBase<CPUReadOnlyArgumentsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func.isPrivate())
      return;
    BoolAttr no = BoolAttr::get(&getContext(), false);
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (isa<TensorType>(func.getArgument(i).getType()))
        func.setArgAttr(i, "bufferization.writable", no);
  }
};
} // namespace
