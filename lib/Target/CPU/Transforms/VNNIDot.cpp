//===- VNNIDot.cpp - 8-bit micro-kernels on vpdpbusd ----------------------===//
//
// The integer micro-kernel aicc-cpu-tile-and-vectorize leaves is, per step
// k of the reduction, acc[r][c] += ext(A[r][k]) * ext(B[k][c]): a multiply
// and an add of 32-bit lanes for one product each. vpdpbusd takes four
// steps at once (four byte products summed into each lane), so the loop
// becomes one over k in fours: A's bytes A[r][k..k+3] are one 32-bit word
// broadcast to every lane, B's rows k..k+3 are interleaved so that lane c
// holds B[k..k+3][c].
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPUVNNIDOTPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;

namespace {

/// One operand of a micro-kernel: a view whose slice at step k is a line
/// of `length` bytes along dimension `dim`, the step along `stepDim`.
struct Operand {
  Value source;
  int64_t dim = -1, stepDim = -1;
  bool isUnsigned = false;
};

/// A micro-kernel loop: `rows` x `columns` i32 accumulators (a vector with
/// those two non-unit dimensions) over the loop's steps, reading a column
/// of `rows` bytes and a row of `columns` bytes at each.
struct Kernel {
  scf::ForOp loop;
  Operand column, row;
  int64_t rows, columns;
};

bool isIndex(OpFoldResult value, int64_t expected) {
  std::optional<int64_t> constant = getConstantIntValue(value);
  return constant && *constant == expected;
}

/// The non-unit dimensions of `type`'s shape.
SmallVector<int64_t> nonUnitSizes(VectorType type) {
  SmallVector<int64_t> sizes;
  for (int64_t size : type.getShape())
    if (size != 1)
      sizes.push_back(size);
  return sizes;
}

/// Matches the loop of an integer micro-kernel (see the file comment).
std::optional<Kernel> matchKernel(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !step || *lower != 0 || *step != 1 ||
      loop.getNumRegionIterArgs() != 1)
    return std::nullopt;
  auto accType = dyn_cast<VectorType>(loop.getRegionIterArgs()[0].getType());
  if (!accType || !accType.getElementType().isInteger(32) ||
      accType.isScalable())
    return std::nullopt;
  SmallVector<int64_t> accSizes = nonUnitSizes(accType);
  if (accSizes.size() != 2 || accSizes[0] == accSizes[1])
    return std::nullopt;
  Block *body = loop.getBody();
  if (body->getOperations().size() != 10)
    return std::nullopt;
  Kernel k{loop, Operand(), Operand(), accSizes[0], accSizes[1]};
  Value iv = loop.getInductionVar();
  for (Operation &op : *body) {
    auto slice = dyn_cast<memref::SubViewOp>(op);
    if (!slice)
      continue;
    MemRefType sourceType = slice.getSourceType();
    if (!slice.hasUnitStride() || slice.getSource().getParentBlock() == body ||
        !sourceType.getElementType().isInteger(8))
      return std::nullopt;
    // One offset is the step, the others 0; one size is the line's, the
    // others 1.
    Operand operand;
    operand.source = slice.getSource();
    int64_t length = 1;
    for (auto [d, offset, size] :
         llvm::enumerate(slice.getMixedOffsets(), slice.getMixedSizes())) {
      if (llvm::dyn_cast_if_present<Value>(offset) == iv) {
        if (operand.stepDim >= 0 || !isIndex(size, 1))
          return std::nullopt;
        operand.stepDim = d;
      } else if (!isIndex(offset, 0)) {
        return std::nullopt;
      } else if (!isIndex(size, 1)) {
        std::optional<int64_t> constant = getConstantIntValue(size);
        if (!constant || operand.dim >= 0)
          return std::nullopt;
        operand.dim = d;
        length = *constant;
      }
    }
    if (operand.stepDim < 0 || operand.dim < 0)
      return std::nullopt;
    // Its one user is a read whose one user is the extension.
    if (!slice->hasOneUse())
      return std::nullopt;
    auto read = dyn_cast<vector::TransferReadOp>(*slice->user_begin());
    if (!read || !read->hasOneUse())
      return std::nullopt;
    Operation *ext = *read->user_begin();
    if (!isa<arith::ExtUIOp, arith::ExtSIOp>(ext))
      return std::nullopt;
    operand.isUnsigned = isa<arith::ExtUIOp>(ext);
    if (length == k.rows && !k.column.source)
      k.column = operand;
    else if (length == k.columns && !k.row.source)
      k.row = operand;
    else
      return std::nullopt;
  }
  // One operand unsigned and the other signed, as vpdpbusd takes them;
  // the rest of the body is the multiply-add.
  if (!k.column.source || !k.row.source ||
      k.column.isUnsigned == k.row.isUnsigned)
    return std::nullopt;
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddIOp>();
  if (!add ||
      !llvm::is_contained(add->getOperands(), loop.getRegionIterArgs()[0]))
    return std::nullopt;
  Value other =
      add.getLhs() == loop.getRegionIterArgs()[0] ? add.getRhs() : add.getLhs();
  auto cast = other.getDefiningOp<vector::ShapeCastOp>();
  if (!cast || !cast.getSource().getDefiningOp<arith::MulIOp>())
    return std::nullopt;
  return k;
}

