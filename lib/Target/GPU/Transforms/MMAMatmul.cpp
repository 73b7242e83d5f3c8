//===- MMAMatmul.cpp - Contractions on NVIDIA tensor cores ----------------===//
//
// One kernel shape serves matrix products, batched products and direct
// convolutions (as implicit GEMMs): the contraction's m, n and k loops are
// flattened into M, N and K; each block computes a BM x BN tile of the output
// from BK-deep slices of A and B staged through shared memory, and each warp
// a (BM / warpsM) x (BN / warpsN) part of it with mma.sync m16n8k16 on
// fragments loaded by ldmatrix. The next slice is read from global memory
// into registers while the tensor cores work on the current one.
//
// An operand whose contiguous dimension is the innermost reduction loop or
// the innermost row loop (m for A, n for B), in steps of 8, is read 16 bytes
// (8 halves) at a time and stored so in shared memory: k-contiguous tiles
// as rows of k, row-contiguous ones as rows of m or n, whose fragments
// ldmatrix then reads transposed. Any other operand (a convolution's input)
// is read one element at a time.
//
// 8-bit integer products (u8 or s8 by u8 or s8, summed in i32) take the
// same kernel on mma.sync m16n8k32, whose fragments are the 16-bit ones
// byte for byte: ldmatrix reads them from tiles stored as rows of k (it
// cannot transpose bytes, so an operand that is not contiguous along k is
// read one element at a time into such a tile).
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "Cost.h"
#include "KernelTiles.h"
#include "MMAKernel.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUMMAMATMULPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace aicc::gpu::mma {

/// Where an operand's innermost (contiguous) dimension comes from: its copy
/// into shared memory walks that loop fastest so that a warp's reads are
/// coalesced.
bool innermostIsReduction(AffineMap map, ArrayRef<unsigned> kLoops) {
  if (map.getNumResults() == 0)
    return true;
  AffineExpr last = map.getResults().back();
  for (unsigned loop : kLoops)
    if (last.isFunctionOfDim(loop))
      return true;
  return false;
}

Type storageType(Type mmaType) {
  if (mmaType.isTF32())
    return Float32Type::get(mmaType.getContext());
  return mmaType;
}

/// Elements of `mmaType`'s storage in 16 bytes: one row of an ldmatrix
/// matrix.
static int64_t elementsIn16Bytes(Type mmaType) {
  return 128 / storageType(mmaType).getIntOrFloatBitWidth();
}

int64_t sharedPad(Type mmaType, bool rowsOfK) {
  return (mmaType.isTF32() && rowsOfK ? 2 : 1) * elementsIn16Bytes(mmaType);
}

int64_t mmaDepth(Type mmaType) {
  if (mmaType.isInteger(8))
    return 32;
  return mmaType.isTF32() ? 8 : 16;
}

Type accumulatorType(Type mmaType) {
  Builder b(mmaType.getContext());
  return mmaType.isInteger(8) ? Type(b.getI32Type()) : Type(b.getF32Type());
}

/// Each 32-bit register of an mma.sync fragment `fragment` (vector<RxWxT>,
/// W elements of T to a register) as one i32.
static SmallVector<Value> fragmentRegisters(OpBuilder &b, Location loc,
                                            Value fragment) {
  SmallVector<Value> words;
  int64_t rows = cast<VectorType>(fragment.getType()).getDimSize(0);
  for (int64_t row = 0; row < rows; ++row) {
    Value packed =
        vector::ExtractOp::create(b, loc, fragment, ArrayRef<int64_t>{row});
    Value word = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), packed);
    words.push_back(
        vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0}));
  }
  return words;
}

/// One tensor-core product `acc + a * b` of a warp (see MMAKernel.h). f16
/// and tf32 (f32 registers, m16n8k8) go through nvgpu.mma.sync; bf16 and
/// 8-bit integers (m16n8k32, u8 or s8 as `unsignedA`/`unsignedB` say),
/// which its lowering does not type, straight to nvvm.mma.sync with each
/// 32 bits of a fragment as one register.
Value mmaSync(OpBuilder &b, Location loc, Value a, Value bFragment, Value acc,
              bool unsignedA, bool unsignedB) {
  auto type = cast<VectorType>(a.getType()).getElementType();
  if (type.isF32())
    return nvgpu::MmaSyncOp::create(b, loc, a, bFragment, acc,
                                    ArrayRef<int64_t>{16, 8, 8},
                                    /*tf32Enabled=*/true);
  if (type.isF16())
    return nvgpu::MmaSyncOp::create(b, loc, a, bFragment, acc,
                                    ArrayRef<int64_t>{16, 8, 16});
  SmallVector<Value> sums;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      sums.push_back(
          vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, j}));
  bool integer = type.isInteger(8);
  Type sum = accumulatorType(type);
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {sum, sum, sum, sum});
  auto integerType = [](bool isUnsigned) {
    return isUnsigned ? NVVM::MMATypes::u8 : NVVM::MMATypes::s8;
  };
  Value result = NVVM::MmaOp::create(
      b, loc, resultType, fragmentRegisters(b, loc, a),
      fragmentRegisters(b, loc, bFragment), sums,
      ArrayRef<int64_t>{16, 8, integer ? 32 : 16}, std::nullopt,
      integer ? std::optional(NVVM::MMAIntOverflow::wrapped) : std::nullopt,
      integer ? std::array<NVVM::MMATypes, 2>{integerType(unsignedA),
                                              integerType(unsignedB)}
              : std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                              NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  Value next = acc;
  for (int64_t e = 0; e < 4; ++e)
    next = vector::InsertOp::create(
        b, loc, LLVM::ExtractValueOp::create(b, loc, result, e), next,
        ArrayRef<int64_t>{e / 2, e % 2});
  return next;
}

