//===- MMAKernel.h - Tensor-core contraction kernels (private) -*- C++ -*-===//
//
// The contraction kernel that aicc-gpu-mma-matmul builds, shared by its two
// emitters: mma.sync with ldmatrix (MMAMatmul.cpp) and wgmma from swizzled
// cp.async stages (WGMMAMatmul.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_GPU_TRANSFORMS_MMAKERNEL_H
#define AICC_LIB_TARGET_GPU_TRANSFORMS_MMAKERNEL_H

#include "Contraction.h"
#include "Epilogue.h"
#include "Limits.h"
#include "Utils.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <optional>

namespace aicc::gpu::mma {
using namespace mlir;

constexpr int64_t kWarp = kWarpLanes;
/// Shared-memory rows are padded by 8 halves (16 bytes): ldmatrix reads 8
/// rows of 16 bytes, which then fall in different banks.
constexpr int64_t kPad = 8;
/// Elements of one vector access of an operand: 16 bytes of halves (32
/// of f32 for tf32, moved as two 16-byte pieces).
constexpr int64_t kVectorElements = 8;
/// Bytes of one cp.async copy or swizzled piece.
constexpr int64_t kPieceBytes = 16;

/// The alignment of a vector of kVectorElements of `element`, of which each
/// row of an operand's tile holds whole ones from an aligned start: 16
/// bytes, 8 for bytes.
inline llvm::MaybeAlign vectorAlignment(Type element) {
  return llvm::MaybeAlign(std::min<int64_t>(
      16, kVectorElements * element.getIntOrFloatBitWidth() / 8));
}

/// Whether `mmaType` is an fp8 type the tensor cores multiply: e4m3fn and
/// e5m2 (wgmma's e4m3 and e5m2; the fnuz variants have no instruction).
inline bool isFloat8(Type mmaType) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(mmaType);
}

/// Whether the tensor cores multiply `mmaType` in bytes: 8-bit integers or
/// fp8 (which only wgmma takes).
inline bool multipliesBytes(Type mmaType) {
  return mmaType.isInteger(8) || isFloat8(mmaType);
}

/// The type an operand multiplied in `mmaType` is kept in, in registers and
/// shared memory: f32 for tf32 (rounded to tf32 as it is read), else
/// `mmaType` itself.
Type storageType(Type mmaType);

/// Elements each shared-memory row of an mma.sync operand tile is padded
/// by, in `mmaType`'s storage: 16 bytes, which puts the 8 rows that one
/// ldmatrix (or, for tf32 tiles stored as rows of k, one scalar fragment
/// read of 4 k by 8 rows) reads in different banks; 32 bytes for the
/// latter.
int64_t sharedPad(Type mmaType, bool rowsOfK);

/// Reduction depth of one mma.sync: 16 (m16n8k16) for halves, 8 for tf32
/// (m16n8k8), 32 for 8-bit integers (m16n8k32).
int64_t mmaDepth(Type mmaType);

/// The type products in `mmaType` are summed in: i32 for 8-bit integers,
/// else f32.
Type accumulatorType(Type mmaType);

/// The block and warp tiling of one kernel, and its shared-memory stages:
/// 1 (registers carry the next slice while the tensor cores work), 2 (the
/// next slice goes into the other buffer: one barrier per slice), or 3 to
/// 8 (cp.async copies STAGES - 1 slices ahead, straight from global to
/// shared memory; both operands read 8 halves at a time).
/// With `splits` > 1, the K slices are dealt out to that many blocks per
/// output tile, each writing its partial sums to its own plane of an f32
/// workspace, which an element-wise sum then adds up in a fixed order.
/// With `wgmma`, BM = 128 rows for 2 warpgroups (8 warps of 16 rows:
/// warpsM = 8, warpsN = 1), BK = 64 (one 128-byte swizzle row of halves;
/// 128 of 8-bit integers), and `stages` cp.async stages (TMA copies where
/// the operands allow: 8-bit ones always) in dynamic shared memory.
struct TileShape {
  int64_t bm, bn, bk, warpsM, warpsN, stages = 1, splits = 1;
  bool wgmma = false;
  int64_t threads() const { return kWarp * warpsM * warpsN; }
  /// m16 tiles and n8 tiles of one warp.
  int64_t mTiles() const { return bm / warpsM / 16; }
  int64_t nTiles() const { return bn / warpsN / 8; }
  bool operator==(const TileShape &o) const {
    return bm == o.bm && bn == o.bn && bk == o.bk && warpsM == o.warpsM &&
           warpsN == o.warpsN && stages == o.stages && splits == o.splits &&
           wgmma == o.wgmma;
  }
};

