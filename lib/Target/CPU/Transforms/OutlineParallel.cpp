//===- OutlineParallel.cpp - scf.forall on the runtime's thread pool ------===//
//
// The compiled code owns no threads: the runtime lends its pool through the
// execution record. An outermost scf.forall becomes a task function over a
// range of linearized iterations plus one call of the record's parallel_for.
// Captured values cross into the task through a stack struct; memrefs cross
// as their LLVM descriptors, bridged by casts the LLVM conversions fold.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPUOUTLINEPARALLELPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {

/// Outlines `forall` of `func`, whose execution record is `exec`.
LogicalResult outlineForall(scf::ForallOp forall, func::FuncOp func, Value exec,
                            unsigned number,
                            const LLVMTypeConverter &converter) {
  MLIRContext *context = forall.getContext();
  Location loc = forall.getLoc();
  if (!forall.getOutputs().empty())
    return forall.emitOpError("has shared outputs; bufferize first");

  // Trip counts and the values the body needs, computed before the loop.
  OpBuilder builder(forall);
  Type indexType = builder.getIndexType();
  SmallVector<Value> lowerBounds = forall.getLowerBound(builder);
  SmallVector<Value> steps = forall.getStep(builder);
  SmallVector<Value> upperBounds = forall.getUpperBound(builder);
  SmallVector<Value> tripCounts;
  Value total = arith::ConstantIndexOp::create(builder, loc, 1);
  for (auto [lb, ub, step] : llvm::zip(lowerBounds, upperBounds, steps)) {
    // Folded where the bounds are static, so the task sees constants.
    Value span = builder.createOrFold<arith::SubIOp>(loc, ub, lb);
    Value count = builder.createOrFold<arith::CeilDivSIOp>(loc, span, step);
    tripCounts.push_back(count);
    total = builder.createOrFold<arith::MulIOp>(loc, total, count);
  }

  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(forall.getRegion(), used);
  for (Value v : llvm::concat<Value>(lowerBounds, steps, tripCounts))
    used.insert(v);
  // Constants are rematerialized in the task, where the optimizer sees them;
  // everything else travels in the struct.
  SmallVector<Value> constants, captured;
  for (Value v : used) {
    Operation *def = v.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>() &&
        def->getNumResults() == 1)
      constants.push_back(v);
    else
      captured.push_back(v);
  }

  SmallVector<Type> fieldTypes;
  for (Value v : captured) {
    Type converted = converter.convertType(v.getType());
    if (!converted)
      return forall.emitOpError("captures a value of type ")
             << v.getType() << " that cannot cross into a task";
    fieldTypes.push_back(converted);
  }
  auto structType = LLVM::LLVMStructType::getLiteral(context, fieldTypes);
  auto ptrType = LLVM::LLVMPointerType::get(context);
  Type i64 = builder.getI64Type();

  // The task: (ctx, begin, end) -> ().
  auto module = func->getParentOfType<ModuleOp>();
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
  std::string name =
      (func.getName() + "_parallel_" + std::to_string(number)).str();
  if (auto taskName = forall->getAttrOfType<StringAttr>("aicc.task_name"))
    name += "_" + taskName.getValue().str();
  auto taskType = builder.getFunctionType({ptrType, i64, i64}, {});
  auto task = func::FuncOp::create(moduleBuilder, loc, name, taskType);
  task.setPrivate();
  Block *taskBlock = task.addEntryBlock();
  OpBuilder body = OpBuilder::atBlockBegin(taskBlock);
  IRMapping mapping;
  for (Value v : constants)
    body.clone(*v.getDefiningOp(), mapping);
  Value ctx = taskBlock->getArgument(0);
  for (auto [i, v] : llvm::enumerate(captured)) {
    Value field =
        LLVM::GEPOp::create(body, loc, ptrType, structType, ctx,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    Value loaded = LLVM::LoadOp::create(body, loc, fieldTypes[i], field);
    Value original =
        UnrealizedConversionCastOp::create(body, loc, v.getType(), loaded)
            .getResult(0);
    mapping.map(v, original);
  }
  Value begin = arith::IndexCastOp::create(body, loc, indexType,
                                           taskBlock->getArgument(1));
  Value end = arith::IndexCastOp::create(body, loc, indexType,
                                         taskBlock->getArgument(2));
  Value one = arith::ConstantIndexOp::create(body, loc, 1);
  auto loop = scf::ForOp::create(body, loc, begin, end, one);
  func::ReturnOp::create(body, loc);

  OpBuilder inner = OpBuilder::atBlockBegin(loop.getBody());
  Value remaining = loop.getInductionVar();
  SmallVector<Value> ivs(forall.getRank());
  for (int64_t d = forall.getRank() - 1; d >= 0; --d) {
    Value count = mapping.lookup(tripCounts[d]);
    Value position = remaining;
    if (d > 0) {
      position = arith::RemSIOp::create(inner, loc, remaining, count);
      remaining = arith::DivSIOp::create(inner, loc, remaining, count);
    }
    Value scaled =
        arith::MulIOp::create(inner, loc, position, mapping.lookup(steps[d]));
    ivs[d] = arith::AddIOp::create(inner, loc, scaled,
                                   mapping.lookup(lowerBounds[d]));
  }
  for (auto [iv, value] : llvm::zip(forall.getInductionVars(), ivs))
    mapping.map(iv, value);
  for (Operation &op : forall.getBody()->without_terminator())
    inner.clone(op, mapping);

  // The call site: fill the struct, hand the task to the runtime.
  Block &entry = func.getBody().front();
  OpBuilder allocaBuilder = OpBuilder::atBlockBegin(&entry);
  Value oneI64 = LLVM::ConstantOp::create(allocaBuilder, loc, i64,
                                          allocaBuilder.getI64IntegerAttr(1));
  Value record =
      LLVM::AllocaOp::create(allocaBuilder, loc, ptrType, structType, oneI64);
  for (auto [i, v] : llvm::enumerate(captured)) {
    Value converted =
        UnrealizedConversionCastOp::create(builder, loc, fieldTypes[i], v)
            .getResult(0);
    Value field =
        LLVM::GEPOp::create(builder, loc, ptrType, structType, record,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(builder, loc, converted, field);
  }
  Value taskRef = func::ConstantOp::create(builder, loc, taskType,
                                           SymbolRefAttr::get(task));
  Value taskPtr =
      UnrealizedConversionCastOp::create(builder, loc, ptrType, taskRef)
          .getResult(0);
  Value parallelFor = LLVM::LoadOp::create(builder, loc, ptrType, exec);
  Value count = arith::IndexCastOp::create(builder, loc, i64, total);
  auto calleeType = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(context), {ptrType, ptrType, ptrType, i64});
  LLVM::CallOp::create(builder, loc, calleeType,
                       ValueRange{parallelFor, exec, taskPtr, record, count});
  forall.erase();
  return success();
}

