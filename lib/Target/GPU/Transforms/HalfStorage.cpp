//===- HalfStorage.cpp - f32 models stored in f16 or bf16 -----------------===//

#include "Utils.h"
#include "aicc/Support/StoredBytes.h"
#include "aicc/Target/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUHALFSTORAGEPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {
bool isF32Tensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isF32();
}

/// Ops that only reinterpret or select part of their source: a half source
/// gives a half result.
bool passesThrough(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             tensor::ExtractSliceOp, tensor::CastOp>(op);
}

/// An f32 element-wise op whose results can be stored in the half type:
/// no reduction loop, f32 tensor results, outputs only written.
bool isCandidate(linalg::GenericOp op) {
  if (op.getNumReductionLoops() != 0 || op->getNumResults() == 0)
    return false;
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!isF32Tensor(init.get().getType()) ||
        !op.getMatchingBlockArgument(&init).use_empty())
      return false;
  return true;
}

/// The op that computed `value`, looking through reshapes and slices.
Operation *producer(Value value) {
  Operation *def = value.getDefiningOp();
  while (def && passesThrough(def))
    def = def->getOperand(0).getDefiningOp();
  return def;
}

/// `value` (a tensor) with every element extended or truncated to
/// `element`, by an element-wise generic.
Value convertElements(OpBuilder &b, Location loc, Value value, Type element,
                      bool extend) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  Value init = tensor::EmptyOp::create(b, loc, sizes, element);
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), value, init, {identity, identity}, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value converted =
            extend
                ? arith::ExtFOp::create(nb, l, element, args[0]).getResult()
                : arith::TruncFOp::create(nb, l, element, args[0]).getResult();
        linalg::YieldOp::create(nb, l, converted);
      });
  return generic.getResult(0);
}

/// The f32 data of a weight attribute as `half` data, or null.
ElementsAttr toHalf(ElementsAttr value, FloatType half) {
  auto type = cast<RankedTensorType>(value.getType());
  if (auto dense = dyn_cast<DenseElementsAttr>(value);
      dense && dense.isSplat()) {
    APFloat one = dense.getSplatValue<APFloat>();
    bool lost;
    one.convert(half.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return DenseElementsAttr::get(type.clone(half), one);
  }
  std::optional<ArrayRef<char>> stored = aicc::storedBytes(value);
  if (!stored)
    return nullptr;
  ArrayRef<char> raw = *stored;
  int64_t count = type.getNumElements();
  if (static_cast<int64_t>(raw.size()) != count * 4)
    return nullptr;
  std::vector<uint16_t> bits(count);
  for (int64_t i = 0; i < count; ++i) {
    float f;
    std::memcpy(&f, raw.data() + 4 * i, 4);
    APFloat x(f);
    bool lost;
    x.convert(half.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    bits[i] = static_cast<uint16_t>(x.bitcastToAPInt().getZExtValue());
  }
  return DenseElementsAttr::getFromRawBuffer(
      type.clone(half),
      ArrayRef<char>(reinterpret_cast<const char *>(bits.data()),
                     bits.size() * 2));
}

/// Whether `value` is only read as an input of contractions (generics
/// with reductions), maybe through reshapes and slices, or inserted into a
/// filled tensor (a filter padded with zero channels): a filter or a
/// matrix small enough that the importer kept it a constant.
bool onlyContractionInput(Value value) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    auto insert = dyn_cast<tensor::InsertSliceOp>(user);
    auto fill = insert ? insert.getDest().getDefiningOp<linalg::GenericOp>()
                       : linalg::GenericOp();
    bool intoFill =
        fill && use.getOperandNumber() == 0 && aicc::gpu::fillValue(fill);
    if ((passesThrough(user) && use.getOperandNumber() == 0) || intoFill) {
      if (!onlyContractionInput(user->getResult(0)))
        return false;
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || !generic.isDpsInput(&use) ||
        generic.getNumReductionLoops() == 0)
      return false;
  }
  return true;
}