/// Shared memory of a wgmma kernel: its stages of A and B tiles (rows of
/// 128 bytes), 1 KiB to align them on the 1024-byte swizzle pattern, and
/// 64 bytes for the mbarriers of TMA copies (one of 8 bytes per stage).
int64_t wgmmaSharedBytes(const TileShape &t);

/// Bytes after a wgmma kernel's stages for its mbarriers.
constexpr int64_t kWgmmaBarrierBytes = 64;

/// Bytes of one row of a wgmma kernel's slice, 128-byte swizzled: 64
/// halves, or 128 8-bit integers (BK).
constexpr int64_t kWgmmaSliceBytes = 128;

struct Emitter : aicc::gpu::IndexBuilder {
  /// Sets `loops[l]` for the loops `roles` (outermost first) from their
  /// row-major linear index `linear`.
  void delinearize(Value linear, ArrayRef<unsigned> roles,
                   ArrayRef<int64_t> bounds, MutableArrayRef<Value> loops) {
    for (auto [i, loop] : llvm::enumerate(llvm::reverse(roles))) {
      bool outermost = i + 1 == roles.size();
      loops[loop] = outermost ? linear : rem(linear, bounds[loop]);
      if (!outermost)
        linear = div(linear, bounds[loop]);
    }
  }

  /// `v` as type `to` (a float type, or a vector of one like `v`).
  Value convert(Value v, Type to) {
    return aicc::gpu::convertFloat(b, loc, v, to);
  }

  /// `read()` where `valid` (null: always), else zeros of `type` (a float
  /// type or a vector of one).
  Value orZero(Value valid, Type type,
               llvm::function_ref<Value(Emitter &)> read) {
    if (!valid)
      return read(*this);
    auto ifOp = scf::IfOp::create(
        b, loc, valid,
        [&](OpBuilder &nb, Location l) {
          Emitter inner{{nb, l}};
          scf::YieldOp::create(nb, l, read(inner));
        },
        [&](OpBuilder &nb, Location l) {
          Value zero = arith::ConstantOp::create(
              nb, l, cast<TypedAttr>(nb.getZeroAttr(type)));
          scf::YieldOp::create(nb, l, zero);
        });
    return ifOp.getResult(0);
  }

  /// memref[indices] as `type` where `valid` (null: always), else 0.
  Value load(Value memref, ValueRange indices, Value valid, Type type) {
    return orZero(valid, type, [&](Emitter &in) {
      return in.convert(memref::LoadOp::create(in.b, in.loc, memref, indices),
                        type);
    });
  }

  /// The 8 elements of `memref` from `indices` on along its last dimension
  /// (16-byte aligned in memory) as `type` where `valid` (null: always),
  /// else zeros.
  Value loadVector(Value memref, ValueRange indices, Value valid,
                   VectorType type) {
    auto element = cast<MemRefType>(memref.getType()).getElementType();
    return orZero(valid, type, [&](Emitter &in) {
      return in.convert(
          vector::LoadOp::create(in.b, in.loc, type.clone(element), memref,
                                 indices, false, vectorAlignment(element)),
          type);
    });
  }
};

/// How an operand's tile travels from global to shared memory.
enum class Access {
  /// One element per load; shared tile [rows][k].
  Scalar,
  /// 8 consecutive k per load; shared tile [rows][k].
  KVector,
  /// 8 consecutive rows per load; shared tile [k][rows].
  RowVector,
};

/// Where lane `lane` points an ldmatrix of four 8x8 matrices: at row
/// `matrixRow` (lane % 8) of matrix lane / 8, whose offsets are
/// (`aRowOffset`, `aKOffset`) in a 16x16 A tile of rows m and columns k,
/// its matrices (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15,
/// k 8-15); and (`bRowOffset`, `bKOffset`) in two n-tiles of B as rows n
/// and columns k, its matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15,
/// k 0-7), (n 8-15, k 8-15). A tile stored as rows of k is read transposed
/// at (k offset + matrixRow, row offset).
/// The matrices are 16 bytes wide: 8 halves, or `kWidth` = 4 f32 for
/// tf32, whose 8x8 b16 matrices are 8 rows of 4 f32 (then k 0-3 and 4-7).
struct LdMatrixLane {
  Value matrixRow, aRowOffset, aKOffset, bRowOffset, bKOffset;
  LdMatrixLane(Emitter &e, Value lane, int64_t kWidth = 8);
};

