//===- Int4Products.cpp - Products by packed 4-bit weights
//-----------------===//
//
// A product of few rows by a weight of 4-bit values (tile.matmul_int4:
// weight-only quantization) reads the weight once and does little else:
// its time is the weight's bytes over the memory's bandwidth. The kernel
// streams them: a warp per column of the result, each lane reading 16
// bytes (32 values) of the column at a time, several reads in flight; the
// rows' inputs come as 16-byte vectors from the cache, which every warp
// shares. A value becomes a float in two integer operations: its four bits
// or'ed into the mantissa of 2^23 and the magic number and the zero point
// subtracted, exactly. Sums are f32, a group's scale applied once a group.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "Cost.h"
#include "Epilogue.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUINT4PRODUCTSPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {

constexpr int64_t kLanes = 32;
/// Warps a block: one column of the result each.
constexpr int64_t kWarps = 4;
/// The widest read of a lane, in bytes.
constexpr int64_t kVectorBytes = 16;
/// The values of one lane's read: 16 bytes of the packed weight.
constexpr int64_t kChunk = 2 * kVectorBytes;
/// Most rows the kernel takes: it keeps one sum a row per lane, and the
/// rows' inputs of every read in flight.
constexpr int64_t kMaxRows = 16;
/// 2^23 as f32: an integer v below 2^23 or'ed into its mantissa reads as
/// 2^23 + v.
constexpr uint32_t kMagicBits = 0x4B000000;
constexpr float kMagic = 8388608.0f;
/// 1024 as f16, twice in 32 bits: a value below 1024 or'ed into a half's
/// mantissa reads as 1024 + v.
constexpr uint32_t kHalfMagicPairBits = 0x64006400;
constexpr float kHalfMagic = 1024.0f;

/// A product as tile.matmul_int4 lowers it (ConvertMatmulInt4).
struct Int4Product {
  linalg::GenericOp op;
  /// The output's zero fill right before the product, or null.
  linalg::GenericOp fill;
  Value x, packed, scales, zeroPoints, out;
  SmallVector<int64_t> outerShape;
  int64_t rows, k, n, group;
  bool zeroUnsigned;
};

bool contiguous(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getLayout().isIdentity() && type.hasStaticShape();
}