LdMatrixLane::LdMatrixLane(Emitter &e, Value lane, int64_t kWidth) {
  Value matrix = e.div(lane, 8);
  matrixRow = e.rem(lane, 8);
  aRowOffset = e.mul(e.rem(matrix, 2), 8);
  aKOffset = e.mul(e.div(matrix, 2), kWidth);
  bRowOffset = e.mul(e.div(matrix, 2), 8);
  bKOffset = e.mul(e.rem(matrix, 2), kWidth);
}

SmallVector<Value, 2> splitBFragments(OpBuilder &b, Location loc, Value both) {
  auto bothType = cast<VectorType>(both.getType());
  Type half = bothType.getElementType();
  auto fragB = VectorType::get({2, bothType.getDimSize(1)}, half);
  Value zero =
      arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(fragB)));
  // Matrices 0 and 1 are the first n-tile (k 0-7, 8-15), 2 and 3 the next.
  SmallVector<Value, 2> result;
  for (int64_t first : {0, 2}) {
    Value fragment = zero;
    for (int64_t row = 0; row < 2; ++row)
      fragment = vector::InsertOp::create(
          b, loc,
          vector::ExtractOp::create(b, loc, both,
                                    ArrayRef<int64_t>{first + row}),
          fragment, ArrayRef<int64_t>{row});
    result.push_back(fragment);
  }
  return result;
}

Kernel::Kernel(linalg::GenericOp op, const aicc::gpu::Contraction &c,
               const ContractionShape &shape, TileShape tiles, bool overwrite,
               std::optional<aicc::gpu::Epilogue> epilogue, bool tma)
    : op(op), c(c), half(shape.half), stored(storageType(shape.half)),
      overwrite(overwrite), epilogue(epilogue), m(shape.m), n(shape.n),
      k(shape.k), batches(shape.batches), accessA(shape.a), accessB(shape.b),
      signature(contractionSignature(shape)), tiles(tiles), tma(tma) {
  assert((overwrite || !epilogue) && "an epilogue needs a fresh output");
  assert(admits(shape, tiles) && "a tiling the kernel cannot run");
  // An epilogue writing over the operands waits for the split-K sum.
  if (this->epilogue && this->epilogue->overwritesOperands && tiles.splits == 1)
    this->epilogue.reset();
  // The split-K sum computes an epilogue over its loops in the order it
  // reads the sums: not through a permutation.
  if (this->epilogue && !this->epilogue->readLoops.empty() && tiles.splits > 1)
    this->epilogue.reset();
}

SmallVector<Kernel::Coordinates>
Kernel::coordinates(Emitter &e, const Operand &operand, Value thread) {
  int64_t threads = tiles.threads();
  SmallVector<Coordinates> result;
  if (operand.access != Access::Scalar) {
    // Vector v = i * threads + thread of the tile, its pieceElements
    // elements along the contiguous dimension: consecutive threads read
    // consecutive pieces.
    bool alongK = operand.access == Access::KVector;
    int64_t perLine = (alongK ? tiles.bk : operand.tileRows) / pieceElements;
    for (int64_t i = 0; i < operand.perThread(tiles, pieceElements); ++i) {
      Value v = e.add(thread, i * threads);
      Value along = e.mul(e.rem(v, perLine), pieceElements);
      Value line = e.div(v, perLine);
      result.push_back(alongK ? Coordinates{line, along}
                              : Coordinates{along, line});
    }
    return result;
  }
  int64_t fast = operand.kFastest ? tiles.bk : operand.tileRows;
  // With threads a multiple of the fast extent, each thread keeps one fast
  // coordinate and steps the slow one by threads / fast.
  Value fixed = threads % fast == 0 ? e.rem(thread, fast) : Value();
  Value first = threads % fast == 0 ? e.div(thread, fast) : Value();
  for (int64_t i = 0; i < operand.perThread(tiles, pieceElements); ++i) {
    Value fastIndex, slowIndex;
    if (fixed) {
      fastIndex = fixed;
      slowIndex = e.add(first, i * (threads / fast));
    } else {
      // Element i of this thread is number i * threads + thread.
      Value linear = e.add(thread, i * threads);
      fastIndex = e.rem(linear, fast);
      slowIndex = e.div(linear, fast);
    }
    result.push_back(operand.kFastest ? Coordinates{slowIndex, fastIndex}
                                      : Coordinates{fastIndex, slowIndex});
  }
  return result;
}