/// The B fragments (vector<2xWxT>) of the two n-tiles that `both`, an
/// ldmatrix of B's four matrices in LdMatrixLane's order (vector<4xWxT>),
/// holds.
SmallVector<Value, 2> splitBFragments(OpBuilder &b, Location loc, Value both);

/// One tensor-core product `acc + a * b` of a warp, `acc` vector<2x2xf32>:
/// m16n8k16 with `a` vector<4x2xT> and `b` vector<2x2xT> (T f16 or bf16),
/// or m16n8k8 on tf32 with `a` vector<4x1xf32> and `b` vector<2x1xf32>;
/// or, `acc` vector<2x2xi32>, m16n8k32 with `a` vector<4x4xi8> and `b`
/// vector<2x4xi8>, each operand u8 or s8 as `unsignedA` and `unsignedB` say.
Value mmaSync(OpBuilder &b, Location loc, Value a, Value bFragment, Value acc,
              bool unsignedA = false, bool unsignedB = false);

/// Whether the operand `memref` indexed by `map` can be read `lanes`
/// elements at a time along the innermost of `loops` (k, or the operand's
/// rows): the map's last result walks a run of the innermost loops
/// row-major (one loop, or several whose dimensions a view collapsed) that
/// no other result uses, the run's extent is a multiple of `lanes`, and the
/// buffer is contiguous in its last dimension with every row start (and
/// the offset) a multiple of `lanes` elements, so each read is aligned to
/// its size (buffers themselves are at least 64-byte aligned).
bool vectorizable(Value memref, AffineMap map, ArrayRef<unsigned> loops,
                  ArrayRef<int64_t> bounds, int64_t lanes = kVectorElements);

/// How `memref`, indexed by `map`, is best read.
Access chooseAccess(Value memref, AffineMap map, ArrayRef<unsigned> rowLoops,
                    const aicc::gpu::Contraction &c);

/// `op` (the contraction `c`) with operands the kernel reads faster: views
/// whose last dimension is a whole run of loops (a 1x1 filter as [f, c],
/// an image's pixels as one dimension), and the inputs swapped when only
/// the second is read along k and the output's contiguous dimension is
/// among the first's rows. `op` itself when nothing changes; else `op` is
/// replaced.
linalg::GenericOp prepareOperands(linalg::GenericOp op,
                                  const aicc::gpu::Contraction &c);

/// The type the tensor cores multiply `op`'s operands in, if they should:
/// both operands already half, or f32 (or half) when `convertTo` names a
/// half type, or f32 operands as tf32 when `convertTo` is "tf32"; an
/// output of f32 or the same half type. i8 for 8-bit integer operands
/// (which matchContraction takes with an i32 output only), and the fp8
/// type for operands of one fp8 type into f32 or a half type, whatever
/// `convertTo` says.
Type mmaType(linalg::GenericOp op, StringRef convertTo);

/// The contraction `op` computes when the tensor-core kernel takes it (its
/// operands multiply in `mmaType` and it is at least one 16 x 8 x 8 tile),
/// and that type.
std::optional<std::pair<aicc::gpu::Contraction, Type>>
tensorCoreContraction(linalg::GenericOp op, StringRef convertTo);

/// What the tiling of a contraction depends on: its flattened extents, the
/// half type of its products, how each operand is read, and whether wgmma
/// can take it (sm_90a, A read along k, neither operand element by
/// element, both stored in the half type).
struct ContractionShape {
  int64_t m, n, k, batches;
  Type half;
  Access a, b;
  /// The operands' element types in memory (converted as they are read
  /// when not `half`).
  Type storedA, storedB;
  bool wgmma;
  /// An implicit GEMM of a convolution: A's rows are (n, oh, ow) or A is
  /// read through a sliding window (oh * s + kh).
  bool convolution = false;
  /// Neither operand is read element by element.
  bool vectorOperands() const {
    return a != Access::Scalar && b != Access::Scalar;
  }
};

/// `op`'s shape as the kernel sees it (`wgmma`: the target has it).
ContractionShape describeContraction(linalg::GenericOp op,
                                     const aicc::gpu::Contraction &c, Type half,
                                     bool wgmma);