/// Reads the `length` x 4 bytes of `operand` at steps step..step+3 as a
/// vector<length*4 x i8> in which element l*4+j is line l's byte at step
/// step+j: one shuffle interleaves them when the view holds the steps
/// outermost.
Value readQuad(OpBuilder &b, Location loc, const Operand &operand,
               int64_t length, Value step, Value padding) {
  auto sourceType = cast<MemRefType>(operand.source.getType());
  int64_t rank = sourceType.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  offsets[operand.stepDim] = step;
  sizes[operand.dim] = b.getIndexAttr(length);
  sizes[operand.stepDim] = b.getIndexAttr(4);
  bool lineFirst = operand.dim < operand.stepDim;
  SmallVector<int64_t> shape = lineFirst ? SmallVector<int64_t>{length, 4}
                                         : SmallVector<int64_t>{4, length};
  MemRefType tileType = memref::SubViewOp::inferRankReducedResultType(
      shape, sourceType, offsets, sizes, strides);
  Value tile = memref::SubViewOp::create(b, loc, tileType, operand.source,
                                         offsets, sizes, strides);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value bytes = vector::TransferReadOp::create(
      b, loc, VectorType::get(shape, b.getI8Type()), tile, ValueRange{c0, c0},
      padding, ArrayRef<bool>{true, true});
  Value flat = vector::ShapeCastOp::create(
      b, loc, VectorType::get({4 * length}, b.getI8Type()), bytes);
  if (lineFirst)
    return flat;
  SmallVector<int64_t> interleave;
  for (int64_t l = 0; l < length; ++l)
    for (int64_t j = 0; j < 4; ++j)
      interleave.push_back(j * length + l);
  return vector::ShuffleOp::create(b, loc, flat, flat, interleave);
}