SmallVector<Kernel::SliceAccess>
Kernel::sliceAccesses(Emitter &e, const Operand &operand,
                      ArrayRef<Coordinates> coordinates, Value k0,
                      Value tileRow0, bool clamp) {
  // Each distinct row and column is delinearized once.
  DenseMap<Value, SmallVector<Value>> rowLoops, kLoops;
  DenseMap<Value, Value> rowValid, kValid;
  // An index past its extent, where `clamp`, reads element 0 instead.
  auto within = [&](Value global, int64_t extent, Value &valid) {
    valid = e.less(global, extent);
    if (!clamp)
      return global;
    return arith::SelectOp::create(e.b, e.loc, valid, global, e.index(0))
        .getResult();
  };
  SmallVector<SliceAccess> accesses;
  for (const Coordinates &at : coordinates) {
    if (!rowLoops.count(at.row)) {
      Value global = e.add(tileRow0, at.row);
      Value &valid = rowValid[at.row];
      if (operand.rows % operand.tileRows != 0)
        global = within(global, operand.rows, valid);
      SmallVector<Value> &loops = rowLoops[at.row];
      loops.assign(op.getNumLoops(), Value());
      e.delinearize(global, operand.rowLoops, c.bounds, loops);
    }
    if (!kLoops.count(at.col)) {
      Value global = e.add(k0, at.col);
      Value &valid = kValid[at.col];
      if (k % tiles.bk != 0)
        global = within(global, k, valid);
      SmallVector<Value> &loops = kLoops[at.col];
      loops.assign(op.getNumLoops(), Value());
      e.delinearize(global, c.k, c.bounds, loops);
    }
    SmallVector<Value> loops(blockLoops);
    for (unsigned loop : operand.rowLoops)
      loops[loop] = rowLoops[at.row][loop];
    for (unsigned loop : c.k)
      loops[loop] = kLoops[at.col][loop];
    accesses.push_back({e.apply(operand.map, loops),
                        e.both(rowValid[at.row], kValid[at.col])});
  }
  return accesses;
}

