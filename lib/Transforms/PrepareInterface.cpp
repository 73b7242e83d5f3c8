//===- PrepareInterface.cpp - Tensors at the function boundary ------------===//

#include "aicc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

namespace aicc {
#define GEN_PASS_DEF_PREPAREINTERFACEPASS
#include "aicc/Transforms/Passes.h.inc"
} // namespace aicc

using namespace mlir;

namespace {
struct PrepareInterfacePass
    : aicc::impl::PrepareInterfacePassBase<PrepareInterfacePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func.isPrivate())
      return;
    BoolAttr no = BoolAttr::get(&getContext(), false);
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (isa<TensorType>(func.getArgument(i).getType()))
        func.setArgAttr(i, "bufferization.writable", no);

    func.walk([&](func::ReturnOp ret) {
      llvm::DenseSet<Value> seen;
      OpBuilder builder(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<RankedTensorType>(value.getType());
        if (!type)
          continue;
        Operation *def = value.getDefiningOp();
        bool needsCopy = !seen.insert(value).second || !def ||
                         def->hasTrait<OpTrait::ConstantLike>() ||
                         isa<tensor::EmptyOp>(def);
        if (!needsCopy)
          continue;
        SmallVector<Value> dynamicSizes;
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (type.isDynamicDim(d))
            dynamicSizes.push_back(
                tensor::DimOp::create(builder, ret.getLoc(), value, d));
        // A new allocation, not tensor.empty: empty-tensor elimination
        // would replace an empty destination with the copy's source (a
        // linalg.copy is a subset insertion), and the copy would write the
        // result onto itself, leaving two results in one buffer.
        Value init = bufferization::AllocTensorOp::create(builder, ret.getLoc(),
                                                          type, dynamicSizes);
        Value copy = linalg::CopyOp::create(builder, ret.getLoc(), value, init)
                         .getResult(0);
        operand.set(copy);
      }
    });
  }
};
} // namespace