std::optional<Int4Product> matchInt4Product(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 4 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() < 5)
    return std::nullopt;
  unsigned loops = op.getNumLoops(), outer = loops - 4, nLoop = outer,
           gLoop = outer + 1, jLoop = outer + 2, hLoop = outer + 3;
  auto iterators = op.getIteratorTypesArray();
  for (unsigned i = 0; i < loops; ++i)
    if ((i <= nLoop) != (iterators[i] == utils::IteratorType::parallel))
      return std::nullopt;
  MLIRContext *context = op.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, context); };
  SmallVector<AffineExpr> xExprs, outExprs;
  for (unsigned i = 0; i < outer; ++i) {
    xExprs.push_back(d(i));
    outExprs.push_back(d(i));
  }
  xExprs.append({d(gLoop), d(jLoop), d(hLoop)});
  outExprs.push_back(d(nLoop));
  auto map = [&](ArrayRef<AffineExpr> exprs) {
    return AffineMap::get(loops, 0, exprs, context);
  };
  SmallVector<AffineMap> expected = {
      map(xExprs), map({d(nLoop), d(gLoop), d(jLoop)}),
      map({d(nLoop), d(gLoop)}), map({d(nLoop), d(gLoop)}), map(outExprs)};
  if (op.getIndexingMapsArray() != expected)
    return std::nullopt;

  Int4Product p;
  p.op = op;
  p.x = op.getDpsInputs()[0];
  p.packed = op.getDpsInputs()[1];
  p.scales = op.getDpsInputs()[2];
  p.zeroPoints = op.getDpsInputs()[3];
  p.out = op.getDpsInits()[0];
  if (!llvm::all_of(ValueRange{p.x, p.packed, p.scales, p.zeroPoints, p.out},
                    contiguous))
    return std::nullopt;
  auto elementOf = [](Value v) {
    return cast<MemRefType>(v.getType()).getElementType();
  };
  Type xType = elementOf(p.x), outType = elementOf(p.out);
  if (!(xType.isF16() || xType.isBF16() || xType.isF32()) ||
      !isa<FloatType>(outType) || !isa<FloatType>(elementOf(p.scales)) ||
      !elementOf(p.packed).isInteger(8) ||
      !elementOf(p.zeroPoints).isInteger(8))
    return std::nullopt;

  // The body is ConvertMatmulInt4's: the nibble from the last loop's
  // index, the zero point widened as its sign says.
  Block *body = op.getBody();
  bool nibble = false;
  std::optional<bool> zeroUnsigned;
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner))
      nibble |= index.getDim() == hLoop;
    if (llvm::is_contained(inner.getOperands(), body->getArgument(3))) {
      if (isa<arith::UIToFPOp>(inner))
        zeroUnsigned = true;
      else if (isa<arith::SIToFPOp>(inner))
        zeroUnsigned = false;
      else
        return std::nullopt;
    }
  }
  if (!nibble || !zeroUnsigned)
    return std::nullopt;
  p.zeroUnsigned = *zeroUnsigned;

  ArrayRef<int64_t> packedShape =
      cast<MemRefType>(p.packed.getType()).getShape();
  p.n = packedShape[0];
  p.group = 2 * packedShape[2];
  p.k = packedShape[1] * p.group;
  ArrayRef<int64_t> outShape = cast<MemRefType>(p.out.getType()).getShape();
  p.outerShape.assign(outShape.begin(), outShape.end() - 1);
  p.rows = 1;
  for (int64_t extent : p.outerShape)
    p.rows *= extent;
  // A lane's read stays in one group.
  if (p.group % kChunk != 0 || p.rows > kMaxRows || p.rows == 0)
    return std::nullopt;

  // The output's zero fill, which the kernel's stores make unneeded.
  if (auto fill = dyn_cast_or_null<linalg::GenericOp>(
          aicc::gpu::previousWithEffects(op))) {
    Value value = aicc::gpu::fillValueOf(fill, p.out);
    if (value && matchPattern(value, m_AnyZeroFloat()))
      p.fill = fill;
  }
  return p;
}