/// `value` (f32, or a vector of f32) rounded to the nearest tf32 (ties
/// away from zero), kept as f32: the tensor cores would otherwise drop the
/// low 13 bits of the mantissa. cvt.rna.tf32.f32 as inline PTX without
/// side effects (nvvm.convert.float.to.tf32 declares none, which the
/// buffer passes that run after this one refuse).
static Value roundToTF32(OpBuilder &b, Location loc, Value value) {
  auto round = [&](Value x) -> Value {
    Value bits =
        LLVM::InlineAsmOp::create(
            b, loc, b.getI32Type(), ValueRange{x}, "cvt.rna.tf32.f32 $0, $1;",
            "=r,f", /*has_side_effects=*/false, /*is_align_stack=*/false,
            LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
            .getResult(0);
    return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
  };
  auto vectorType = dyn_cast<VectorType>(value.getType());
  if (!vectorType)
    return round(value);
  Value result = value;
  for (int64_t i = 0; i < vectorType.getNumElements(); ++i)
    result = vector::InsertOp::create(
        b, loc,
        round(vector::ExtractOp::create(b, loc, value, ArrayRef<int64_t>{i})),
        result, ArrayRef<int64_t>{i});
  return result;
}

SmallVector<Value> Kernel::loadSlice(Emitter &e, const Operand &operand,
                                     ArrayRef<Coordinates> coordinates,
                                     Value k0, Value tileRow0) {
  SmallVector<Value> values;
  for (const SliceAccess &access :
       sliceAccesses(e, operand, coordinates, k0, tileRow0, false)) {
    Value value =
        operand.access == Access::Scalar
            ? e.load(operand.memref, access.indices, access.valid, stored)
            : e.loadVector(operand.memref, access.indices, access.valid,
                           VectorType::get({kVectorElements}, stored));
    if (half.isTF32())
      value = roundToTF32(e.b, e.loc, value);
    values.push_back(value);
  }
  return values;
}

/// Indices into a shared buffer: `stage` first unless null.
SmallVector<Value> sharedIndices(Value stage, Value first, Value second) {
  if (!stage)
    return {first, second};
  return {stage, first, second};
}

/// Where the piece of `operand`'s slice at (`row`, `k`) goes in its
/// shared tile (of `stage` unless null): [row][k], or [k][row] for a tile
/// stored as rows of k (row-vector access).
static SmallVector<Value> pieceIndices(const Operand &operand, Value stage,
                                       Value row, Value k) {
  if (operand.access == Access::RowVector)
    return sharedIndices(stage, k, row);
  return sharedIndices(stage, row, k);
}

void Kernel::storeSlice(Emitter &e, const Operand &operand,
                        ArrayRef<Coordinates> coordinates,
                        ArrayRef<Value> values, Value stage) {
  for (auto [at, value] : llvm::zip_equal(coordinates, values)) {
    SmallVector<Value> indices = pieceIndices(operand, stage, at.row, at.col);
    if (operand.access == Access::Scalar)
      memref::StoreOp::create(e.b, e.loc, value, operand.shared, indices);
    else
      vector::StoreOp::create(e.b, e.loc, value, operand.shared, indices, false,
                              vectorAlignment(stored));
  }
}

Value Kernel::makeWorkspace(Emitter &e) {
  if (tiles.splits == 1)
    return {};
  // Planes of the epilogue's loops when there is one: its other inputs are
  // indexed by them.
  SmallVector<int64_t> shape{tiles.splits};
  if (epilogue)
    llvm::append_range(shape, epilogue->loopShape);
  else
    llvm::append_range(
        shape, cast<MemRefType>(op.getDpsInits()[0].getType()).getShape());
  return memref::AllocOp::create(e.b, e.loc,
                                 MemRefType::get(shape, e.b.getF32Type()));
}

void Kernel::emit() {
  OpBuilder b(op);
  Emitter e{{b, op.getLoc()}};
  // 8-bit operands reach wgmma's stages by TMA or in 16-byte cp.async
  // pieces of 16 elements (where both are read so: rows of whole pieces);
  // otherwise mma.sync takes an integer product in 128x128 blocks (fp8
  // products come only where pieces can read them: prepareContraction).
  if (tiles.wgmma && multipliesBytes(half)) {
    auto [a, bOperand] = wgmmaOperands(Value());
    pieceElements = kPieceBytes;
    auto inPieces = [&](const Operand &operand) {
      return vectorizable(operand.memref, operand.map, c.k, c.bounds,
                          pieceElements);
    };
    bool byTma = tma && tensorMapRead(a) && tensorMapRead(bOperand);
    if (!byTma && (!inPieces(a) || !inPieces(bOperand))) {
      tiles = TileShape{128, 128, 64, 2, 4};
      pieceElements = kVectorElements;
    }
  }
  if (tiles.wgmma)
    emitWgmma(e);
  else
    emitMmaSync(e);
  Value out = op.getDpsInits()[0];
  op.erase();
  if (epilogue)
    epilogue->erase(out);
}

void Kernel::recordWork(mlir::gpu::LaunchOp launch) const {
  // (An integer product's multiply-adds count as two operations each, as
  // floats' do.)
  int64_t flops =
      c.integer ? 2 * m * n * k * batches : aicc::gpu::countFlops(op);
  if (epilogue && tiles.splits == 1)
    flops += aicc::gpu::countFlops(epilogue->op);
  aicc::gpu::recordFlops(launch, flops, /*tensorCores=*/true,
                         stored.getIntOrFloatBitWidth());
  launch->setAttr(aicc::gpu::kLaunchContraction,
                  StringAttr::get(launch.getContext(), signature));
  launch->setAttr(aicc::gpu::kLaunchTiling,
                  StringAttr::get(launch.getContext(), formatTiles(tiles)));
}

void Kernel::emitMmaSync(Emitter &e) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  MLIRContext *context = b.getContext();
  Attribute workgroup = aicc::gpu::workgroupSpace(context);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value inA = op.getDpsInputs()[0], inB = op.getDpsInputs()[1];
  // Rows of k, or of m or n for row-vector access; padded (sharedPad).
  auto sharedType = [&](int64_t tileRows, Access access) {
    bool rowsOfK = access == Access::RowVector;
    int64_t pad = sharedPad(half, rowsOfK);
    SmallVector<int64_t> shape{tileRows, tiles.bk + pad};
    if (rowsOfK)
      shape = {tiles.bk, tileRows + pad};
    if (tiles.stages > 1)
      shape.insert(shape.begin(), tiles.stages);
    return MemRefType::get(shape, stored, MemRefLayoutAttrInterface{},
                           workgroup);
  };
  MemRefType sharedA = sharedType(tiles.bm, accessA);
  MemRefType sharedB = sharedType(tiles.bn, accessB);
  // Split: the partial sums' workspace, made before the launch.
  Value workspace = makeWorkspace(e);
  mlir::gpu::LaunchOp launch = aicc::gpu::createLaunch(
      b, loc,
      {(n + tiles.bn - 1) / tiles.bn, (m + tiles.bm - 1) / tiles.bm,
       batches * tiles.splits},
      tiles.threads());
  recordWork(launch);
  // Block-shared staging buffers; outlining makes them workgroup
  // attributions of the kernel.
  Value stagedA = memref::AllocaOp::create(b, loc, sharedA);
  Value stagedB = memref::AllocaOp::create(b, loc, sharedB);

  Operand a{inA,     maps[0],  c.m,
            m,       tiles.bm, innermostIsReduction(maps[0], c.k),
            accessA, stagedA};
  Operand bOperand{inB,     maps[1],  c.n,
                   n,       tiles.bn, innermostIsReduction(maps[1], c.k),
                   accessB, stagedB};

  blockLoops.assign(op.getNumLoops(), e.index(0));
  Value blockZ = launch.getBlockIds().z;
  e.delinearize(e.div(blockZ, tiles.splits), c.batch, c.bounds, blockLoops);
  // This block's slices: [first, first + count) of the `slices` of K.
  int64_t slices = (k + tiles.bk - 1) / tiles.bk;
  int64_t perSplit = (slices + tiles.splits - 1) / tiles.splits;
  Value split = tiles.splits > 1 ? e.rem(blockZ, tiles.splits) : Value();
  Value firstSlice = split ? e.mul(split, perSplit) : e.index(0);
  Value sliceCount =
      split ? arith::MinUIOp::create(
                  b, loc, e.index(perSplit),
                  arith::SubIOp::create(b, loc, e.index(slices), firstSlice))
                  .getResult()
            : e.index(slices);
  Value firstK0 = e.mul(firstSlice, tiles.bk);
  Value thread = launch.getThreadIds().x;
  Value lane = e.rem(thread, kWarp);
  Value warp = e.div(thread, kWarp);
  Value warpRow = e.mul(e.div(warp, tiles.warpsN), tiles.bm / tiles.warpsM);
  Value warpCol = e.mul(e.rem(warp, tiles.warpsN), tiles.bn / tiles.warpsN);
  Value tileM = e.mul(launch.getBlockIds().y, tiles.bm);
  Value tileN = e.mul(launch.getBlockIds().x, tiles.bn);

  auto accType = VectorType::get({2, 2}, accumulatorType(half));
  Value zero = arith::ConstantOp::create(
      b, loc, accType, cast<TypedAttr>(b.getZeroAttr(accType)));
  int64_t mTiles = tiles.mTiles(), nTiles = tiles.nTiles();
  SmallVector<Value> init(mTiles * nTiles, zero);

  SmallVector<Coordinates> atA = coordinates(e, a, thread);
  SmallVector<Coordinates> atB = coordinates(e, bOperand, thread);
  // The products of one slice, read from the buffers of `stage` (null:
  // the only ones), added to `acc`.
  auto multiply = [&](Value stage, ValueRange acc) {
    SmallVector<Value> sums(acc);
    // Four 8x8 matrices of 16-bit elements, rows of 16 bytes: two halves
    // (one tf32, four bytes) per register.
    bool tf32 = half.isTF32();
    int64_t rowElements = elementsIn16Bytes(half);
    auto fragA = VectorType::get({4, rowElements / 4}, stored);
    // A tile stored as rows of k (row-vector access) is read transposed.
    LdMatrixLane at(e, lane, rowElements);
    Value matrixRow = at.matrixRow;
    // tf32 tiles stored as rows of k, which ldmatrix cannot transpose (its
    // unit is 16 bits): each lane reads its four elements, (k 0-3 by lane
    // % 4, row 0-7 by lane / 4) of each matrix, one by one.
    Value laneK, laneRow;
    if (tf32) {
      laneK = e.rem(lane, 4);
      laneRow = e.div(lane, 4);
    }
    auto fragment = [&](const Operand &operand, Value tileRow, Value rowOffset,
                        Value kOffset, int64_t ks, bool isA) -> Value {
      Value row = e.add(tileRow, rowOffset), k = e.add(kOffset, ks);
      if (operand.access != Access::RowVector)
        return nvgpu::LdMatrixOp::create(
            b, loc, fragA, operand.shared,
            sharedIndices(stage, e.add(row, matrixRow), k),
            /*transpose=*/false, /*numTiles=*/4);
      if (!tf32)
        // Stored as rows of k: lane l addresses the matrix's k row l % 8.
        return nvgpu::LdMatrixOp::create(
            b, loc, fragA, operand.shared,
            sharedIndices(stage, e.add(k, matrixRow), row),
            /*transpose=*/true, /*numTiles=*/4);
      // Matrix i at (rows + 8 (i % 2), k + 4 (i / 2)) for A, (rows + 8 (i /
      // 2), k + 4 (i % 2)) for B, as LdMatrixLane lays them out.
      Value fragmentValue = arith::ConstantOp::create(
          b, loc, fragA,
          DenseElementsAttr::get(fragA, b.getFloatAttr(stored, 0)));
      Value base = e.add(tileRow, laneRow), kBase = e.add(laneK, ks);
      for (int64_t i = 0; i < 4; ++i) {
        int64_t rowStep = isA ? i % 2 : i / 2, kStep = isA ? i / 2 : i % 2;
        Value element =
            memref::LoadOp::create(b, loc, operand.shared,
                                   sharedIndices(stage, e.add(kBase, 4 * kStep),
                                                 e.add(base, 8 * rowStep)));
        fragmentValue = vector::InsertOp::create(b, loc, element, fragmentValue,
                                                 ArrayRef<int64_t>{i, 0});
      }
      return fragmentValue;
    };
    for (int64_t ks = 0; ks < tiles.bk; ks += mmaDepth(half)) {
      SmallVector<Value> fragmentsA, fragmentsB;
      for (int64_t mt = 0; mt < mTiles; ++mt)
        fragmentsA.push_back(fragment(a, e.add(warpRow, mt * 16), at.aRowOffset,
                                      at.aKOffset, ks, /*isA=*/true));
      for (int64_t np = 0; np < nTiles; np += 2)
        llvm::append_range(
            fragmentsB,
            splitBFragments(b, loc,
                            fragment(bOperand, e.add(warpCol, np * 8),
                                     at.bRowOffset, at.bKOffset, ks,
                                     /*isA=*/false)));
      for (int64_t mt = 0; mt < mTiles; ++mt)
        for (int64_t nt = 0; nt < nTiles; ++nt) {
          Value &sum = sums[mt * nTiles + nt];
          sum = mmaSync(b, loc, fragmentsA[mt], fragmentsB[nt], sum,
                        c.unsignedInput[0], c.unsignedInput[1]);
        }
    }
    return sums;
  };

  scf::ForOp loop;
  if (tiles.stages > 2) {
    // cp.async stages: at slice i, once its copies are complete (a wait for
    // all but the newest STAGES - 2 groups: every slice commits one, empty
    // or not) and past a barrier, slice i + STAGES - 1 is copied into the
    // buffers of slice i - 1, which every warp is done with, and then the
    // tensor cores work on slice i.
    int64_t ahead = tiles.stages - 1;
    auto copy = [&](Value slice) {
      Value stage = e.rem(slice, tiles.stages);
      Value k0 = e.add(firstK0, e.mul(slice, tiles.bk));
      auto into = [&](const Operand &operand, ArrayRef<Coordinates> at,
                      Value tileRow0) {
        copySlice(e, operand, at, k0, tileRow0, operand.shared, [&](size_t i) {
          return pieceIndices(operand, stage, at[i].row, at[i].col);
        });
      };
      into(a, atA, tileM);
      into(bOperand, atB, tileN);
    };
    // The copies of `slice` where the block has it; one group either way.
    auto copyIfAny = [&](Value slice) {
      Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        slice, sliceCount);
      auto ifOp = scf::IfOp::create(b, loc, any, false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        copy(slice);
      }
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
    };
    for (int64_t slice = 0; slice < ahead; ++slice)
      copyIfAny(e.index(slice));
    loop = scf::ForOp::create(b, loc, e.index(0), sliceCount, e.index(1), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value iteration = loop.getInductionVar();
      NVVM::CpAsyncWaitGroupOp::create(b, loc, ahead - 1);
      mlir::gpu::BarrierOp::create(b, loc);
      copyIfAny(e.add(iteration, ahead));
      scf::YieldOp::create(
          b, loc,
          multiply(e.rem(iteration, tiles.stages), loop.getRegionIterArgs()));
    }
    // What is still committed is empty groups.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  } else {
    SmallVector<Value> firstA = loadSlice(e, a, atA, firstK0, tileM);
    SmallVector<Value> firstB = loadSlice(e, bOperand, atB, firstK0, tileN);
    bool staged = tiles.stages > 1;
    // One stage: the first slice, then per slice: store it, read the next,
    // multiply. Two: the first slice stored, then per slice: read the next,
    // multiply, store the next into the other buffer.
    if (staged) {
      storeSlice(e, a, atA, firstA, e.index(0));
      storeSlice(e, bOperand, atB, firstB, e.index(0));
      mlir::gpu::BarrierOp::create(b, loc);
    } else {
      llvm::append_range(init, firstA);
      llvm::append_range(init, firstB);
    }
    loop = scf::ForOp::create(b, loc, e.index(0), sliceCount, e.index(1), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value iteration = loop.getInductionVar();
      ValueRange carried = loop.getRegionIterArgs();
      ValueRange acc = carried.take_front(mTiles * nTiles);
      Value stage, nextStage;
      if (staged) {
        stage = e.rem(iteration, tiles.stages);
        nextStage = e.rem(e.add(iteration, 1), tiles.stages);
      } else {
        ValueRange valuesA = carried.slice(mTiles * nTiles, firstA.size());
        ValueRange valuesB = carried.take_back(firstB.size());
        storeSlice(e, a, atA, SmallVector<Value>(valuesA), stage);
        storeSlice(e, bOperand, atB, SmallVector<Value>(valuesB), stage);
        mlir::gpu::BarrierOp::create(b, loc);
      }

      // The next slice's reads are issued before the multiplications; past
      // the block's last slice they read its first again, harmlessly.
      Value nextK0 = e.add(
          firstK0,
          e.mul(arith::RemUIOp::create(b, loc, e.add(iteration, 1), sliceCount)
                    .getResult(),
                tiles.bk));
      SmallVector<Value> nextA = loadSlice(e, a, atA, nextK0, tileM);
      SmallVector<Value> nextB = loadSlice(e, bOperand, atB, nextK0, tileN);

      SmallVector<Value> sums = multiply(stage, acc);
      SmallVector<Value> yielded(sums);
      if (staged) {
        // The other buffer was last read before the previous barrier.
        storeSlice(e, a, atA, nextA, nextStage);
        storeSlice(e, bOperand, atB, nextB, nextStage);
      } else {
        llvm::append_range(yielded, nextA);
        llvm::append_range(yielded, nextB);
      }
      mlir::gpu::BarrierOp::create(b, loc);
      scf::YieldOp::create(b, loc, yielded);
    }
  }

  SmallVector<Value> sums;
  for (int64_t t = 0; t < mTiles * nTiles; ++t)
    sums.push_back(loop.getResult(t));
  storeSums(e, sums, lane, warpRow, warpCol, tileM, tileN, workspace, split);
  if (workspace) {
    b.setInsertionPointAfter(launch);
    aicc::gpu::sumSplits(b, loc, workspace, op.getDpsInits()[0], overwrite,
                         epilogue);
  }
}