struct GPUHalfStoragePass
    : aicc::gpu::impl::GPUHalfStoragePassBase<GPUHalfStoragePass> {
  using Base::Base;

  FloatType half;
  MLIRContext *context() { return &getContext(); }

  /// `value` has just become half; its users read it as such from now on.
  void retypeUses(Value value) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : value.getUses())
      uses.push_back(&use);
    for (OpOperand *use : uses) {
      Operation *user = use->getOwner();
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (generic && generic.isDpsInput(use)) {
        BlockArgument arg = generic.getMatchingBlockArgument(use);
        if (!arg.getType().isF32())
          continue; // already half: another use of the same value
        arg.setType(half);
        OpBuilder b = OpBuilder::atBlockBegin(arg.getOwner());
        auto extended =
            arith::ExtFOp::create(b, generic.getLoc(), b.getF32Type(), arg);
        arg.replaceAllUsesExcept(extended, extended);
        continue;
      }
      if (passesThrough(user) && use->getOperandNumber() == 0) {
        Value result = user->getResult(0);
        result.setType(cast<RankedTensorType>(result.getType()).clone(half));
        retypeUses(result);
        continue;
      }
      if (auto pad = dyn_cast<tensor::PadOp>(user);
          pad && use->getOperandNumber() == 0) {
        // A padded copy (a convolution's or a pooling's input) is half too,
        // its padding value rounded to it.
        Operation *yield = pad.getBody()->getTerminator();
        OpBuilder b(yield);
        yield->setOperand(0, arith::TruncFOp::create(b, yield->getLoc(), half,
                                                     yield->getOperand(0)));
        pad.getResult().setType(pad.getResultType().clone(half));
        retypeUses(pad.getResult());
        continue;
      }
      if (auto insert = dyn_cast<tensor::InsertSliceOp>(user);
          insert && use->getOperandNumber() == 0) {
        // Into a filled tensor (a padded copy, as convolutions and pooling
        // get their inputs): a half fill of it, the value inserted as it is.
        auto fill = insert.getDest().getDefiningOp<linalg::GenericOp>();
        Value scalar = fill ? aicc::gpu::fillValue(fill) : Value();
        if (scalar && scalar.getType().isF32()) {
          OpBuilder b(insert);
          Location loc = fill.getLoc();
          scalar = aicc::gpu::fillValueAt(b, fill);
          SmallVector<OpFoldResult> sizes =
              tensor::getMixedSizes(b, loc, insert.getDest());
          Value init = tensor::EmptyOp::create(b, loc, sizes, half);
          Value rounded = arith::TruncFOp::create(b, loc, half, scalar);
          Value filled =
              linalg::FillOp::create(b, loc, rounded, init).getResult(0);
          insert.getDestMutable().set(filled);
          insert.getResult().setType(
              cast<RankedTensorType>(insert.getResult().getType()).clone(half));
          retypeUses(insert.getResult());
          continue;
        }
      }
      if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        // A gather's element read: read it half, extend it.
        extract.getResult().setType(half);
        OpBuilder b(context());
        b.setInsertionPointAfter(extract);
        auto extended = arith::ExtFOp::create(
            b, extract.getLoc(), b.getF32Type(), extract.getResult());
        extract.getResult().replaceAllUsesExcept(extended, extended);
        continue;
      }
      // Anything else reads f32, converted once before the op of the
      // function's body that holds the use (never inside a loop body).
      Operation *anchor = user;
      while (anchor->getBlock() != value.getParentBlock() &&
             anchor->getParentOp() && !isa<func::FuncOp>(anchor->getParentOp()))
        anchor = anchor->getParentOp();
      OpBuilder b(anchor);
      use->set(convertElements(b, user->getLoc(), value, b.getF32Type(),
                               /*extend=*/true));
    }
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    MLIRContext *context = &getContext();
    if (halfType == "bf16")
      half = BFloat16Type::get(context);
    else if (halfType == "f16")
      half = Float16Type::get(context);
    else {
      func.emitError("unknown half type '") << halfType << "'";
      return signalPassFailure();
    }
    Block &body = func.getBody().front();

    // Which element-wise ops store half: not those that read a reduction's
    // result (softmax and normalization steps), nor those whose result
    // becomes the output buffer of an op that stays f32.
    llvm::SetVector<Operation *> chosen;
    for (Operation &op : body) {
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic || !isCandidate(generic))
        continue;
      // A reduction's result read by broadcasting it (the max and sum of
      // a softmax, the mean and variance of a normalization) is a
      // statistic: what is computed from it stays f32.
      bool readsStatistic =
          llvm::any_of(generic.getDpsInputOperands(), [&](OpOperand *input) {
            auto def =
                dyn_cast_or_null<linalg::GenericOp>(producer(input->get()));
            return def && def.getNumReductionLoops() != 0 &&
                   !generic.getMatchingIndexingMap(input).isPermutation();
          });
      if (!readsStatistic)
        chosen.insert(generic);
    }
    bool changed = true;
    while (changed) {
      changed = false;
      for (Operation *op : llvm::to_vector(chosen)) {
        bool initOfOther = llvm::any_of(op->getUsers(), [&](Operation *user) {
          auto dps = dyn_cast<DestinationStyleOpInterface>(user);
          return dps && !chosen.contains(user) &&
                 llvm::any_of(dps.getDpsInits(),
                              [&](Value init) { return producer(init) == op; });
        });
        if (initOfOther) {
          chosen.remove(op);
          changed = true;
        }
      }
    }

    // Weights, converted at compile time.
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto name = func.getArgAttrOfType<StringAttr>(i, "aicc.weight");
      auto value = func.getArgAttrOfType<ElementsAttr>(i, "aicc.weight_value");
      if (!name || !value || !isF32Tensor(value.getType()))
        continue;
      ElementsAttr converted = toHalf(value, half);
      if (!converted)
        continue;
      func.setArgAttr(i, "aicc.weight_value", converted);
      BlockArgument arg = func.getArgument(i);
      arg.setType(converted.getType());
      retypeUses(arg);
    }
    func.setType(FunctionType::get(context, body.getArgumentTypes(),
                                   func.getResultTypes()));
    // Constants that are weights too (contraction inputs the importer kept
    // as constants for their size), likewise.
    for (Operation &op : llvm::make_early_inc_range(body)) {
      auto constant = dyn_cast<arith::ConstantOp>(op);
      if (!constant || !isF32Tensor(constant.getType()) ||
          constant->use_empty() || !onlyContractionInput(constant))
        continue;
      auto value = dyn_cast<ElementsAttr>(constant.getValue());
      ElementsAttr converted = value ? toHalf(value, half) : nullptr;
      if (!converted)
        continue;
      OpBuilder b(constant);
      auto halved = arith::ConstantOp::create(b, constant.getLoc(),
                                              cast<TypedAttr>(converted));
      constant.replaceAllUsesWith(halved.getResult());
      constant.erase();
      retypeUses(halved.getResult());
    }

    // Element-wise results.
    for (Operation *op : chosen) {
      auto generic = cast<linalg::GenericOp>(op);
      OpBuilder b(generic);
      for (OpOperand &init : generic.getDpsInitsMutable()) {
        SmallVector<OpFoldResult> sizes =
            tensor::getMixedSizes(b, generic.getLoc(), init.get());
        init.set(tensor::EmptyOp::create(b, generic.getLoc(), sizes, half));
        generic.getMatchingBlockArgument(&init).setType(half);
      }
      Operation *yield = generic.getBody()->getTerminator();
      OpBuilder yb(yield);
      for (OpOperand &operand : yield->getOpOperands())
        operand.set(
            arith::TruncFOp::create(yb, yield->getLoc(), half, operand.get()));
      for (Value result : generic->getResults()) {
        result.setType(cast<RankedTensorType>(result.getType()).clone(half));
        retypeUses(result);
      }
    }
  }
};
} // namespace
