//===- Int4Products.cpp - Products by packed 4-bit weights ----------------===//
//
// A product of few rows by a weight of 4-bit values (tile.matmul_int4:
// weight-only quantization) reads the weight once and does little else
// with it: its time is the weight's bytes over the memory's bandwidth,
// and the arithmetic of dequantizing each value must stay below that. A
// block of four warps takes a few columns of the result and its threads
// split k: each reads 16 bytes (32 values) of each column's weight at a
// time, and the rows' inputs once for all the columns (read per column,
// the inputs would move more bytes than the packed weight). A value
// becomes a float in two integer operations, its four bits or'ed into the
// mantissa of a power of two and the power and the zero point subtracted,
// exactly; f16 inputs are multiplied two values at a time. Each group's
// scale multiplies its chunk's sum once.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

#include "Cost.h"
#include "Epilogue.h"
#include "Utils.h"

#include "Tile/Transforms/Groups.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
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
/// Warps a block: they split k.
constexpr int64_t kWarps = 4;
/// The widest read of a lane, in bytes.
constexpr int64_t kVectorBytes = 16;
/// The values of one lane's read: 16 bytes of the packed weight.
constexpr int64_t kChunk = 2 * kVectorBytes;
/// Most rows the kernel takes: it keeps one sum a row per lane, and the
/// rows' inputs of every read in flight.
constexpr int64_t kMaxRows = 16;
/// The most weight reads (16 bytes each) a thread makes, over its chunks
/// and columns (for each row: more rows, fewer columns).
constexpr int64_t kMaxReads = 16;
/// Blocks the kernel keeps before it gives a block more columns: about
/// four an SM of a data-center GPU (132 on an H100), for the memory's
/// latency.
constexpr int64_t kMinBlocks = 512;
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
  // (The mark ConvertMatmulInt4 sets, and its structure.)
  if (!op->hasAttr(aicc::tile::kOwnKernelAttr) ||
      !op.hasPureBufferSemantics() || op.getNumDpsInputs() != 4 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() < 5)
    return std::nullopt;
  unsigned loops = op.getNumLoops(), outer = loops - 4, nLoop = outer,
           hLoop = outer + 3;
  auto iterators = op.getIteratorTypesArray();
  for (unsigned i = 0; i < loops; ++i)
    if ((i <= nLoop) != (iterators[i] == utils::IteratorType::parallel))
      return std::nullopt;
  if (op.getIndexingMapsArray() !=
      aicc::tile_to_linalg::int4ProductMaps(op.getContext(), outer))
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

/// The kernel's shape: each thread owns `steps` chunks of k (its index
/// plus multiples of the block's threads); each block computes `columns`
/// columns of the result.
struct Shape {
  int64_t chunks, steps, columns, blocks;
  bool ragged; ///< some threads' last chunk is past k
};

Shape shapeOf(const Int4Product &p) {
  Shape s;
  int64_t threads = kWarps * kLanes;
  s.chunks = p.k / kChunk;
  s.steps = llvm::divideCeilSigned(s.chunks, threads);
  s.ragged = s.chunks % threads != 0;
  // The most columns (the rows' inputs, read once, serve them all) within
  // kMaxReads weight reads a thread, while kMinBlocks blocks remain.
  int64_t most = std::max<int64_t>(1, kMaxReads / (s.steps * p.rows));
  s.columns = 1;
  for (int64_t columns = 2; columns <= most; columns *= 2)
    if (llvm::divideCeilSigned(p.n, columns) >= kMinBlocks)
      s.columns = columns;
  s.blocks = llvm::divideCeilSigned(p.n, s.columns);
  return s;
}

