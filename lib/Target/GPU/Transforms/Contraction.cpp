//===- Contraction.cpp - Recognizing out += a * b on buffers --------------===//

#include "Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

int64_t aicc::gpu::Contraction::extent(ArrayRef<unsigned> loops) const {
  int64_t product = 1;
  for (unsigned loop : loops)
    product *= bounds[loop];
  return product;
}

namespace {
/// The block argument `value` reads, looking through one extension.
BlockArgument operandOf(Value value) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    value = ext.getIn();
  return dyn_cast<BlockArgument>(value);
}
} // namespace

std::optional<aicc::gpu::Contraction>
aicc::gpu::matchContraction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !type.hasStaticShape() ||
        !isa<FloatType>(type.getElementType()))
      return std::nullopt;
  }

  // The body: yield (out + x * y), x and y the inputs or their extensions.
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add || body->getOperations().size() > 6)
    return std::nullopt;
  BlockArgument out = body->getArgument(2);
  Value product = add.getLhs() == out   ? add.getRhs()
                  : add.getRhs() == out ? add.getLhs()
                                        : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return std::nullopt;
  BlockArgument x = operandOf(mul.getLhs()), y = operandOf(mul.getRhs());
  if (!x || !y ||
      !((x.getArgNumber() == 0 && y.getArgNumber() == 1) ||
        (x.getArgNumber() == 1 && y.getArgNumber() == 0)))
    return std::nullopt;

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[2].isProjectedPermutation())
    return std::nullopt;
  Contraction result;
  result.bounds = op.getStaticLoopRanges();
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop) {
    if (result.bounds[loop] == 1)
      continue;
    bool inA = maps[0].isFunctionOfDim(loop),
         inB = maps[1].isFunctionOfDim(loop),
         inC = maps[2].isFunctionOfDim(loop);
    if (op.getIteratorTypesArray()[loop] == utils::IteratorType::reduction) {
      result.k.push_back(loop);
      continue;
    }
    if (!inC)
      return std::nullopt;
    if (inA && !inB)
      result.m.push_back(loop);
    else if (!inA && inB)
      result.n.push_back(loop);
    else
      result.batch.push_back(loop);
  }
  return result;
}