/// Checks the options the tensor-core passes share: `operandType` empty,
/// f16, bf16 or tf32, and `tile` empty or a tiling parseTiles reads (then
/// `forced`); reports on `root` as `pass` otherwise.
LogicalResult checkTilingOptions(Operation *root, StringRef pass,
                                 StringRef operandType, StringRef tile,
                                 bool wgmma, std::optional<TileShape> &forced);

/// A contraction the tensor-core kernel takes, its operands prepared
/// (prepareOperands, which may replace the op), and its shape.
struct PreparedContraction {
  linalg::GenericOp op;
  aicc::gpu::Contraction contraction;
  ContractionShape shape;
};

/// `op` prepared for the kernel when tensorCoreContraction takes it with
/// `convertTo` (`wgmma`: the target has it).
std::optional<PreparedContraction>
prepareContraction(linalg::GenericOp op, StringRef convertTo, bool wgmma);

/// The key tilings are chosen and cached by, "f16:b1:m4096:n768:k3072:kr"
/// (the half type, batches, M, N, K, and A's and B's access: k, r or s),
/// then ":af32" or ":bf32" for an operand stored in another type.
std::string contractionSignature(const ContractionShape &s);

/// The tiling the kernel uses for `s` on a GPU of `multiprocessors`:
/// `forced` where it applies (a wgmma tiling only to what wgmma takes),
/// else the model of chooseWgmmaTiles and chooseMmaSyncTiles.
TileShape chooseTiles(const ContractionShape &s, int64_t multiprocessors,
                      std::optional<TileShape> forced);

/// chooseTiles for `p`, reported on its op as `pass` when the tiling
/// `forced` (the option `tile`) would leave K splits without slices.
FailureOr<TileShape> chooseAdmittedTiles(const PreparedContraction &p,
                                         StringRef pass,
                                         int64_t multiprocessors,
                                         std::optional<TileShape> forced,
                                         StringRef tile);

/// The tilings worth measuring for `s`, the model's choice first: with
/// wgmma, 128 x {64, 128, 256} x 64 in 3 and 4 stages; unless the model
/// chose wgmma, mma.sync blocks of 128x128, 128x64, 64x128 and 64x64,
/// each also with K split where few blocks leave multiprocessors idle.
SmallVector<TileShape> tileCandidates(const ContractionShape &s,
                                      int64_t multiprocessors);

/// Whether the kernel can run `t` for `s`: wgmma only where `s` allows it,
/// K split only on mma.sync and so that every split gets slices, cp.async
/// stages only where both operands are read 8 elements at a time in the
/// type the tensor cores multiply, and (for tf32, whose f32 tiles take
/// twice the bytes parseTiles counts) the shared buffers within bounds.
bool admits(const ContractionShape &s, const TileShape &t);

/// "BMxBNxBKxSTAGES", with "/SPLITS" when K is split: what parseTiles reads.
std::string formatTiles(const TileShape &t);

/// The shape `spec` names, "BMxBNxBK[xSTAGES][/SPLITS]": 8 warps (2 x 4)
/// for blocks of at least 128 x 128 (with cp.async stages, warps of 64 x
/// 64: BM / 64 x BN / 64), else 4 (2 x 2). Fails unless every
/// warp has whole m16 tiles and pairs of n8 tiles, BK is a multiple of 16,
/// each thread moves whole 16-byte vectors, and the shared buffers fit:
/// 1 or 2 stages in 48 KiB, 3 to 8 cp.async stages in 96 KiB. With `wgmma`,
/// "128xBNx64xSTAGES" for BN 64, 128, 192 or 256 and 3 to 8 stages that fit in
/// an sm_90 block's shared memory is a wgmma tiling (contractions wgmma cannot
/// take use mma.sync with their own tiles).
FailureOr<TileShape> parseTiles(StringRef spec, bool wgmma);

/// `t` as a #tile.encoding over the contraction's (M, N, K): levels block,
/// warp (wgmma: warpgroup) and instruction tile (its depth mmaDepth of
/// `mmaType`), for `target`, and a #aicc_gpu.contraction with the engine,
/// stages, splits, the signature and where the choice came from
/// (`origin`). aicc-gpu-choose-tiles records it in kTilesAttr.
Attribute encodeTiles(MLIRContext *context, const TileShape &t, Type mmaType,
                      StringRef signature, Origin origin, StringRef target);

/// The tiling an encodeTiles attribute describes; fails with a message
/// (in `why`) for anything the kernel cannot run.
FailureOr<TileShape> decodeTiles(Attribute attr, std::string &why);

