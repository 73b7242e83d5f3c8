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

/// A micro-kernel loop: `rows` x `columns` i32 accumulators over `depth`
/// steps, reading column k of `column` (rows x depth bytes) and row k of
/// `row` (depth x columns bytes).
struct Kernel {
  scf::ForOp loop;
  Value column, row;
  int64_t rows, columns, depth;
  /// Whether the column's bytes are the unsigned operand (else the row's).
  bool columnUnsigned;
};

bool isIndex(OpFoldResult value, int64_t expected) {
  std::optional<int64_t> constant = getConstantIntValue(value);
  return constant && *constant == expected;
}

/// Matches the loop of an integer micro-kernel (see the file comment).
std::optional<Kernel> matchKernel(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *lower != 0 || *step != 1 ||
      loop.getNumRegionIterArgs() != 1)
    return std::nullopt;
  auto accType = dyn_cast<VectorType>(loop.getRegionIterArgs()[0].getType());
  if (!accType || accType.getRank() != 2 ||
      !accType.getElementType().isInteger(32) || accType.isScalable())
    return std::nullopt;
  Block *body = loop.getBody();
  if (body->getOperations().size() != 10)
    return std::nullopt;
  Kernel k{
      loop,   Value(), Value(), accType.getDimSize(0), accType.getDimSize(1),
      *upper, false};
  Value iv = loop.getInductionVar();
  std::optional<bool> columnUnsigned, rowUnsigned;
  for (Operation &op : *body) {
    auto slice = dyn_cast<memref::SubViewOp>(op);
    if (!slice)
      continue;
    if (!slice.hasUnitStride() || slice.getSource().getParentBlock() == body ||
        slice.getSourceType().getRank() != 2 ||
        !slice.getSourceType().getElementType().isInteger(8) ||
        slice.getType().getRank() != 2)
      return std::nullopt;
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    auto isIv = [&](OpFoldResult v) {
      return llvm::dyn_cast_if_present<Value>(v) == iv;
    };
    // Its one user is a read whose one user is the extension.
    if (!slice->hasOneUse())
      return std::nullopt;
    auto read = dyn_cast<vector::TransferReadOp>(*slice->user_begin());
    if (!read || !read->hasOneUse())
      return std::nullopt;
    Operation *ext = *read->user_begin();
    if (!isa<arith::ExtUIOp, arith::ExtSIOp>(ext))
      return std::nullopt;
    bool isUnsigned = isa<arith::ExtUIOp>(ext);
    if (isIndex(offsets[0], 0) && isIv(offsets[1]) &&
        isIndex(sizes[0], k.rows) && isIndex(sizes[1], 1)) {
      k.column = slice.getSource();
      columnUnsigned = isUnsigned;
    } else if (isIv(offsets[0]) && isIndex(offsets[1], 0) &&
               isIndex(sizes[0], 1) && isIndex(sizes[1], k.columns)) {
      k.row = slice.getSource();
      rowUnsigned = isUnsigned;
    } else {
      return std::nullopt;
    }
  }
  // One operand unsigned and the other signed, as vpdpbusd takes them;
  // the rest of the body is the multiply-add.
  if (!k.column || !k.row || !columnUnsigned || !rowUnsigned ||
      *columnUnsigned == *rowUnsigned)
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
  k.columnUnsigned = *columnUnsigned;
  return k;
}

/// Replaces `k`'s loop by one taking four steps at a time with vpdpbusd
/// on `lanes`-wide vectors, and the original for the remainder.
void rewrite(RewriterBase &rewriter, Kernel k, int64_t lanes) {
  Location loc = k.loop.getLoc();
  rewriter.setInsertionPoint(k.loop);
  Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
  int64_t quads = k.depth / 4 * 4;
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value end = arith::ConstantIndexOp::create(rewriter, loc, quads);
  Value four = arith::ConstantIndexOp::create(rewriter, loc, 4);
  Value padding = arith::ConstantIntOp::create(rewriter, loc, i8, 0);
  StringAttr intrinsic =
      rewriter.getStringAttr(lanes == 16 ? "llvm.x86.avx512.vpdpbusd.512"
                                         : "llvm.x86.avx512.vpdpbusd.256");
  // The intrinsic adds to 32-bit lanes the products of byte vectors.
  auto wordType = VectorType::get({lanes}, i32);
  auto byteType = VectorType::get({4 * lanes}, i8);
  // Lane c of the interleaved rows holds B[k..k+3][c].
  SmallVector<int64_t> interleave;
  for (int64_t c = 0; c < k.columns; ++c)
    for (int64_t j = 0; j < 4; ++j)
      interleave.push_back(j * k.columns + c);

  auto quadLoop = scf::ForOp::create(
      rewriter, loc, zero, end, four, ValueRange{k.loop.getInitArgs()[0]},
      [&](OpBuilder &b, Location loc, Value step, ValueRange args) {
        auto readTile = [&](Value source, ArrayRef<OpFoldResult> offsets,
                            ArrayRef<int64_t> sizes) {
          SmallVector<OpFoldResult> sizeValues, strides;
          for (int64_t size : sizes) {
            sizeValues.push_back(b.getIndexAttr(size));
            strides.push_back(b.getIndexAttr(1));
          }
          Value tile = memref::SubViewOp::create(b, loc, source, offsets,
                                                 sizeValues, strides);
          Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
          return vector::TransferReadOp::create(
                     b, loc, VectorType::get(sizes, i8), tile,
                     ValueRange{c0, c0}, padding, ArrayRef<bool>{true, true})
              .getResult();
        };
        Value columnBytes = readTile(
            k.column, {b.getIndexAttr(0), OpFoldResult(step)}, {k.rows, 4});
        Value rowBytes = readTile(
            k.row, {OpFoldResult(step), b.getIndexAttr(0)}, {4, k.columns});
        Value flat = vector::ShapeCastOp::create(
            b, loc, VectorType::get({4 * k.columns}, i8), rowBytes);
        Value mixed = vector::ShuffleOp::create(b, loc, flat, flat, interleave);
        SmallVector<Value> rowWords;
        for (int64_t q = 0; q < k.columns / lanes; ++q) {
          Value part = vector::ExtractStridedSliceOp::create(
              b, loc, mixed, ArrayRef<int64_t>{q * 4 * lanes},
              ArrayRef<int64_t>{4 * lanes}, ArrayRef<int64_t>{1});
          rowWords.push_back(part);
        }
        Value acc = args[0];
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
            Value unsignedBytes = k.columnUnsigned ? columnWord : rowWords[q];
            Value signedBytes = k.columnUnsigned ? rowWords[q] : columnWord;
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
        scf::YieldOp::create(b, loc, acc);
      });
  Value result = quadLoop.getResult(0);
  if (quads == k.depth) {
    rewriter.replaceOp(k.loop, result);
    return;
  }
  // The last steps: the original loop from `quads` on.
  rewriter.modifyOpInPlace(k.loop, [&] {
    k.loop.getLowerBoundMutable().assign(end);
    k.loop.getInitArgsMutable()[0].assign(result);
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
        if (k->columns % lanes == 0 && k->depth >= 4)
          kernels.push_back(*k);
    });
    IRRewriter rewriter(&getContext());
    for (const Kernel &k : kernels)
      rewrite(rewriter, k, lanes);
  }
};

} // namespace
