//===- EntryPoint.cpp - The symbol the runtime calls ----------------------===//
//
// A CPU code object exports exactly one function with a fixed C signature,
// void aicc_entry(void *const *buffers, aicc_cpu_exec *exec), so that the
// runtime needs no knowledge of a model's argument list beyond the bundle's
// launch plan. Everything else becomes internal: the optimizer may inline it
// and nothing leaks into the loader's symbol namespace.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPUENTRYPOINTPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {
constexpr StringLiteral kEntrySymbol = "aicc_entry";

struct CPUEntryPointPass
    : aicc::cpu::impl::CPUEntryPointPassBase<CPUEntryPointPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
    if (!callee || callee.isExternal()) {
      module.emitError("no LLVM function '") << entry << "' to call";
      return signalPassFailure();
    }
    if (module.lookupSymbol(kEntrySymbol)) {
      module.emitError("the module already defines '") << kEntrySymbol << "'";
      return signalPassFailure();
    }
    LLVM::LLVMFunctionType calleeType = callee.getFunctionType();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    if (calleeType.getNumParams() == 0 ||
        !llvm::all_of(calleeType.getParams(),
                      [&](Type t) { return t == ptrType; }) ||
        !isa<LLVM::LLVMVoidType>(calleeType.getReturnType())) {
      callee.emitError("must take only pointers (buffers, then the execution "
                       "record) and return nothing");
      return signalPassFailure();
    }

    // Everything but the entry point is internal to the object.
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (!func.isExternal())
        func.setLinkage(LLVM::Linkage::Internal);
    for (auto global : module.getOps<LLVM::GlobalOp>())
      if (global.getLinkage() == LLVM::Linkage::External &&
          (global.getValueOrNull() || global.getInitializerBlock()))
        global.setLinkage(LLVM::Linkage::Internal);

    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    Location loc = callee.getLoc();
    auto entryType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(context), {ptrType, ptrType});
    auto entryFunc =
        LLVM::LLVMFuncOp::create(builder, loc, kEntrySymbol, entryType);
    Block *block = entryFunc.addEntryBlock(builder);
    builder.setInsertionPointToStart(block);
    Value buffers = block->getArgument(0);
    SmallVector<Value> args;
    unsigned bufferCount = calleeType.getNumParams() - 1;
    for (unsigned i = 0; i < bufferCount; ++i) {
      Value slot =
          LLVM::GEPOp::create(builder, loc, ptrType, ptrType, buffers,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      args.push_back(LLVM::LoadOp::create(builder, loc, ptrType, slot));
    }
    args.push_back(block->getArgument(1));
    LLVM::CallOp::create(builder, loc, callee, args);
    LLVM::ReturnOp::create(builder, loc, ValueRange());
    entryFunc->setAttr("aicc.buffer_count",
                       builder.getI64IntegerAttr(bufferCount));
  }
};
} // namespace