/// What one operand (A or B) of the kernel needs: its buffer and map, the
/// loops of its rows (m for A, n for B) and their extent, and how its BM x
/// BK (or BN x BK) tile is spread over the threads.
struct Operand {
  Value memref;
  AffineMap map;
  ArrayRef<unsigned> rowLoops;
  int64_t rows, tileRows;
  /// Scalar access: consecutive threads take consecutive k (else
  /// consecutive rows).
  bool kFastest;
  Access access;
  Value shared;

  /// Elements (scalar access) or vectors of `lanes` that each thread
  /// moves.
  int64_t perThread(const TileShape &t, int64_t lanes) const {
    int64_t elements = tileRows * t.bk / t.threads();
    return access == Access::Scalar ? elements : elements / lanes;
  }
};

class Kernel {
public:
  /// `shape`: `op`'s as describeContraction gives it; `tiles`: a tiling
  /// it admits. `overwrite`: the output holds nothing yet (its zero fill
  /// was dropped): the products are stored, not added to it.
  /// `epilogue`: an element-wise op computed on each sum as it is stored,
  /// which then writes its own output instead (with `overwrite` only);
  /// dropped when it would overwrite the operands and K is not split.
  /// `tma`: a wgmma kernel whose operands TMA can read (tensorMapRead)
  /// copies them so (sm_90a) instead of by cp.async.
  Kernel(linalg::GenericOp op, const aicc::gpu::Contraction &c,
         const ContractionShape &shape, TileShape tiles, bool overwrite,
         std::optional<aicc::gpu::Epilogue> epilogue, bool tma = false);