void Kernel::storeSums(Emitter &e, ArrayRef<Value> sums, Value lane,
                       Value warpRow, Value warpCol, Value tileM, Value tileN,
                       Value workspace, Value split) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value outBuffer = op.getDpsInits()[0];
  int64_t mTiles = tiles.mTiles(), nTiles = tiles.nTiles();
  // Accumulator [i][j] of tile (mt, nt) is C[16 mt + lane / 4 + 8 i]
  // [8 nt + 2 (lane % 4) + j] of the warp's part, added to what C holds.
  Value group = e.div(lane, 4), pair = e.mul(e.rem(lane, 4), 2);
  // The loop indices of each output row (mt, i) and column (nt, j) of this
  // thread, computed once each.
  struct Line {
    Value index, valid;
    SmallVector<Value> loops;
  };
  auto lines = [&](Value base, int64_t tiles, int64_t step, int64_t inner,
                   int64_t extent, int64_t blockExtent,
                   ArrayRef<unsigned> roles) {
    SmallVector<Line> result;
    for (int64_t t = 0; t < tiles; ++t)
      for (int64_t x = 0; x < 2; ++x) {
        Line line;
        line.index = e.add(base, t * step + x * inner);
        if (extent % blockExtent != 0)
          line.valid = e.less(line.index, extent);
        line.loops.assign(op.getNumLoops(), Value());
        e.delinearize(line.index, roles, c.bounds, line.loops);
        result.push_back(line);
      }
    return result;
  };
  SmallVector<Line> rows = lines(e.add(e.add(tileM, warpRow), group), mTiles,
                                 16, 8, m, tiles.bm, c.m);
  SmallVector<Line> cols =
      lines(e.add(e.add(tileN, warpCol), pair), nTiles, 8, 1, n, tiles.bn, c.n);
  // Columns j = 0 and 1 (an even column and the next) are consecutive
  // elements of a row of the output, or of the epilogue's output: one
  // 2-element store where the output's last index is the innermost n loop
  // alone and rows are aligned for it.
  bool paired = !workspace &&
                aicc::gpu::storesRows(maps[2], c.n.back(), c.bounds[c.n.back()],
                                      outBuffer, epilogue, 2);
  for (int64_t mt = 0; mt < mTiles; ++mt)
    for (int64_t nt = 0; nt < nTiles; ++nt)
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < (paired ? 1 : 2); ++j) {
          const Line &row = rows[mt * 2 + i], &col = cols[nt * 2 + j];
          SmallVector<Value> values;
          for (int64_t jj = j; jj < (paired ? 2 : j + 1); ++jj)
            values.push_back(vector::ExtractOp::create(
                b, loc, sums[mt * nTiles + nt], ArrayRef<int64_t>{i, jj}));
          OpBuilder::InsertionGuard guard(b);
          // (A pair's second column is inside whenever its first is: the
          // extent along it is even.)
          if (Value valid = e.both(row.valid, col.valid)) {
            auto store = scf::IfOp::create(b, loc, valid, false);
            b.setInsertionPoint(store.thenBlock()->getTerminator());
          }
          SmallVector<Value> loops(blockLoops);
          for (unsigned loop : c.m)
            loops[loop] = row.loops[loop];
          for (unsigned loop : c.n)
            loops[loop] = col.loops[loop];
          SmallVector<Value> indices = e.apply(maps[2], loops);
          if (workspace) {
            if (epilogue)
              indices = epilogue->loops(b, loc, indices);
            indices.insert(indices.begin(), split);
            memref::StoreOp::create(b, loc, values[0], workspace, indices);
            continue;
          }
          // (An epilogue comes with a fresh output: nothing to add to.)
          if (!overwrite) {
            SmallVector<Value> old =
                paired ? aicc::gpu::loadRowVector(b, loc, outBuffer, indices, 2)
                       : SmallVector<Value>{memref::LoadOp::create(
                             b, loc, outBuffer, indices)};
            for (auto [v, o] : llvm::zip_equal(values, old))
              v = c.integer ? arith::AddIOp::create(b, loc, o, v).getResult()
                            : arith::AddFOp::create(
                                  b, loc, e.convert(o, b.getF32Type()), v)
                                  .getResult();
          }
          aicc::gpu::storeContractionSums(b, loc, values, outBuffer, indices,
                                          epilogue);
        }
}