struct CPUOutlineParallelPass
    : aicc::cpu::impl::CPUOutlineParallelPassBase<CPUOutlineParallelPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    LLVMTypeConverter converter(context);
    auto ptrType = LLVM::LLVMPointerType::get(context);

    SmallVector<func::FuncOp> publicFuncs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && !func.isPrivate())
        publicFuncs.push_back(func);

    for (func::FuncOp func : publicFuncs) {
      unsigned execIndex = func.getNumArguments();
      auto attrs = DictionaryAttr::get(
          context, {NamedAttribute(StringAttr::get(context, "aicc.exec"),
                                   UnitAttr::get(context))});
      if (failed(func.insertArgument(execIndex, ptrType, attrs, func.getLoc())))
        return signalPassFailure();
      Value exec = func.getArgument(execIndex);

      SmallVector<scf::ForallOp> outermost;
      func.walk<WalkOrder::PreOrder>([&](scf::ForallOp forall) {
        outermost.push_back(forall);
        return WalkResult::skip();
      });
      for (auto [i, forall] : llvm::enumerate(outermost))
        if (failed(outlineForall(forall, func, exec, i, converter)))
          return signalPassFailure();
    }

    // What is left (nested loops, loops of private functions) runs
    // sequentially.
    SmallVector<scf::ForallOp> rest;
    module.walk([&](scf::ForallOp forall) { rest.push_back(forall); });
    IRRewriter rewriter(context);
    for (scf::ForallOp forall : llvm::reverse(rest)) {
      rewriter.setInsertionPoint(forall);
      if (failed(scf::forallToForLoop(rewriter, forall)))
        return signalPassFailure();
    }
  }
};
} // namespace