  void emit();
  /// The epilogue the kernel computes, if any.
  std::optional<aicc::gpu::Epilogue> fusedEpilogue() const { return epilogue; }

private:
  /// Where element i of this thread's share of an operand's tile lies:
  /// its row (m or n) and column (k) in the tile.
  struct Coordinates {
    Value row, col;
  };
  SmallVector<Coordinates> coordinates(Emitter &e, const Operand &operand,
                                       Value thread);
  /// Where this thread's elements (or vectors) of the slice at `k0` of the
  /// operand's tile at `tileRow0` lie: the operand's indices, and whether
  /// they are inside it (null: always). With `clamp`, a row or k past the
  /// edge is replaced by 0, so that the indices stay in bounds.
  struct SliceAccess {
    SmallVector<Value> indices;
    Value valid;
  };
  SmallVector<SliceAccess> sliceAccesses(Emitter &e, const Operand &operand,
                                         ArrayRef<Coordinates> coordinates,
                                         Value k0, Value tileRow0, bool clamp);
  /// This thread's elements of the slice at k0 of the operand's tile at
  /// `tileRow0`, as `half` (0 past the edges).
  SmallVector<Value> loadSlice(Emitter &e, const Operand &operand,
                               ArrayRef<Coordinates> coordinates, Value k0,
                               Value tileRow0);
  /// Stores them into the operand's shared buffer `stage` (null: the only
  /// one).
  void storeSlice(Emitter &e, const Operand &operand,
                  ArrayRef<Coordinates> coordinates, ArrayRef<Value> values,
                  Value stage);
  /// The product on mma.sync: operands through registers into shared
  /// memory, fragments by ldmatrix.
  void emitMmaSync(Emitter &e);
  /// The product on wgmma (sm_90a): operands copied by cp.async into
  /// swizzled shared stages that the warpgroups multiply from.
  void emitWgmma(Emitter &e);
  /// The operands A and B as the wgmma kernel reads them into `shared`.
  std::pair<Operand, Operand> wgmmaOperands(Value shared);
  /// Records on `launch` the FLOPs of the product and of the epilogue it
  /// computes (a split product's epilogue runs in the kernel that sums the
  /// splits), done on tensor cores, and the contraction's signature and
  /// tiling.
  void recordWork(mlir::gpu::LaunchOp launch) const;
  /// Where this thread's 16-byte pieces of an operand's tile go in its
  /// shared tile, in elements, swizzled as wgmma reads them with 128-byte
  /// swizzling: k-major tiles as rows of 64 k, row-major ones (B along n)
  /// as columns of 64 n, one 128-byte row per k.
  SmallVector<Value> swizzledOffsets(Emitter &e, const Operand &operand,
                                     ArrayRef<Coordinates> coordinates);
  /// How the tensor memory accelerator reads an operand's slices: the
  /// buffer it reads (the operand's, its rows' dimensions collapsed into
  /// one by `collapse` when there are several), what indexes each of that
  /// buffer's dimensions and the box (both outermost first), and the boxes
  /// side by side in one slice (B along n: one per 64 columns, each a
  /// column of the swizzled tile).
  struct TensorMapRead {
    enum class Index { K, Rows, Batch, Zero };
    SmallVector<ReassociationIndices> collapse;
    SmallVector<std::pair<Index, unsigned>> dims;
    SmallVector<int64_t> box;
    int64_t boxes = 1;
  };
  /// The read of `operand` by TMA, if TMA can do it: a buffer of static
  /// dimensions, contiguous in its last, each dimension indexed (loops of
  /// extent 1 taken as 0) by k once, by the operand's rows (one loop, or
  /// several over consecutive dimensions of their extents that collapse
  /// into one, in their order), by a batch loop or by nothing; the last by
  /// k (A, B along k) or by the rows (B along n); at most 5 dimensions once
  /// collapsed, its other strides and its offset multiples of 16 bytes.
  std::optional<TensorMapRead> tensorMapRead(const Operand &operand) const;
  /// Copies of the slice at `k0` of an operand read by `read` (its map at
  /// `map`, a generic pointer) into shared memory at byte address `tile`,
  /// completing on the mbarrier at `barrier`.
  void copyBoxes(Emitter &e, const TensorMapRead &read, Value map, Value tile,
                 Value barrier, Value k0, Value tileRow0);
  /// Copies (cp.async) this thread's 16-byte pieces of the slice at `k0`
  /// of `operand`'s tile at `tileRow0` into the shared buffer `shared`,
  /// piece i at the indices `destination(i)`; zeros past the edges.
  void copySlice(Emitter &e, const Operand &operand,
                 ArrayRef<Coordinates> coordinates, Value k0, Value tileRow0,
                 Value shared,
                 llvm::function_ref<SmallVector<Value>(size_t)> destination);
  /// Stores the f32 sums: `sums[mt * nTiles + nt]` is the vector<2x2xf32>
  /// accumulator of m16 tile mt and n8 tile nt of the warp whose part of
  /// the block's tile starts at (`warpRow`, `warpCol`), laid out as
  /// mma.sync's (and wgmma's, per warp) accumulators are. Into `workspace`'s
  /// plane `split` when K is split; through the epilogue if any; else into
  /// the output, added to what it holds unless `overwrite`.
  void storeSums(Emitter &e, ArrayRef<Value> sums, Value lane, Value warpRow,
                 Value warpCol, Value tileM, Value tileN, Value workspace,
                 Value split);
  /// The elements of the row vectors the wgmma kernel stores its sums in
  /// through a shared tile (storeStaged): 8 or 4, where the output's (or
  /// the epilogue's) rows are aligned for them, the sums replace what the
  /// output holds and the tile fits in the stages' memory; 0 otherwise.
  int64_t stagedLanes();
  /// Stores the wgmma kernel's sums (`accumulators`, each thread's struct
  /// of f32) through shared memory: the block's BM x BN tile is written
  /// into the dynamic shared buffer `raw` from byte `shift` on (the
  /// stages', all read by then), then read back a row vector of `lanes`
  /// per thread and access, so that consecutive threads store consecutive
  /// vectors of a row, through the epilogue if any.
  void storeStaged(Emitter &e, Value accumulators, Value raw, Value shift,
                   Value thread, Value tileM, Value tileN, int64_t lanes);
  /// The f32 workspace of the split-K partial sums (null without a split),
  /// made before the launch at `b`'s insertion point.
  Value makeWorkspace(Emitter &e);

  linalg::GenericOp op;
  const aicc::gpu::Contraction &c;
  /// The type the tensor cores multiply in, and the one the operands are
  /// kept in (storageType).
  Type half, stored;
  bool overwrite;
  std::optional<aicc::gpu::Epilogue> epilogue;
  int64_t m, n, k, batches;
  Access accessA, accessB;
  std::string signature;
  TileShape tiles;
  bool tma;
  /// Elements of each vector an operand's tile is moved in: 8 (16 bytes of
  /// halves, 8 bytes of 8-bit integers read into registers), or 16 8-bit
  /// integers copied by cp.async into wgmma's stages.
  int64_t pieceElements = kVectorElements;
  /// The loop indices common to every access of a block: its batch element;
  /// the rest are filled in per access.
  SmallVector<Value> blockLoops;
};

} // namespace aicc::gpu::mma

#endif // AICC_LIB_TARGET_GPU_TRANSFORMS_MMAKERNEL_H