/// Erases the op right before `op` when it only fills `op`'s output with
/// zeros (a generalized linalg.fill: a scalar 0 broadcast, or a constant 0
/// yielded), and says so: `op` then stores its sums instead of adding them.
/// An output whose projection does not cover it (a reduction's) keeps its
/// fill.
bool absorbZeroFill(linalg::GenericOp op) {
  auto fill = dyn_cast_or_null<linalg::GenericOp>(op->getPrevNode());
  Value value = aicc::gpu::fillValueOf(fill, op.getDpsInits()[0]);
  if (!value ||
      !(matchPattern(value, m_AnyZeroFloat()) ||
        matchPattern(value, m_Zero())) ||
      !op.getIndexingMapsArray().back().isProjectedPermutation())
    return false;
  fill.erase();
  return true;
}

Type mmaType(linalg::GenericOp op, StringRef convertTo) {
  MLIRContext *context = op.getContext();
  // 8-bit integer operands multiply as they are (matchContraction checked
  // the i32 output).
  if (llvm::all_of(op.getDpsInputs(), [](Value input) {
        return cast<MemRefType>(input.getType()).getElementType().isInteger(8);
      }))
    return IntegerType::get(context, 8);
  Type first =
      cast<MemRefType>(op.getDpsInputs()[0].getType()).getElementType();
  if (isFloat8(first) &&
      cast<MemRefType>(op.getDpsInputs()[1].getType()).getElementType() ==
          first) {
    Type out = cast<MemRefType>(op.getDpsInits()[0].getType()).getElementType();
    return out.isF32() || out.isF16() || out.isBF16() ? first : Type();
  }
  Type target;
  if (convertTo == "f16")
    target = Float16Type::get(context);
  else if (convertTo == "bf16")
    target = BFloat16Type::get(context);
  else if (convertTo == "tf32")
    target = FloatTF32Type::get(context);
  Type inputs;
  for (Value input : op.getDpsInputs()) {
    Type element = cast<MemRefType>(input.getType()).getElementType();
    if (inputs && inputs != element)
      inputs = Float32Type::get(context); // mixed: converted below
    else
      inputs = element;
  }
  Type half;
  if (inputs.isF16() || inputs.isBF16())
    half = target && !target.isTF32() ? target : inputs;
  else if (inputs.isF32())
    half = target;
  if (!half)
    return {};
  Type out = cast<MemRefType>(op.getDpsInits()[0].getType()).getElementType();
  if (!out.isF32() && out != half)
    return {};
  return half;
}