/// Replaces `k`'s loop by one taking four steps at a time with vpdpbusd
/// on `lanes`-wide vectors, and the original for the remainder.
void rewrite(RewriterBase &rewriter, Kernel k, int64_t lanes) {
  Location loc = k.loop.getLoc();
  rewriter.setInsertionPoint(k.loop);
  Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value four = arith::ConstantIndexOp::create(rewriter, loc, 4);
  Value upper = k.loop.getUpperBound();
  Value end = arith::SubIOp::create(
      rewriter, loc, upper, arith::RemUIOp::create(rewriter, loc, upper, four));
  Value padding = arith::ConstantIntOp::create(rewriter, loc, i8, 0);
  StringAttr intrinsic =
      rewriter.getStringAttr(lanes == 16 ? "llvm.x86.avx512.vpdpbusd.512"
                                         : "llvm.x86.avx512.vpdpbusd.256");
  // The intrinsic adds to 32-bit lanes the products of byte vectors.
  auto wordType = VectorType::get({lanes}, i32);
  auto byteType = VectorType::get({4 * lanes}, i8);
  Type accType = k.loop.getRegionIterArgs()[0].getType();
  auto matrixType = VectorType::get({k.rows, k.columns}, i32);
  bool columnUnsigned = k.column.isUnsigned;

  auto quadLoop = scf::ForOp::create(
      rewriter, loc, zero, end, four, ValueRange{k.loop.getInitArgs()[0]},
      [&](OpBuilder &b, Location loc, Value step, ValueRange args) {
        Value columnBytes = vector::ShapeCastOp::create(
            b, loc, VectorType::get({k.rows, 4}, i8),
            readQuad(b, loc, k.column, k.rows, step, padding));
        Value mixed = readQuad(b, loc, k.row, k.columns, step, padding);
        SmallVector<Value> rowWords;
        for (int64_t q = 0; q < k.columns / lanes; ++q)
          rowWords.push_back(vector::ExtractStridedSliceOp::create(
              b, loc, mixed, ArrayRef<int64_t>{q * 4 * lanes},
              ArrayRef<int64_t>{4 * lanes}, ArrayRef<int64_t>{1}));
        Value acc = vector::ShapeCastOp::create(b, loc, matrixType, args[0]);
        for (int64_t r = 0; r < k.rows; ++r) {
          Value bytes = vector::ExtractOp::create(b, loc, columnBytes,
                                                  ArrayRef<int64_t>{r});
          Value word = vector::BitCastOp::create(
              b, loc, VectorType::get({1}, i32), bytes);
          Value scalar =
              vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0});
          Value columnWord = vector::BitCastOp::create(
              b, loc, byteType,
              vector::BroadcastOp::create(b, loc, wordType, scalar));
          Value accRow =
              vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{r});
          for (int64_t q = 0; q < k.columns / lanes; ++q) {
            Value part = vector::ExtractStridedSliceOp::create(
                b, loc, accRow, ArrayRef<int64_t>{q * lanes},
                ArrayRef<int64_t>{lanes}, ArrayRef<int64_t>{1});
            Value unsignedBytes = columnUnsigned ? columnWord : rowWords[q];
            Value signedBytes = columnUnsigned ? rowWords[q] : columnWord;
            Value sum = LLVM::CallIntrinsicOp::create(
                            b, loc, wordType, intrinsic,
                            ValueRange{part, unsignedBytes, signedBytes})
                            .getResult(0);
            accRow = vector::InsertStridedSliceOp::create(
                b, loc, sum, accRow, ArrayRef<int64_t>{q * lanes},
                ArrayRef<int64_t>{1});
          }
          acc = vector::InsertOp::create(b, loc, accRow, acc,
                                         ArrayRef<int64_t>{r});
        }
        scf::YieldOp::create(
            b, loc,
            ValueRange{vector::ShapeCastOp::create(b, loc, accType, acc)});
      });
  // The last steps: the original loop from `end` on.
  rewriter.modifyOpInPlace(k.loop, [&] {
    k.loop.getLowerBoundMutable().assign(end);
    k.loop.getInitArgsMutable()[0].assign(quadLoop.getResult(0));
  });
}

struct CPUVNNIDotPass : aicc::cpu::impl::CPUVNNIDotPassBase<CPUVNNIDotPass> {
  using Base::Base;

  void runOnOperation() override {
    if (bits != 256 && bits != 512) {
      getOperation().emitError() << "aicc-cpu-vnni-dot: bits must be 256 or "
                                    "512, got "
                                 << bits;
      return signalPassFailure();
    }
    int64_t lanes = bits / 32;
    SmallVector<Kernel> kernels;
    getOperation().walk([&](scf::ForOp loop) {
      if (std::optional<Kernel> k = matchKernel(loop))
        if (k->columns % lanes == 0)
          kernels.push_back(*k);
    });
    IRRewriter rewriter(&getContext());
    for (const Kernel &k : kernels)
      rewrite(rewriter, k, lanes);
  }
};

} // namespace
