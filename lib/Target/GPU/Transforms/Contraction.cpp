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
/// The block argument `value` reads, looking through one extension (of a
/// float, or of an integer: then `isUnsigned` says which).
BlockArgument operandOf(Value value, bool integer, bool &isUnsigned) {
  isUnsigned = false;
  if (!integer) {
    if (auto ext = value.getDefiningOp<arith::ExtFOp>())
      value = ext.getIn();
  } else if (auto ext = value.getDefiningOp<arith::ExtSIOp>()) {
    value = ext.getIn();
  } else if (auto ext = value.getDefiningOp<arith::ExtUIOp>()) {
    value = ext.getIn();
    isUnsigned = true;
  } else {
    return {};
  }
  return dyn_cast<BlockArgument>(value);
}

/// Whether `op`'s operands are all floats, or 8-bit inputs and a 32-bit
/// output (`integer`).
bool contractionTypes(linalg::GenericOp op, bool &integer) {
  auto elementOf = [](Value operand) -> Type {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !type.hasStaticShape())
      return {};
    return type.getElementType();
  };
  Type out = elementOf(op.getDpsInits()[0]);
  integer = out && out.isSignlessInteger(32);
  for (Value input : op.getDpsInputs()) {
    Type in = elementOf(input);
    if (!in || (integer ? !in.isSignlessInteger(8) : !isa<FloatType>(in)))
      return false;
  }
  return integer || isa_and_nonnull<FloatType>(out);
}
} // namespace

std::optional<aicc::gpu::Contraction>
aicc::gpu::matchContraction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  bool integer;
  if (!contractionTypes(op, integer))
    return std::nullopt;

  // The body: yield (out + x * y), x and y the inputs or their extensions.
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *add = yield.getValues()[0].getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add) ||
      isa<arith::AddIOp>(add) != integer || body->getOperations().size() > 6)
    return std::nullopt;
  BlockArgument out = body->getArgument(2);
  Value product = add->getOperand(0) == out   ? add->getOperand(1)
                  : add->getOperand(1) == out ? add->getOperand(0)
                                              : Value();
  Operation *mul = product ? product.getDefiningOp() : nullptr;
  if (!mul || !(integer ? isa<arith::MulIOp>(mul) : isa<arith::MulFOp>(mul)))
    return std::nullopt;
  bool xUnsigned, yUnsigned;
  BlockArgument x = operandOf(mul->getOperand(0), integer, xUnsigned),
                y = operandOf(mul->getOperand(1), integer, yUnsigned);
  if (!x || !y ||
      !((x.getArgNumber() == 0 && y.getArgNumber() == 1) ||
        (x.getArgNumber() == 1 && y.getArgNumber() == 0)))
    return std::nullopt;

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[2].isProjectedPermutation())
    return std::nullopt;
  Contraction result;
  result.bounds = op.getStaticLoopRanges();
  result.integer = integer;
  result.unsignedInput[x.getArgNumber()] = xUnsigned;
  result.unsignedInput[y.getArgNumber()] = yUnsigned;
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
