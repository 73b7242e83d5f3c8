//===- BarePointerArguments.cpp - Arguments as bare pointers --------------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPUBAREPOINTERARGUMENTSPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {
struct CPUBarePointerArgumentsPass
    : aicc::cpu::impl::CPUBarePointerArgumentsPassBase<
          CPUBarePointerArgumentsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func.isPrivate())
      return;
    Block &entry = func.getBody().front();
    SmallVector<Type> inputs(func.getArgumentTypes());
    bool changed = false;
    for (unsigned i = 0; i < inputs.size(); ++i) {
      auto type = dyn_cast<MemRefType>(inputs[i]);
      if (!type || !type.hasStaticShape() || type.getNumElements() != 0 ||
          type.getRank() == 1)
        continue;
      auto flat = MemRefType::get({0}, type.getElementType());
      BlockArgument arg = entry.getArgument(i);
      arg.setType(flat);
      OpBuilder builder = OpBuilder::atBlockBegin(&entry);
      if (!type.getLayout().isIdentity()) {
        func.emitOpError("argument ") << i << " has a non-identity layout";
        return signalPassFailure();
      }
      // Row-major strides, as the identity layout has them.
      SmallVector<int64_t> strides(type.getRank(), 1);
      for (int64_t d = type.getRank() - 2; d >= 0; --d)
        strides[d] = strides[d + 1] * type.getDimSize(d + 1);
      auto cast = memref::ReinterpretCastOp::create(
          builder, func.getLoc(), type, arg, 0, type.getShape(), strides);
      arg.replaceAllUsesExcept(cast.getResult(), cast);
      inputs[i] = flat;
      changed = true;
    }
    if (changed)
      func.setFunctionType(
          FunctionType::get(&getContext(), inputs, func.getResultTypes()));
  }
};
} // namespace
