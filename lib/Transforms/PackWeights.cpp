//===- PackWeights.cpp - Rearrange weights at compile time ----------------===//
//
// A copy that only rearranges a weight (the transposes and panel packings
// that convert-tile-to-linalg puts in front of matrix products) would run on
// every inference although its result never changes: it is evaluated here,
// once, and its result becomes a new weight.
//
//===----------------------------------------------------------------------===//

#include "aicc/Support/StoredBytes.h"
#include "aicc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

namespace aicc {
#define GEN_PASS_DEF_PACKWEIGHTSPASS
#include "aicc/Transforms/Passes.h.inc"
} // namespace aicc

using namespace mlir;

namespace {
constexpr StringLiteral kWeight = "aicc.weight";
constexpr StringLiteral kWeightValue = "aicc.weight_value";

/// Whether `pad` appends zeros after the end of static dimensions only
/// (the zero columns that round a matrix up to whole panels).
bool isTrailingZeroPad(tensor::PadOp pad) {
  Value padding = pad.getConstantPaddingValue();
  return pad.getSourceType().hasStaticShape() &&
         pad.getResultType().hasStaticShape() && padding &&
         (matchPattern(padding, m_AnyZeroFloat()) ||
          matchPattern(padding, m_Zero())) &&
         llvm::all_of(pad.getStaticLow(), [](int64_t p) { return p == 0; });
}

/// Where a rearrangement's input comes from: a weight argument, seen
/// through reshapes (which keep the row-major order of the data) and at
/// most one trailing zero pad.
struct WeightSource {
  BlockArgument argument;
  tensor::PadOp pad;
};

std::optional<WeightSource> weightSource(Value value, func::FuncOp func) {
  WeightSource source;
  while (Operation *op = value.getDefiningOp()) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      value = expand.getSrc();
    else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      value = collapse.getSrc();
    else if (auto pad = dyn_cast<tensor::PadOp>(op);
             pad && !source.pad && isTrailingZeroPad(pad)) {
      source.pad = pad;
      value = pad.getSource();
    } else
      return std::nullopt;
  }
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument || argument.getOwner() != &func.getBody().front() ||
      !func.getArgAttr(argument.getArgNumber(), kWeight))
    return std::nullopt;
  source.argument = argument;
  return source;
}