/// Emits `p`'s kernel before it and erases it (and its fill).
void emitKernel(Int4Product &p) {
  OpBuilder b(p.op);
  Location loc = p.op.getLoc();
  aicc::gpu::IndexBuilder e{b, loc};
  MLIRContext *context = b.getContext();
  Type f32 = b.getF32Type(), i32 = b.getI32Type(), f16 = b.getF16Type();
  Type xType = cast<MemRefType>(p.x.getType()).getElementType();
  int64_t xLanes = kVectorBytes / (xType.getIntOrFloatBitWidth() / 8);
  // f16 inputs: the values dequantized and multiplied in f16 pairs.
  bool halves = xType.isF16();
  auto pairType = VectorType::get({2}, f16);
  auto contract =
      arith::FastMathFlagsAttr::get(context, arith::FastMathFlags::contract);
  auto xVector = VectorType::get({xLanes}, xType);
  auto bytesVector = VectorType::get({kVectorBytes}, b.getI8Type());
  auto wordsVector = VectorType::get({4}, i32);
  auto wordType = VectorType::get({1}, i32);
  Shape shape = shapeOf(p);
  int64_t threads = kWarps * kLanes, columns = shape.columns;
  int64_t outputs = p.rows * columns;

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

  b.setInsertionPoint(p.op);
  mlir::gpu::LaunchOp launch =
      aicc::gpu::createLaunch(b, loc, {shape.blocks, 1, 1}, threads);
  aicc::gpu::recordFlops(launch, 2 * p.rows * p.n * p.k);
  // Each warp's sums, [warp][row * columns + column].
  Value partial = memref::AllocaOp::create(
      b, loc,
      MemRefType::get({kWarps, outputs}, f32, MemRefLayoutAttrInterface{},
                      aicc::gpu::workgroupSpace(context)));
  Value thread = launch.getThreadIds().x;
  Value lane = e.rem(thread, kLanes);
  Value warp = e.div(thread, kLanes);
  Value firstColumn = e.mul(launch.getBlockIds().x, columns);
  Value lastColumn = e.index(p.n - 1);

  auto f32Constant = [&](float v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  };
  auto i32Constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  Value zero = f32Constant(0);

  // The thread's chunks; a chunk past k reads the last one and counts
  // zero.
  SmallVector<Value> chunkIndex, chunkValid;
  for (int64_t step = 0; step < shape.steps; ++step) {
    Value chunk = e.add(thread, step * threads);
    Value valid;
    if (shape.ragged && step == shape.steps - 1) {
      valid = e.less(chunk, shape.chunks);
      chunk = arith::MinUIOp::create(b, loc, chunk, e.index(shape.chunks - 1));
    }
    chunkIndex.push_back(chunk);
    chunkValid.push_back(valid);
  }
  auto keep = [&](Value v, Value valid) -> Value {
    if (!valid)
      return v;
    Value none = arith::ConstantOp::create(b, loc, b.getZeroAttr(v.getType()));
    return arith::SelectOp::create(b, loc, valid, v, none);
  };
  // The rows' inputs of the thread's chunks: [step][row][vector].
  auto loadInputs = [&]() {
    SmallVector<SmallVector<SmallVector<Value>>> xs(shape.steps);
    for (int64_t step = 0; step < shape.steps; ++step)
      for (int64_t row = 0; row < p.rows; ++row) {
        SmallVector<Value> vectors;
        for (int64_t v = 0; v < kChunk / xLanes; ++v)
          vectors.push_back(
              keep(vector::LoadOp::create(
                       b, loc, xVector, x,
                       ValueRange{
                           e.index(row),
                           e.add(e.mul(chunkIndex[step], kChunk), v * xLanes)},
                       /*nontemporal=*/false, llvm::MaybeAlign(kVectorBytes)),
                   chunkValid[step]));
        if (halves) {
          // Each vector's eight inputs as the pairs (i, i + 4), i < 4, that
          // the dequantized pairs multiply (prmt of its 32-bit words).
          SmallVector<Value> pairs;
          for (Value vector : vectors) {
            Value words = vector::BitCastOp::create(
                b, loc, VectorType::get({4}, i32), vector);
            auto word = [&](int64_t k) -> Value {
              return vector::ExtractOp::create(b, loc, words,
                                               ArrayRef<int64_t>{k});
            };
            for (int64_t i = 0; i < 4; ++i) {
              Value pair = NVVM::PermuteOp::create(
                  b, loc, i32, word(i / 2), word(i / 2 + 2),
                  i32Constant(i % 2 ? 0x7632 : 0x5410),
                  NVVM::PermuteMode::DEFAULT);
              pairs.push_back(vector::BitCastOp::create(
                  b, loc, pairType,
                  vector::BroadcastOp::create(b, loc, wordType, pair)));
            }
          }
          vectors = std::move(pairs);
        }
        xs[step].push_back(std::move(vectors));
      }
    return xs;
  };
  // The block's reads, four values per step and column: the 16 bytes as
  // four words, the group's scale (f32) and its zero point's offsets (the
  // f16 pairs -(1024 + zp) and -(64 + zp), or 2^23 + zp in f32), flattened
  // [step][column][4].
  // Past N (the last block of a ragged N), the last column again,
  // computed and not stored.
  auto columnOf = [&](int64_t c) -> Value {
    Value column = e.add(firstColumn, c);
    return p.n % columns == 0
               ? column
               : Value(arith::MinUIOp::create(b, loc, column, lastColumn));
  };
  auto loadColumns = [&]() {
    SmallVector<Value> values;
    for (int64_t step = 0; step < shape.steps; ++step) {
      Value valid = chunkValid[step];
      Value group = e.div(e.mul(chunkIndex[step], kChunk), p.group);
      for (int64_t c = 0; c < columns; ++c) {
        Value column = columnOf(c);
        // (Rows of K/2 bytes, K a multiple of 32, in buffers aligned to
        // 64 bytes: every read is an aligned 16-byte vector.)
        Value bytes = vector::LoadOp::create(
            b, loc, bytesVector, packed,
            ValueRange{column, e.mul(chunkIndex[step], kChunk / 2)},
            /*nontemporal=*/false, llvm::MaybeAlign(kVectorBytes));
        values.push_back(
            keep(vector::BitCastOp::create(b, loc, wordsVector, bytes), valid));
        Value scale =
            memref::LoadOp::create(b, loc, p.scales, ValueRange{column, group});
        values.push_back(
            keep(aicc::gpu::convertFloat(b, loc, scale, f32), valid));
        Value zp = memref::LoadOp::create(b, loc, p.zeroPoints,
                                          ValueRange{column, group});
        Value zpFloat = p.zeroUnsigned
                            ? Value(arith::UIToFPOp::create(b, loc, f32, zp))
                            : Value(arith::SIToFPOp::create(b, loc, f32, zp));
        if (halves) {
          // -(1024 + zp) and -(64 + zp) in f16 (exact: integers below
          // 2048), each as a pair.
          auto offset = [&](float magic) -> Value {
            return vector::BroadcastOp::create(
                b, loc, pairType,
                arith::TruncFOp::create(
                    b, loc, f16,
                    arith::NegFOp::create(
                        b, loc,
                        arith::AddFOp::create(b, loc, zpFloat,
                                              f32Constant(magic)))));
          };
          values.push_back(offset(kHalfMagic));
          values.push_back(offset(kHalfMagic / 16));
        } else {
          // 2^23 + zp, exact for an 8-bit zero point; (2^23 + v) -
          // (2^23 + zp) is v - zp exactly. (The fourth value is unused.)
          Value offset =
              arith::AddFOp::create(b, loc, zpFloat, f32Constant(kMagic));
          values.append({offset, offset});
        }
      }
    }
    return values;
  };
  // The sum over one chunk of row `row`'s inputs times one column's values,
  // without the group's scale.
  Value pairZero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(pairType, b.getF16FloatAttr(0)));
  // (a & mask) | magic as one lop3: ptxas leaves an and and an or apart,
  // an instruction more a pair.
  auto maskedMagic = [&](Value a, uint32_t mask) -> Value {
    return LLVM::InlineAsmOp::create(
               b, loc, i32,
               ValueRange{a, i32Constant(mask),
                          i32Constant(kHalfMagicPairBits)},
               "lop3.b32 $0, $1, $2, $3, 0xEA;", "=r,r,n,n",
               /*has_side_effects=*/false, /*is_align_stack=*/false,
               LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
        .getResult(0);
  };
  // The sum over one chunk of a row's inputs times one column's values,
  // without the group's scale. `inputs`: the row's input vectors (f32,
  // bf16) or pairs (f16, see loadInputs).
  auto chunkSum = [&](Value words, Value offset, Value sixteenthOffset,
                      ArrayRef<Value> inputs) -> Value {
    Value sum = zero;
    if (halves) {
      // Two values at a time, in f16 pairs. Of a word w (values k..k+7,
      // value i in bits 4i), w & 0x000F000F holds values 0 and 4 at the
      // bottom of its halves: or'ed into the mantissas of 1024 they read
      // 1024 + v, less 1024 + zp is v - zp. w & 0x00F000F0 holds values 1
      // and 5 times 16: 1024 + 16 v, times 1/16 less 64 + zp is v - zp
      // (one fma; every step exact). w >> 8 gives values 2, 6, 3 and 7
      // alike. Each pair multiplies its inputs' pair; two pair sums over
      // the chunk's 32 values, then f32.
      Value sixteenth = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(pairType, b.getF16FloatAttr(1.0 / 16)));
      auto pairOf = [&](Value bits, uint32_t mask) -> Value {
        return vector::BitCastOp::create(
            b, loc, pairType,
            vector::BroadcastOp::create(b, loc, wordType,
                                        maskedMagic(bits, mask)));
      };
      SmallVector<Value, 2> pairSums(2, pairZero);
      for (int64_t w = 0; w < 4; ++w) {
        Value word =
            vector::ExtractOp::create(b, loc, words, ArrayRef<int64_t>{w});
        Value high = arith::ShRUIOp::create(b, loc, word, i32Constant(8));
        for (auto [bits, first] : {std::pair{word, 0}, std::pair{high, 2}}) {
          Value ones =
              arith::AddFOp::create(b, loc, pairOf(bits, 0x000F000F), offset);
          Value sixteens = arith::AddFOp::create(
              b, loc,
              arith::MulFOp::create(b, loc, pairOf(bits, 0x00F000F0), sixteenth,
                                    contract),
              sixteenthOffset, contract);
          for (auto [values, i] :
               {std::pair{ones, first}, std::pair{sixteens, first + 1}}) {
            // (arith, not math.fma, which the device pipeline widens to
            // f32; allowed to contract, the backend fuses the two into
            // one f16x2 fma.)
            Value &pairSum = pairSums[i % 2];
            pairSum = arith::AddFOp::create(
                b, loc,
                arith::MulFOp::create(b, loc, inputs[w * 4 + i], values,
                                      contract),
                pairSum, contract);
          }
        }
      }
      Value both = arith::AddFOp::create(b, loc, pairSums[0], pairSums[1]);
      Value wide =
          arith::ExtFOp::create(b, loc, VectorType::get({2}, f32), both);
      return arith::AddFOp::create(
          b, loc, vector::ExtractOp::create(b, loc, wide, ArrayRef<int64_t>{0}),
          vector::ExtractOp::create(b, loc, wide, ArrayRef<int64_t>{1}));
    }
    for (int64_t w = 0; w < 4; ++w) {
      Value word =
          vector::ExtractOp::create(b, loc, words, ArrayRef<int64_t>{w});
      // f32 (and bf16) inputs: one value at a time, the word's values
      // summed apart (a short chain of dependent additions).
      Value wordSum = zero;
      for (int64_t i = 0; i < 8; ++i) {
        Value bits =
            i ? Value(arith::ShRUIOp::create(b, loc, word, i32Constant(4 * i)))
              : word;
        bits = arith::OrIOp::create(
            b, loc, arith::AndIOp::create(b, loc, bits, i32Constant(0xF)),
            i32Constant(kMagicBits));
        Value value = arith::SubFOp::create(
            b, loc, arith::BitcastOp::create(b, loc, f32, bits), offset);
        int64_t position = w * 8 + i;
        Value xv =
            vector::ExtractOp::create(b, loc, inputs[position / xLanes],
                                      ArrayRef<int64_t>{position % xLanes});
        wordSum = math::FmaOp::create(
            b, loc, aicc::gpu::convertFloat(b, loc, xv, f32), value, wordSum);
      }
      sum = arith::AddFOp::create(b, loc, sum, wordSum);
    }
    return sum;
  };

  SmallVector<SmallVector<SmallVector<Value>>> xs = loadInputs();
  SmallVector<Value> reads = loadColumns();
  SmallVector<Value> sums(outputs, zero);
  for (int64_t step = 0; step < shape.steps; ++step)
    for (int64_t c = 0; c < columns; ++c) {
      int64_t at = 4 * (step * columns + c);
      for (int64_t row = 0; row < p.rows; ++row) {
        Value &sum = sums[row * columns + c];
        sum = math::FmaOp::create(
            b, loc, reads[at + 1],
            chunkSum(reads[at], reads[at + 2], reads[at + 3], xs[step][row]),
            sum);
      }
    }
  // Each warp's lanes summed, a row's columns at once: with 2^m columns,
  // the first m exchanges (offsets 16, 8, ...) each halve the values a
  // lane holds, a lane keeping the upper half where its offset bit is set
  // and adding its partner's copy of it, so that lane l ends with column
  // l >> (5 - m); the other exchanges sum as usual. 2^m - 1 + 5 - m
  // shuffles a row instead of 5 a column. The first lane of each column
  // stores it to shared memory; then thread j < rows * columns sums the
  // warps' j-th and stores it (below N).
  int64_t halvings = llvm::Log2_64(columns);
  int64_t lanesPerColumn = kLanes >> halvings;
  auto exchange = [&](Value v, int64_t offset) -> Value {
    return mlir::gpu::ShuffleOp::create(b, loc, v, offset, kLanes,
                                        mlir::gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  Value laneColumn = e.div(lane, lanesPerColumn);
  SmallVector<Value> rowSums;
  for (int64_t row = 0; row < p.rows; ++row) {
    SmallVector<Value> values(sums.begin() + row * columns,
                              sums.begin() + (row + 1) * columns);
    for (int64_t step = 0; step < halvings; ++step) {
      int64_t offset = kLanes >> (step + 1);
      int64_t half = values.size() / 2;
      Value upper = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(b, loc, lane, e.index(offset)), e.index(0));
      SmallVector<Value> kept;
      for (int64_t k = 0; k < half; ++k) {
        Value keep =
            arith::SelectOp::create(b, loc, upper, values[k + half], values[k]);
        Value send =
            arith::SelectOp::create(b, loc, upper, values[k], values[k + half]);
        kept.push_back(
            arith::AddFOp::create(b, loc, keep, exchange(send, offset)));
      }
      values = std::move(kept);
    }
    Value sum = values.front();
    for (int64_t offset = lanesPerColumn / 2; offset > 0; offset /= 2)
      sum = arith::AddFOp::create(b, loc, sum, exchange(sum, offset));
    rowSums.push_back(sum);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    auto firstLane =
        scf::IfOp::create(b, loc, e.less(e.rem(lane, lanesPerColumn), 1),
                          /*withElseRegion=*/false);
    b.setInsertionPoint(firstLane.thenBlock()->getTerminator());
    for (int64_t row = 0; row < p.rows; ++row)
      memref::StoreOp::create(
          b, loc, rowSums[row], partial,
          ValueRange{warp, e.add(laneColumn, row * columns)});
  }
  mlir::gpu::BarrierOp::create(b, loc);
  Value output = thread;
  Value column = e.add(firstColumn, e.rem(output, columns));
  auto storing = scf::IfOp::create(
      b, loc, e.both(e.less(output, outputs), e.less(column, p.n)),
      /*withElseRegion=*/false);
  b.setInsertionPoint(storing.thenBlock()->getTerminator());
  Value sum = zero;
  for (int64_t w = 0; w < kWarps; ++w)
    sum = arith::AddFOp::create(
        b, loc, sum,
        memref::LoadOp::create(b, loc, partial,
                               ValueRange{e.index(w), output}));
  SmallVector<Value> indices =
      e.delinearize(e.div(output, columns), p.outerShape);
  indices.push_back(column);
  if (!filled) {
    Value old = memref::LoadOp::create(b, loc, p.out, indices);
    sum = arith::AddFOp::create(b, loc, sum,
                                aicc::gpu::convertFloat(b, loc, old, f32));
  }
  aicc::gpu::storeContractionSums(b, loc, {sum}, p.out, indices, epilogue);
  Value out = p.out;
  p.op.erase();
  if (epilogue)
    epilogue->erase(out);
}

struct GPUInt4ProductsPass
    : aicc::gpu::impl::GPUInt4ProductsPassBase<GPUInt4ProductsPass> {
  void runOnOperation() override {
    (void)aicc::gpu::rewriteGenericsOutsideLaunches(
        getOperation(), [](linalg::GenericOp op) -> FailureOr<bool> {
          std::optional<Int4Product> product = matchInt4Product(op);
          if (product)
            emitKernel(*product);
          return product.has_value();
        });
  }
};

} // namespace