std::optional<std::pair<aicc::gpu::Contraction, Type>>
tensorCoreContraction(linalg::GenericOp op, StringRef convertTo) {
  std::optional<aicc::gpu::Contraction> contraction =
      aicc::gpu::matchContraction(op);
  if (!contraction)
    return std::nullopt;
  Type half = mmaType(op, convertTo);
  // A product too thin for a 16 x 8 tile (a matrix-vector product, a
  // depthwise convolution) is memory-bound: it stays on the CUDA cores.
  if (!half || contraction->extent(contraction->m) < kTensorCoreRows ||
      contraction->extent(contraction->n) < 8 ||
      contraction->extent(contraction->k) < 8)
    return std::nullopt;
  return std::make_pair(*contraction, half);
}

} // namespace aicc::gpu::mma

namespace {
using namespace aicc::gpu::mma;

struct GPUMMAMatmulPass
    : aicc::gpu::impl::GPUMMAMatmulPassBase<GPUMMAMatmulPass> {
  using GPUMMAMatmulPassBase::GPUMMAMatmulPassBase;

  void runOnOperation() override {
    std::optional<TileShape> none;
    if (failed(checkTilingOptions(getOperation(), "aicc-gpu-mma-matmul",
                                  operandType, /*tile=*/"", wgmma, none)))
      return signalPassFailure();
    SmallVector<linalg::GenericOp> ops =
        aicc::gpu::genericsOutsideLaunches(getOperation());
    // Epilogues go with their contractions; they come later in `ops`.
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (linalg::GenericOp op : ops) {
      if (fused.contains(op))
        continue;
      std::optional<PreparedContraction> prepared =
          prepareContraction(op, operandType, wgmma);
      if (!prepared)
        continue;
      op = prepared->op;
      const ContractionShape &shape = prepared->shape;
      // The tiling aicc-gpu-choose-tiles recorded; none (and no kernel)
      // where it recorded another kernel's (an attention chain that
      // aicc-gpu-flash-attention did not build) or none.
      Attribute recorded = op->getAttr(aicc::gpu::kTilesAttr);
      if (!recorded ||
          !isa<aicc::gpu::ContractionConfigAttr>(aicc::gpu::recordedConfig(op)))
        continue;
      std::string why;
      FailureOr<TileShape> tiles = decodeTiles(recorded, why);
      if (succeeded(tiles) && !admits(shape, *tiles))
        why = "the contraction " + contractionSignature(shape) +
              " does not admit it";
      if (!why.empty()) {
        op.emitError("aicc-gpu-mma-matmul: cannot run the tiling ")
            << recorded << ": " << why;
        return signalPassFailure();
      }
      bool overwrite = absorbZeroFill(op);
      std::optional<aicc::gpu::Epilogue> epilogue;
      if (overwrite)
        epilogue = aicc::gpu::findEpilogue(op);
      Kernel kernel(op, prepared->contraction, shape, *tiles, overwrite,
                    epilogue, wgmma && tma);
      if (std::optional<aicc::gpu::Epilogue> done = kernel.fusedEpilogue())
        fused.insert(done->op);
      kernel.emit();
    }
  }
};
} // namespace