/// The row-major data of `from` placed at the start of each dimension of a
/// zero tensor of type `to`.
std::vector<char> padTrailing(ArrayRef<char> data, RankedTensorType from,
                              RankedTensorType to) {
  int64_t elementBytes = from.getElementTypeBitWidth() / 8;
  int64_t rank = from.getRank();
  std::vector<char> result(to.getNumElements() * elementBytes, 0);
  if (from.getNumElements() == 0)
    return result;
  int64_t row = from.getDimSize(rank - 1) * elementBytes;
  SmallVector<int64_t> index(rank, 0);
  for (int64_t r = 0, rows = from.getNumElements() / from.getDimSize(rank - 1);
       r < rows; ++r) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset = offset * to.getDimSize(d) + index[d];
    std::memcpy(result.data() + offset * elementBytes, data.data() + r * row,
                row);
    for (int64_t d = rank - 2; d >= 0; --d) {
      if (++index[d] < from.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  return result;
}

/// Whether `op` is a copy through an indexing map of its only input into a
/// fresh tensor of the iteration space's shape: out[i] = in[map(i)] (a
/// linalg.transpose, or a generic that only yields its input).
bool isRearrangement(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp, linalg::TransposeOp>(op) ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  if (!op.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
    return false;
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  if (op.getBlock()->getOperations().size() != 1 ||
      yield.getValues().front() != op.getBlock()->getArgument(0))
    return false;
  AffineMap in = op.getIndexingMapsArray()[0];
  AffineMap out = op.getIndexingMapsArray()[1];
  auto inType = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  return inType && inType.hasStaticShape() && outType.hasStaticShape() &&
         out.isIdentity() && in.isPermutation() &&
         inType.getElementType().isIntOrFloat() &&
         inType.getElementType().getIntOrFloatBitWidth() % 8 == 0;
}

/// out[i] = in[permutation(i)], element by element.
std::vector<char> permute(ArrayRef<char> data, RankedTensorType inType,
                          RankedTensorType outType, AffineMap map) {
  int64_t elementBytes = inType.getElementTypeBitWidth() / 8;
  int64_t rank = outType.getRank();
  SmallVector<int64_t> inStrides(inType.getRank(), 1);
  for (int64_t d = inType.getRank() - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inType.getDimSize(d + 1);
  // The input stride of each output (loop) dimension.
  SmallVector<int64_t> strides(rank, 0);
  for (auto [position, result] : llvm::enumerate(map.getResults()))
    strides[cast<AffineDimExpr>(result).getPosition()] = inStrides[position];
  std::vector<char> result(outType.getNumElements() * elementBytes);
  SmallVector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0, e = outType.getNumElements(); i < e; ++i) {
    std::memcpy(result.data() + i * elementBytes,
                data.data() + offset * elementBytes, elementBytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < outType.getDimSize(d))
        break;
      offset -= strides[d] * index[d];
      index[d] = 0;
    }
  }
  return result;
}

struct PackWeightsPass : aicc::impl::PackWeightsPassBase<PackWeightsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<std::pair<linalg::LinalgOp, WeightSource>> packs;
    func.walk([&](linalg::LinalgOp op) {
      if (!isRearrangement(op) ||
          cast<ShapedType>(op.getDpsInputs()[0].getType()).getRank() <
              static_cast<int64_t>(minRank))
        return;
      if (std::optional<WeightSource> source =
              weightSource(op.getDpsInputs()[0], func))
        packs.push_back({op, *source});
    });
    if (packs.empty())
      return;

    llvm::StringSet<> names;
    unsigned numWeights = 0;
    while (numWeights < func.getNumArguments() &&
           func.getArgAttr(numWeights, kWeight)) {
      names.insert(
          func.getArgAttrOfType<StringAttr>(numWeights, kWeight).getValue());
      ++numWeights;
    }
    MLIRContext *context = &getContext();
    auto &blobs = DenseResourceElementsHandle::getManagerInterface(context);
    for (auto [op, source] : packs) {
      unsigned index = source.argument.getArgNumber();
      std::optional<ArrayRef<char>> data =
          aicc::storedBytes(func.getArgAttr(index, kWeightValue));
      if (!data)
        continue;
      std::vector<char> padded;
      if (source.pad) {
        padded = padTrailing(*data, source.pad.getSourceType(),
                             source.pad.getResultType());
        data = ArrayRef<char>(padded);
      }
      auto inType = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
      auto outType = cast<RankedTensorType>(op->getResult(0).getType());
      std::vector<char> packed =
          permute(*data, inType, outType, op.getIndexingMapsArray()[0]);

      std::string base =
          func.getArgAttrOfType<StringAttr>(index, kWeight).getValue().str() +
          ".packed";
      std::string name = base;
      for (int suffix = 1; names.contains(name); ++suffix)
        name = base + std::to_string(suffix);
      names.insert(name);
      AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyInferAlign(
          ArrayRef<char>(packed));
      auto value = DenseResourceElementsAttr::get(
          outType, blobs.insert(name, std::move(blob)));
      NamedAttrList attrs;
      attrs.append(kWeight, StringAttr::get(context, name));
      attrs.append(kWeightValue, value);
      if (failed(func.insertArgument(
              numWeights, outType, attrs.getDictionary(context), op.getLoc())))
        return signalPassFailure();
      op->getResult(0).replaceAllUsesWith(func.getArgument(numWeights));
      ++numWeights;
    }
    // Drop what no longer has uses: the copies, the reshapes and pads
    // feeding them, and the weights that only they read.
    for (auto [op, source] : packs) {
      if (!op->getResult(0).use_empty())
        continue;
      Value input = op.getDpsInputs()[0];
      Value init = op.getDpsInits()[0];
      op.erase();
      if (init.use_empty())
        init.getDefiningOp()->erase();
      while (Operation *producer = input.getDefiningOp()) {
        if (!producer->use_empty())
          break;
        input = producer->getOperand(0);
        producer->erase();
      }
    }
    llvm::BitVector unused(func.getNumArguments());
    for (unsigned i = 0; i < numWeights; ++i)
      if (func.getArgument(i).use_empty())
        unused.set(i);
    if (failed(func.eraseArguments(unused)))
      return signalPassFailure();
  }
};
} // namespace