/// Emits `p`'s kernel before it and erases it (and its fill).
void emitKernel(Int4Product &p) {
  OpBuilder b(p.op);
  Location loc = p.op.getLoc();
  aicc::gpu::IndexBuilder e{b, loc};
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Type xType = cast<MemRefType>(p.x.getType()).getElementType();
  int64_t xLanes = kVectorBytes / (xType.getIntOrFloatBitWidth() / 8);
  // f16 inputs: the values dequantized and multiplied in f16 pairs.
  bool halves = xType.isF16();
  Type f16 = b.getF16Type();
  auto pairType = VectorType::get({2}, f16);
  auto contract = arith::FastMathFlagsAttr::get(b.getContext(),
                                                arith::FastMathFlags::contract);
  auto xVector = VectorType::get({xLanes}, xType);
  auto bytesVector = VectorType::get({kVectorBytes}, b.getI8Type());
  auto wordsVector = VectorType::get({4}, i32);

  // The input as rows of k, the weight as rows of bytes.
  int64_t outer = p.outerShape.size();
  ReassociationIndices outerDims =
      llvm::to_vector(llvm::seq<int64_t>(0, outer));
  Value x = memref::CollapseShapeOp::create(
      b, loc, p.x,
      SmallVector<ReassociationIndices>{outerDims,
                                        {outer, outer + 1, outer + 2}});
  Value packed = memref::CollapseShapeOp::create(
      b, loc, p.packed, SmallVector<ReassociationIndices>{{0}, {1, 2}});

  // Without a zero fill the sums add to what the output holds, and no
  // epilogue can take them.
  bool filled = static_cast<bool>(p.fill);
  std::optional<aicc::gpu::Epilogue> epilogue;
  if (filled) {
    p.fill.erase();
    epilogue = aicc::gpu::findEpilogue(p.op);
    if (epilogue && epilogue->overwritesOperands)
      epilogue.reset();
  }

  // Each warp takes `columns` columns of the result (the rows' inputs,
  // read once, serve them all: read per column they would move more bytes
  // than the packed weight); each lane reads chunks lane, lane + 32, ...:
  // `unroll` of them per iteration, all loads first.
  int64_t chunks = p.k / kChunk;
  int64_t steps = llvm::divideCeilSigned(chunks, kLanes);
  int64_t columns = p.rows <= 2 ? 4 : p.rows <= 8 ? 2 : 1;
  int64_t unroll = std::min<int64_t>(steps, p.rows <= 2   ? 4
                                            : p.rows <= 8 ? 2
                                                          : 1);
  int64_t iterations = llvm::divideCeilSigned(steps, unroll);
  bool ragged = chunks % (kLanes * unroll) != 0;
  int64_t warps = llvm::divideCeilSigned(p.n, columns);

  b.setInsertionPoint(p.op);
  mlir::gpu::LaunchOp launch = aicc::gpu::createLaunch(
      b, loc, {llvm::divideCeilSigned(warps, kWarps), 1, 1}, kWarps * kLanes);
  aicc::gpu::recordFlops(launch, 2 * p.rows * p.n * p.k);
  Value thread = launch.getThreadIds().x;
  Value lane = e.rem(thread, kLanes);
  Value warp =
      e.add(e.mul(launch.getBlockIds().x, kWarps), e.div(thread, kLanes));
  auto inRange = scf::IfOp::create(b, loc, e.less(warp, warps),
                                   /*withElseRegion=*/false);
  b.setInsertionPoint(inRange.thenBlock()->getTerminator());
  // The warp's columns; past N (the last warp of a ragged N), the last
  // column again, computed and not stored.
  SmallVector<Value> columnIndex;
  Value lastColumn = e.index(p.n - 1);
  for (int64_t c = 0; c < columns; ++c) {
    Value column = e.add(e.mul(warp, columns), c);
    columnIndex.push_back(
        p.n % columns == 0
            ? column
            : Value(arith::MinUIOp::create(b, loc, column, lastColumn)));
  }

  auto f32Constant = [&](float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  };
  auto i32Constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  Value zero = f32Constant(0);
  // One sum a row and column: [row * columns + column].
  SmallVector<Value> initial(p.rows * columns, zero);
  auto loop = scf::ForOp::create(b, loc, e.index(0), e.index(iterations),
                                 e.index(1), initial);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    aicc::gpu::IndexBuilder at{b, loc};
    SmallVector<Value> sums(loop.getRegionIterArgs());
    /// One column's 16 bytes of a chunk and its group's parameters.
    struct Read {
      Value words, scale, offset, pairOffset;
    };
    /// [unroll][column] reads; [unroll][row][vector] inputs.
    SmallVector<SmallVector<Read>> reads(unroll, SmallVector<Read>(columns));
    SmallVector<SmallVector<SmallVector<Value>>> inputs(unroll);
    Value lastChunk = at.index(chunks - 1);
    Value pairZero;
    if (halves)
      pairZero = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(pairType, b.getF16FloatAttr(0)));
    for (int64_t u = 0; u < unroll; ++u) {
      Value chunk = at.add(
          at.mul(at.add(at.mul(loop.getInductionVar(), unroll), u), kLanes),
          lane);
      Value valid;
      if (ragged) {
        valid = at.less(chunk, chunks);
        chunk = arith::MinUIOp::create(b, loc, chunk, lastChunk);
      }
      // A chunk past k reads the last one and counts zero.
      auto keep = [&](Value v) -> Value {
        if (!valid)
          return v;
        Value none =
            arith::ConstantOp::create(b, loc, b.getZeroAttr(v.getType()));
        return arith::SelectOp::create(b, loc, valid, v, none);
      };
      Value groupIndex = at.div(at.mul(chunk, kChunk), p.group);
      for (int64_t c = 0; c < columns; ++c) {
        Read &r = reads[u][c];
        // (Rows of K/2 bytes, K a multiple of 32, in buffers aligned to 64
        // bytes: every read is an aligned 16-byte vector.)
        Value bytes = vector::LoadOp::create(
            b, loc, bytesVector, packed,
            ValueRange{columnIndex[c], at.mul(chunk, kChunk / 2)},
            /*nontemporal=*/false, llvm::MaybeAlign(kVectorBytes));
        r.words = keep(vector::BitCastOp::create(b, loc, wordsVector, bytes));
        Value scale = memref::LoadOp::create(
            b, loc, p.scales, ValueRange{columnIndex[c], groupIndex});
        r.scale = keep(aicc::gpu::convertFloat(b, loc, scale, f32));
        Value zp = memref::LoadOp::create(
            b, loc, p.zeroPoints, ValueRange{columnIndex[c], groupIndex});
        Value zpFloat = p.zeroUnsigned
                            ? Value(arith::UIToFPOp::create(b, loc, f32, zp))
                            : Value(arith::SIToFPOp::create(b, loc, f32, zp));
        if (halves) {
          // 1024 + zp in f16 (exact below 2048), both halves.
          Value half = arith::TruncFOp::create(
              b, loc, f16,
              arith::AddFOp::create(b, loc, zpFloat, f32Constant(kHalfMagic)));
          r.pairOffset = vector::BroadcastOp::create(b, loc, pairType, half);
        } else {
          // 2^23 + zp, exact for an 8-bit zero point; (2^23 + v) -
          // (2^23 + zp) is v - zp exactly.
          r.offset =
              arith::AddFOp::create(b, loc, zpFloat, f32Constant(kMagic));
        }
      }
      for (int64_t row = 0; row < p.rows; ++row) {
        SmallVector<Value> vectors;
        for (int64_t v = 0; v < kChunk / xLanes; ++v)
          vectors.push_back(keep(vector::LoadOp::create(
              b, loc, xVector, x,
              ValueRange{at.index(row),
                         at.add(at.mul(chunk, kChunk), v * xLanes)},
              /*nontemporal=*/false, llvm::MaybeAlign(kVectorBytes))));
        inputs[u].push_back(std::move(vectors));
      }
    }
    Value mask = i32Constant(0xF), magic = i32Constant(kMagicBits);
    auto wordType = VectorType::get({1}, i32);
    for (int64_t u = 0; u < unroll; ++u)
      for (int64_t c = 0; c < columns; ++c) {
        const Read &r = reads[u][c];
        const SmallVector<SmallVector<Value>> &xs = inputs[u];
        SmallVector<Value> groupSums(p.rows, zero);
        for (int64_t w = 0; w < 4; ++w) {
          // Each word's values are summed apart (short chains of dependent
          // additions), then into the group's sum.
          SmallVector<Value> wordSums(p.rows, zero);
          Value word =
              vector::ExtractOp::create(b, loc, r.words, ArrayRef<int64_t>{w});
          if (halves) {
            // Two values at a time: nibbles i and i + 4 of the word (bits
            // 4i and 16 + 4i) in the mantissas of an f16 pair 1024 + v,
            // less 1024 + zp (exact), times the inputs k + i and k + i + 4,
            // summed in f16 pairs over the word's eight values.
            SmallVector<Value> pairSums(p.rows, pairZero);
            for (int64_t i = 0; i < 4; ++i) {
              Value bits = i ? Value(arith::ShRUIOp::create(b, loc, word,
                                                            i32Constant(4 * i)))
                             : word;
              bits = arith::OrIOp::create(
                  b, loc,
                  arith::AndIOp::create(b, loc, bits, i32Constant(0x000F000F)),
                  i32Constant(kHalfMagicPairBits));
              Value values = arith::SubFOp::create(
                  b, loc,
                  vector::BitCastOp::create(
                      b, loc, pairType,
                      vector::BroadcastOp::create(b, loc, wordType, bits)),
                  r.pairOffset);
              for (int64_t row = 0; row < p.rows; ++row) {
                Value pair =
                    vector::ShuffleOp::create(b, loc, xs[row][w], xs[row][w],
                                              ArrayRef<int64_t>{i, i + 4});
                // (arith, not math.fma, which the device pipeline widens
                // to f32; allowed to contract, the backend fuses the two
                // into one f16x2 fma.)
                pairSums[row] = arith::AddFOp::create(
                    b, loc,
                    arith::MulFOp::create(b, loc, pair, values, contract),
                    pairSums[row], contract);
              }
            }
            for (int64_t row = 0; row < p.rows; ++row) {
              Value wide = arith::ExtFOp::create(
                  b, loc, VectorType::get({2}, f32), pairSums[row]);
              wordSums[row] = arith::AddFOp::create(
                  b, loc,
                  vector::ExtractOp::create(b, loc, wide, ArrayRef<int64_t>{0}),
                  vector::ExtractOp::create(b, loc, wide,
                                            ArrayRef<int64_t>{1}));
            }
          } else {
            for (int64_t i = 0; i < 8; ++i) {
              Value bits = i ? Value(arith::ShRUIOp::create(b, loc, word,
                                                            i32Constant(4 * i)))
                             : word;
              bits = arith::OrIOp::create(
                  b, loc, arith::AndIOp::create(b, loc, bits, mask), magic);
              Value value = arith::SubFOp::create(
                  b, loc, arith::BitcastOp::create(b, loc, f32, bits),
                  r.offset);
              int64_t position = w * 8 + i;
              for (int64_t row = 0; row < p.rows; ++row) {
                Value xv = vector::ExtractOp::create(
                    b, loc, xs[row][position / xLanes],
                    ArrayRef<int64_t>{position % xLanes});
                wordSums[row] = math::FmaOp::create(
                    b, loc, aicc::gpu::convertFloat(b, loc, xv, f32), value,
                    wordSums[row]);
              }
            }
          }
          for (int64_t row = 0; row < p.rows; ++row)
            groupSums[row] =
                arith::AddFOp::create(b, loc, groupSums[row], wordSums[row]);
        }
        for (int64_t row = 0; row < p.rows; ++row) {
          Value &sum = sums[row * columns + c];
          sum = math::FmaOp::create(b, loc, r.scale, groupSums[row], sum);
        }
      }
    scf::YieldOp::create(b, loc, sums);
  }

  // The warp's lanes summed; lane 0 stores the columns below N.
  SmallVector<Value> sums(loop.getResults());
  for (Value &sum : sums)
    for (int64_t offset = kLanes / 2; offset > 0; offset /= 2)
      sum = arith::AddFOp::create(
          b, loc, sum,
          mlir::gpu::ShuffleOp::create(b, loc, sum, offset, kLanes,
                                       mlir::gpu::ShuffleMode::XOR)
              .getShuffleResult());
  auto first = scf::IfOp::create(b, loc, e.less(lane, 1),
                                 /*withElseRegion=*/false);
  b.setInsertionPoint(first.thenBlock()->getTerminator());
  for (int64_t c = 0; c < columns; ++c) {
    OpBuilder::InsertionGuard guard(b);
    if (p.n % columns != 0) {
      auto below =
          scf::IfOp::create(b, loc, e.less(e.add(e.mul(warp, columns), c), p.n),
                            /*withElseRegion=*/false);
      b.setInsertionPoint(below.thenBlock()->getTerminator());
    }
    for (int64_t row = 0; row < p.rows; ++row) {
      SmallVector<Value> indices = e.delinearize(e.index(row), p.outerShape);
      indices.push_back(columnIndex[c]);
      Value sum = sums[row * columns + c];
      if (!filled) {
        Value old = memref::LoadOp::create(b, loc, p.out, indices);
        sum = arith::AddFOp::create(b, loc, sum,
                                    aicc::gpu::convertFloat(b, loc, old, f32));
      }
      aicc::gpu::storeContractionSums(b, loc, {sum}, p.out, indices, epilogue);
    }
  }
  Value out = p.out;
  p.op.erase();
  if (epilogue)
    epilogue->erase(out);
}

struct GPUInt4ProductsPass
    : aicc::gpu::impl::GPUInt4ProductsPassBase<GPUInt4ProductsPass> {
  void runOnOperation() override {
    // Each kernel erases ops around the one it matched (the fill before,
    // the epilogue after): the search starts over.
    bool found = true;
    while (found) {
      found = false;
      for (linalg::GenericOp op :
           aicc::gpu::genericsOutsideLaunches(getOperation())) {
        std::optional<Int4Product> product = matchInt4Product(op);
        if (!product)
          continue;
        emitKernel(*product);
        found = true;
        break;
      }
    }
  }
};

} // namespace
