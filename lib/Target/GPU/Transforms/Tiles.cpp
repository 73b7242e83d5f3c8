//===- Tiles.cpp - Tilings of tensor-core contractions --------------------===//
//
// The tile-tile step for cuda: which block, warp and instruction tiles a
// contraction's kernel uses, from the GPU's shared-memory and
// multiprocessor limits (the model below), from --mma-tile, or from what
// --autotune measured; the candidates the autotuner measures; and the
// #tile.encoding that carries a choice in the IR from
// aicc-gpu-choose-tiles to aicc-gpu-mma-matmul.
//
//===----------------------------------------------------------------------===//

#include "MMAKernel.h"

#include "Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>
#include <tuple>

namespace aicc::gpu::mma {

/// Fewest K slices a split of a contraction gets, and most splits.
constexpr int64_t kMinSlicesPerSplit = 4;
constexpr int64_t kMaxSplits = 16;

/// Blocks of `bm` x `bn` that cover an m x n output `batches` times.
static int64_t blockCount(int64_t m, int64_t n, int64_t batches, int64_t bm,
                          int64_t bn) {
  return (m + bm - 1) / bm * ((n + bn - 1) / bn) * batches;
}

/// `t` with K split when its blocks leave multiprocessors idle and K is
/// long (a batch-1 product of 128 rows, a 7x7 convolution of 512
/// channels): over enough blocks to give each multiprocessor about two,
/// each split keeping at least kMinSlicesPerSplit slices.
static TileShape splitK(TileShape t, int64_t m, int64_t n, int64_t k,
                        int64_t batches, int64_t multiprocessors) {
  int64_t tiles = blockCount(m, n, batches, t.bm, t.bn);
  int64_t slices = (k + t.bk - 1) / t.bk;
  int64_t wanted = (2 * multiprocessors + tiles - 1) / tiles;
  int64_t splits = std::min({wanted, slices / kMinSlicesPerSplit, kMaxSplits});
  if (tiles < multiprocessors && splits > 1) {
    // Equal shares of slices, and no split left empty.
    int64_t perSplit = (slices + splits - 1) / splits;
    t.splits = (slices + perSplit - 1) / perSplit;
  }
  return t;
}

/// 128x128x64 blocks of 8 warps (64x32 each; 32 deep for tf32, whose f32
/// tiles would not fit in 48 KiB at 64) when both operands are read
/// 16 bytes at a time, M and N are at least 128 and such blocks alone fill
/// the GPU's multiprocessors (on the H100, 4096^3 f16: 0.51 ms against 0.57
/// at 32 deep). Else 64-row blocks of 4 warps, 32 deep: 64x128 when an
/// operand is read element by element (a convolution's image), N is at
/// least 128, K at least 256 and M at least 1024 or the blocks fill the
/// multiprocessors, 64x64 otherwise; K split where they leave
/// multiprocessors idle (splitK). The 64-row blocks are what --autotune
/// measured fastest for ResNet-50's and MobileNetV2's convolutions at
/// batch 32 on the H100
/// (docs/results/2026-11-24-cb6aaa9-h100-autotune-tiles.tsv): 64x128 on
/// 3x3 convolutions of 128 to 512 filters, 0.39 ms against 0.44 for
/// 128x128 (25088 x 128 x 1152), 64x64 on the 7x7 stem, 0.16 against 0.26.
/// 8-bit integer products take the same blocks, 64 deep, and K whole (the
/// split sums are f32).
static TileShape chooseMmaSyncTiles(int64_t m, int64_t n, int64_t k,
                                    int64_t batches, int64_t multiprocessors,
                                    bool vectorOperands, Type mmaType) {
  bool tf32 = mmaType.isTF32(), integer = mmaType.isInteger(8);
  if (vectorOperands && m >= 128 && n >= 128 &&
      blockCount(m, n, batches, 128, 128) >= multiprocessors)
    return {128, 128, tf32 ? 32 : 64, 2, 4};
  bool wide =
      !vectorOperands && n >= 128 && k >= 256 &&
      (m >= 1024 || blockCount(m, n, batches, 64, 128) >= multiprocessors);
  int64_t bn = wide ? 128 : 64;
  if (integer)
    return {64, bn, 64, 2, 2};
  return splitK({64, bn, 32, 2, 2}, m, n, k, batches, multiprocessors);
}

int64_t wgmmaSharedBytes(const TileShape &t) {
  return t.stages * (t.bm + t.bn) * kWgmmaSliceBytes + 1024 +
         kWgmmaBarrierBytes;
}

/// `t` as the kernel runs it for `s`: a wgmma tiling of 8-bit operands
/// takes slices of 128 of them, the bytes of 64 halves.
static TileShape forOperands(const ContractionShape &s, TileShape t) {
  if (t.wgmma && multipliesBytes(s.half))
    t.bk = kWgmmaSliceBytes;
  return t;
}

/// Dynamic shared memory an sm_90 block may have.
constexpr int64_t kMaxWgmmaShared = 227 * 1024;

/// A wgmma tiling of 128 x BN x 64 with `stages` stages.
static TileShape wgmmaTiles(int64_t bn, int64_t stages) {
  TileShape t{128, bn, 64, 8, 1, stages};
  t.wgmma = true;
  return t;
}

/// Most K of a contraction that takes 128x128 blocks in 3 stages, two to a
/// multiprocessor: with few slices per block, the stores (and an
/// epilogue's arithmetic) of one block then overlap the other's products.
constexpr int64_t kShortK = 1024;

/// Most K of a convolution whose 128x128 blocks become 128x64 ones in 3
/// stages, and of one whose 128x128 blocks take 3 stages.
constexpr int64_t kShortConvolutionK = 512;
constexpr int64_t kMidConvolutionK = 1152;

/// Most M of a product that takes 128x64 wgmma blocks.
constexpr int64_t kFewRows = 512;

/// Whether blocks `bn` wide waste at most an eighth of `n`'s columns.
static bool fitsColumns(int64_t n, int64_t bn) {
  int64_t padded = llvm::alignTo(n, bn);
  return 8 * (padded - n) <= padded;
}

/// A K of one or two 64-deep slices, which gains nothing from a fourth
/// stage: three let two blocks share a multiprocessor, one's loads under
/// the other's stores (ResNet-50's 1x1 convolutions of 64 channels).
static bool fewSlices(int64_t k) { return k <= 128; }

/// Shared memory of one sm_90 multiprocessor, and what each resident
/// block reserves besides its own.
constexpr int64_t kWgmmaSharedPerSM = 228 * 1024;
constexpr int64_t kReservedPerBlock = 1024;

/// wgmma blocks of `t` resident on one multiprocessor at once: as many as
/// its shared memory holds, and as the registers of their accumulators
/// allow (128 x BN f32 over 256 threads, about BN / 2 + 40 registers each
/// of 65536: three blocks of 128x64, two of 128x128, one of 128x256).
static int64_t residentWgmmaBlocks(const TileShape &t) {
  int64_t byShared =
      kWgmmaSharedPerSM / (wgmmaSharedBytes(t) + kReservedPerBlock);
  int64_t byRegisters = 65536 / (t.threads() * (t.bn / 2 + 40));
  return std::max<int64_t>(1, std::min(byShared, byRegisters));
}

/// How full the last wave of `t`'s blocks leaves the multiprocessors, as
/// waves / rounds (1: every round full).
static double waveEfficiency(const TileShape &t, int64_t m, int64_t n,
                             int64_t batches, int64_t multiprocessors) {
  double waves = double(blockCount(m, n, batches, t.bm, t.bn)) /
                 double(multiprocessors * residentWgmmaBlocks(t));
  return waves / std::ceil(waves);
}

/// `t` unless its blocks fill more than one round of the multiprocessors
/// and leave the last one under 65% full (ViT-B/16's 6304 x 768 products
/// at batch 32: 150 blocks of 128x256 on 132 multiprocessors, 1.14 waves):
/// then the wgmma tiling of the fullest rounds, at least a tenth fuller.
/// Among equally full ones, with K up to kShortK two or more resident
/// blocks first (one's loads and stores under another's products), then
/// the widest block and the most stages; with a longer K the widest block
/// first. On the H100 --autotune chose these for all three such products
/// of ViT-B/16 (docs/results/2026-11-25-5f0a844-h100-autotune-wgmma.tsv):
/// 6304 x 768 x 768 128x64x64x4 0.351 ms against 128x128x64x3 0.390, 6304 x 768
/// x 3072 128x128x64x4 1.030 against 128x256x64x4 1.076 (twelve layers each).
static TileShape balanceWaves(TileShape t, int64_t m, int64_t n, int64_t k,
                              int64_t batches, int64_t multiprocessors) {
  double current = waveEfficiency(t, m, n, batches, multiprocessors);
  if (blockCount(m, n, batches, t.bm, t.bn) <=
          multiprocessors * residentWgmmaBlocks(t) ||
      current >= 0.65)
    return t;
  auto rank = [&](const TileShape &c) {
    double full = waveEfficiency(c, m, n, batches, multiprocessors);
    bool overlapped = k <= kShortK && residentWgmmaBlocks(c) >= 2;
    return std::make_tuple(std::round(full * 100), overlapped, c.bn, c.stages);
  };
  TileShape best = t;
  for (int64_t bn : {256, 128, 64})
    for (int64_t stages : {4, 3}) {
      TileShape c = wgmmaTiles(bn, stages);
      // What chooseWgmmaTiles allows: at most an eighth of the columns
      // wasted, 128x64 blocks alone for few rows, 3 stages for few slices.
      if (wgmmaSharedBytes(c) > kMaxWgmmaShared || !fitsColumns(n, bn) ||
          (m <= kFewRows && bn > 64) || (fewSlices(k) && stages != 3) ||
          waveEfficiency(c, m, n, batches, multiprocessors) < current + 0.1)
        continue;
      if (best == t || rank(c) > rank(best))
        best = c;
    }
  return best;
}

/// `t`, or 128x192 blocks where those load the busiest multiprocessor
/// with fewer outputs: ceil(blocks / multiprocessors) blocks of 128 x BN
/// each (blocks resident together share its tensor cores), or as many
/// with a longer K than kShortK, where the wider block's products per byte
/// count and a second resident block's overlap less. Products only (not
/// convolutions, whose tilings --autotune fitted), of more than kFewRows
/// rows and N a multiple of 192. BERT-base's 4096 x 768 products at batch
/// 32: 192 blocks of 128x128 put two on 60 multiprocessors (32768 outputs
/// each), 128 of 128x192 one on each (24576); ViT-B/16's 6304 x 768 x
/// 3072: 300 of 128x128 or 200 of 128x192 load each with 49152.
static TileShape preferWidth192(TileShape t, int64_t m, int64_t n, int64_t k,
                                int64_t batches, int64_t multiprocessors,
                                bool convolution) {
  if (convolution || !t.wgmma || m <= kFewRows || n % 192 != 0)
    return t;
  TileShape c = wgmmaTiles(192, fewSlices(k) ? 3 : 4);
  auto load = [&](const TileShape &x) {
    int64_t blocks = blockCount(m, n, batches, x.bm, x.bn);
    return (blocks + multiprocessors - 1) / multiprocessors * x.bn;
  };
  if (load(c) < load(t) || (load(c) == load(t) && k > kShortK && t.bn < 192))
    return c;
  return t;
}

/// Blocks of 128 x BN (m64nBN per warpgroup), BN the widest of 256, 128
/// and 64 that wastes at most an eighth of its columns and whose blocks
/// alone fill the multiprocessors, in 4 stages (one block per
/// multiprocessor); up to kShortK, or when 128x128 blocks are at most two
/// per multiprocessor, BN at most 128 in 3 stages. On the
/// H100 (f16): 4096^3 0.265 ms at 128x256x4, 0.302 at 128x128x4;
/// 4096x3072x768 0.057 ms at 128x128x3, 0.059 at 128x256x4. With M at
/// most kFewRows (a 1x1 convolution's filters against the pixels), BN 64:
/// --autotune's choice for all seven such products of ResNet-50 and
/// MobileNetV2 at batch 32 (256 x 100352 x 64: 0.62 ms against 0.66 at
/// 128x128), in 3 stages where the blocks fill the multiprocessors, else
/// 4, and with K up to kShortK even when they leave some idle.
/// Convolutions (implicit GEMMs on channels-last images) take 4 stages,
/// except where their blocks would be 128x128 and K short: up to
/// kShortConvolutionK, 128x64 blocks in 3 stages (three resident a
/// multiprocessor, each one's loads and stores under the others'
/// products) when they make at least four waves of one a multiprocessor;
/// else up to kMidConvolutionK, 128x128 in 3 stages (two resident). On the
/// H100 with the sums stored through shared memory (--autotune, all six
/// wgmma tilings of ResNet-50's and MobileNetV2's shapes at batch 32,
/// docs/results/2026-11-25-5f0a844-h100-autotune-wgmma.tsv): 6272 x 1024 x
/// 256 0.115 ms in 128x64x3 against 0.137 in 128x128x4, 25088 x 128 x 1152
/// 0.109 in 128x128x3 against 0.125 in 4 stages; 128x64 convolutions keep 4
/// stages (6272 x 256 x 1024: 0.080 ms against 0.095 in 3), and so do the
/// longer ones (6272 x 256 x 2304 in 128x128: 0.161 against 0.240).
/// When no block shape fills the multiprocessors, 128x64 blocks in 4
/// stages all the same if K is at least 96 and either at most kShortK or
/// the blocks number a quarter of the multiprocessors (1568 x 512 x 4608,
/// ResNet-50's last 3x3 convolutions at batch 32: 104 blocks, 0.117 ms
/// against 0.362 for mma.sync's 64x64); else none: small products with a
/// long K (49 x 512 x 4608 at batch 1) keep mma.sync and its split K.
/// A choice whose last wave is nearly empty is then rebalanced
/// (balanceWaves), and one that loads the busiest multiprocessor with more
/// outputs than 128x192 blocks would takes those (preferWidth192).
static std::optional<TileShape> chooseWgmmaTiles(int64_t m, int64_t n,
                                                 int64_t k, int64_t batches,
                                                 int64_t multiprocessors,
                                                 bool convolution) {
  auto blocks = [&](int64_t bm, int64_t bn) {
    return blockCount(m, n, batches, bm, bn);
  };
  auto tilesOf = [&](int64_t bn, int64_t stages) {
    return wgmmaTiles(bn, fewSlices(k) ? 3 : stages);
  };
  // Two blocks per multiprocessor also when 128x128 blocks fill at most
  // two per multiprocessor: one block each would leave a partial second
  // wave (BERT-base's 4096x768x3072 at batch 32: 192 blocks on 132).
  // Few rows and a short K: 128x64 blocks even when they leave
  // multiprocessors idle (at batch 1, ResNet-50's 128 x 784 x 512: 13
  // blocks in 4 stages 0.042 ms, against 0.056 for 104 mma.sync blocks of
  // 64x64 splitting K in 4).
  if (m <= kFewRows && k <= kShortK)
    return tilesOf(64,
                   blocks(128, 64) >= multiprocessors && !convolution ? 3 : 4);
  bool twoPerSM = k <= kShortK || blocks(128, 128) <= 2 * multiprocessors;
  for (int64_t bn : {256, 128, 64}) {
    if ((twoPerSM && bn > 128) || (m <= kFewRows && bn > 64))
      continue;
    if (fitsColumns(n, bn) && blocks(128, bn) >= multiprocessors) {
      int64_t stages = twoPerSM && !convolution ? 3 : 4;
      if (convolution && bn == 128) {
        // A short K: three resident 128x64 blocks when they make several
        // waves, else two 128x128 ones (see the comment above).
        if (k <= kShortConvolutionK && blocks(128, 64) >= 4 * multiprocessors)
          return tilesOf(64, 3);
        if (k <= kMidConvolutionK)
          stages = 3;
      }
      return preferWidth192(
          balanceWaves(tilesOf(bn, stages), m, n, k, batches, multiprocessors),
          m, n, k, batches, multiprocessors, convolution);
    }
  }
  if (k >= 96 && (k <= kShortK || 4 * blocks(128, 64) >= multiprocessors))
    return tilesOf(64, 4);
  return std::nullopt;
}

/// Static shared memory of an mma.sync block: its stages of A and B tiles
/// of `elementBytes` elements, each as rows of k or as rows of m or n,
/// whichever is larger, rows padded by at most 8 elements (as sharedPad
/// pads them).
static int64_t mmaSyncSharedBytes(const TileShape &t, int64_t elementBytes) {
  auto tile = [&](int64_t rows) {
    return std::max(rows * (t.bk + kPad), t.bk * (rows + kPad));
  };
  return t.stages * elementBytes * (tile(t.bm) + tile(t.bn));
}

/// Static shared memory an mma.sync block may have.
constexpr int64_t kMaxMmaSyncShared = 48 * 1024;

/// Shared memory of an mma.sync block with cp.async stages (dynamic past
/// 48 KiB): what every sm_80+ GPU gives a block (99 KiB on sm_86 and
/// sm_89, 163 KiB on sm_80, 227 KiB on sm_90).
constexpr int64_t kMaxMmaSyncAsyncShared = 96 * 1024;

/// Whether `t` is an mma.sync tiling whose shared buffers fit: 1 or 2
/// stages in static shared memory, 3 to 8 cp.async stages in
/// kMaxMmaSyncAsyncShared, of `elementBytes` elements.
static bool fitsMmaSyncShared(const TileShape &t, int64_t elementBytes) {
  if (t.stages > 8)
    return false;
  return mmaSyncSharedBytes(t, elementBytes) <=
         (t.stages > 2 ? kMaxMmaSyncAsyncShared : kMaxMmaSyncShared);
}

FailureOr<TileShape> parseTiles(StringRef spec, bool wgmma) {
  auto [shape, splitSpec] = spec.split('/');
  int64_t splits = 1;
  if (!splitSpec.empty() &&
      (splitSpec.getAsInteger(10, splits) || splits < 1 || splits > kMaxSplits))
    return failure();
  SmallVector<StringRef> parts;
  shape.split(parts, 'x');
  SmallVector<int64_t> values;
  for (StringRef part : parts) {
    int64_t v;
    if (part.getAsInteger(10, v) || v <= 0 || v > 1024)
      return failure();
    values.push_back(v);
  }
  if (values.size() != 3 && values.size() != 4)
    return failure();
  if (wgmma && values.size() == 4 && values[0] == 128 && values[2] == 64 &&
      llvm::is_contained({64, 128, 192, 256}, values[1]) && values[3] >= 3 &&
      values[3] <= 8) {
    TileShape t = wgmmaTiles(values[1], values[3]);
    // The wgmma kernel does not split K.
    if (wgmmaSharedBytes(t) <= kMaxWgmmaShared && splits == 1)
      return t;
  }
  TileShape t{values[0], values[1], values[2], 2, 2};
  if (values.size() == 4)
    t.stages = values[3];
  // Blocks of 128 x 128 or more: 8 warps of 64 x 32, or with cp.async
  // stages warps of 64 x 64 (twice the products per fragment read).
  if (t.bm >= 128 && t.bn >= 128) {
    t.warpsN = 4;
    if (t.stages > 2) {
      t.warpsM = t.bm / 64;
      t.warpsN = t.bn / 64;
    }
  }
  t.splits = splits;
  if (t.bm % (t.warpsM * 16) || t.bn % (t.warpsN * 16) || t.bk % 16 ||
      (t.bm * t.bk / kVectorElements) % t.threads() ||
      (t.bn * t.bk / kVectorElements) % t.threads() || !fitsMmaSyncShared(t, 2))
    return failure();
  return t;
}

std::string formatTiles(const TileShape &t) {
  std::string spec = std::to_string(t.bm) + "x" + std::to_string(t.bn) + "x" +
                     std::to_string(t.bk) + "x" + std::to_string(t.stages);
  if (t.splits > 1)
    spec += "/" + std::to_string(t.splits);
  return spec;
}

ContractionShape describeContraction(linalg::GenericOp op,
                                     const aicc::gpu::Contraction &c, Type half,
                                     bool wgmma) {
  ContractionShape s;
  s.m = c.extent(c.m);
  s.n = c.extent(c.n);
  s.k = c.extent(c.k);
  s.batches = c.extent(c.batch);
  s.half = half;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  s.a = chooseAccess(op.getDpsInputs()[0], maps[0], c.m, c);
  s.b = chooseAccess(op.getDpsInputs()[1], maps[1], c.n, c);
  // ldmatrix transposes 16-bit elements, not bytes: an 8-bit operand that
  // is not contiguous along k goes into its tile element by element.
  if (multipliesBytes(half)) {
    if (s.a == Access::RowVector)
      s.a = Access::Scalar;
    if (s.b == Access::RowVector)
      s.b = Access::Scalar;
  }
  // wgmma reads both operands from shared memory as the cp.async copies
  // left them: 16-byte pieces of the half type itself, A along k.
  auto stored = [&](unsigned i) {
    return cast<MemRefType>(op.getDpsInputs()[i].getType()).getElementType();
  };
  s.storedA = stored(0);
  s.storedB = stored(1);
  // (8-bit operands both along k: wgmma transposes 16-bit elements only.)
  s.wgmma = wgmma && s.a == Access::KVector &&
            (multipliesBytes(half) ? s.b == Access::KVector
                                   : s.b != Access::Scalar) &&
            s.storedA == half && s.storedB == half;
  s.convolution =
      c.m.size() >= 3 || llvm::any_of(maps[0].getResults(), [](AffineExpr e) {
        return !isa<AffineDimExpr, AffineConstantExpr>(e);
      });
  return s;
}

LogicalResult checkTilingOptions(Operation *root, StringRef pass,
                                 StringRef operandType, StringRef tile,
                                 bool wgmma, std::optional<TileShape> &forced) {
  if (!operandType.empty() && operandType != "f16" && operandType != "bf16" &&
      operandType != "tf32")
    return root->emitError(pass) << ": operand-type must be f16, bf16 or "
                                    "tf32, not '"
                                 << operandType << "'";
  if (tile.empty())
    return success();
  FailureOr<TileShape> parsed = parseTiles(tile, wgmma);
  if (failed(parsed))
    return root->emitError(pass)
           << ": tile '" << tile
           << "' is not BMxBNxBK[xSTAGES][/SPLITS] with whole warp tiles, BK a "
              "multiple of 16, 1 or 2 stages in at most 48 KiB of shared "
              "memory or 3 to 8 cp.async stages in at most 96 KiB (with wgmma "
              "also 128xBNx64xSTAGES, BN 64, 128, 192 or "
              "256, 3 to 8 stages in at most 227 KiB)";
  forced = *parsed;
  return success();
}

std::optional<PreparedContraction>
prepareContraction(linalg::GenericOp op, StringRef convertTo, bool wgmma) {
  auto taken = tensorCoreContraction(op, convertTo);
  if (!taken)
    return std::nullopt;
  // fp8 products run on wgmma alone, both operands copied in 16-byte
  // pieces (TMA's boxes are of them too); elsewhere the generic kernels
  // take them.
  auto inPieces = [&](unsigned i, const aicc::gpu::Contraction &c) {
    return vectorizable(op.getDpsInputs()[i], op.getIndexingMapsArray()[i], c.k,
                        c.bounds, kPieceBytes);
  };
  if (isFloat8(taken->second) &&
      (!wgmma || !inPieces(0, taken->first) || !inPieces(1, taken->first)))
    return std::nullopt;
  op = prepareOperands(op, taken->first);
  std::optional<aicc::gpu::Contraction> contraction =
      aicc::gpu::matchContraction(op);
  assert(contraction && "prepared operands keep the contraction");
  ContractionShape shape =
      describeContraction(op, *contraction, taken->second, wgmma);
  return PreparedContraction{op, *contraction, shape};
}

static char accessLetter(Access access) {
  switch (access) {
  case Access::Scalar:
    return 's';
  case Access::KVector:
    return 'k';
  case Access::RowVector:
    return 'r';
  }
  llvm_unreachable("an access kind");
}

std::string contractionSignature(const ContractionShape &s) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << s.half << ":b" << s.batches << ":m" << s.m << ":n" << s.n << ":k" << s.k
     << ":" << accessLetter(s.a) << accessLetter(s.b);
  // Operands stored in another type than the products' (converted as they
  // are read: no wgmma for them); tf32 products read f32 as they are.
  if (s.storedA != storageType(s.half))
    os << ":a" << s.storedA;
  if (s.storedB != storageType(s.half))
    os << ":b" << s.storedB;
  return text;
}

TileShape chooseTiles(const ContractionShape &s, int64_t multiprocessors,
                      std::optional<TileShape> forced) {
  // (A forced tiling that an integer product cannot run leaves it to the
  // model.)
  TileShape tiles =
      forced && !forced->wgmma && (!s.half.isInteger(8) || admits(s, *forced))
          ? *forced
          : chooseMmaSyncTiles(s.m, s.n, s.k, s.batches, multiprocessors,
                               s.vectorOperands(), s.half);
  if (s.wgmma) {
    std::optional<TileShape> chosen =
        forced ? (forced->wgmma ? forced : std::nullopt)
               : chooseWgmmaTiles(s.m, s.n, s.k, s.batches, multiprocessors,
                                  s.convolution);
    // (fp8 products run on wgmma alone: the smallest tiling where the
    // model would leave them to mma.sync.)
    if (!chosen && isFloat8(s.half))
      chosen = wgmmaTiles(64, 3);
    if (chosen)
      tiles = forOperands(s, *chosen);
  }
  return tiles;
}

FailureOr<TileShape> chooseAdmittedTiles(const PreparedContraction &p,
                                         StringRef pass,
                                         int64_t multiprocessors,
                                         std::optional<TileShape> forced,
                                         StringRef tile) {
  TileShape tiles = chooseTiles(p.shape, multiprocessors, forced);
  if (admits(p.shape, tiles))
    return tiles;
  linalg::GenericOp op = p.op;
  op.emitError(pass) << ": the tile " << tile << " cannot run "
                     << contractionSignature(p.shape)
                     << ": some of its K splits would get no slices, its "
                        "cp.async stages need both operands read 8 halves at "
                        "a time, or its tf32 tiles need more shared memory "
                        "than they may have";
  return failure();
}

bool admits(const ContractionShape &s, const TileShape &t) {
  if (t.wgmma)
    return s.wgmma && t.splits == 1 &&
           t.bk * storageType(s.half).getIntOrFloatBitWidth() / 8 ==
               kWgmmaSliceBytes;
  if (s.half.isTF32() && !fitsMmaSyncShared(t, 4))
    return false;
  if (isFloat8(s.half))
    return false;
  // 8-bit integers on mma.sync: whole m16n8k32 steps, the register path
  // (cp.async copies 16-byte pieces, 8 bytes here) and K whole (split sums
  // are f32).
  if (s.half.isInteger(8) &&
      (t.bk % mmaDepth(s.half) || t.stages > 2 || t.splits != 1))
    return false;
  // cp.async copies 16-byte pieces as they are: both operands read 8
  // elements at a time and stored in the type the tensor cores multiply.
  if (t.stages > 2 && (!s.vectorOperands() || s.half.isTF32() ||
                       s.storedA != s.half || s.storedB != s.half))
    return false;
  // Every split gets slices: K's slices dealt out ceil(slices / splits) at
  // a time must come to exactly `splits` shares.
  int64_t slices = (s.k + t.bk - 1) / t.bk;
  if (t.splits < 1 || t.splits > slices)
    return false;
  int64_t perSplit = (slices + t.splits - 1) / t.splits;
  return (slices + perSplit - 1) / perSplit == t.splits;
}

SmallVector<TileShape> tileCandidates(const ContractionShape &s,
                                      int64_t multiprocessors) {
  SmallVector<TileShape> result{chooseTiles(s, multiprocessors, std::nullopt)};
  auto add = [&](const TileShape &t) {
    if (admits(s, t) && !llvm::is_contained(result, t))
      result.push_back(t);
  };
  if (s.wgmma) {
    for (int64_t bn : {64, 128, 192, 256})
      for (int64_t stages : {3, 4})
        if (wgmmaSharedBytes(wgmmaTiles(bn, stages)) <= kMaxWgmmaShared)
          add(forOperands(s, wgmmaTiles(bn, stages)));
    // mma.sync is worth measuring where the model keeps it.
    if (result.front().wgmma)
      return result;
  }
  SmallVector<TileShape> blocks{{128, 128, 32, 2, 4},
                                {128, 64, 32, 2, 2},
                                {64, 128, 32, 2, 2},
                                {64, 64, 32, 2, 2}};
  if (s.vectorOperands()) {
    blocks.insert(blocks.begin(), {128, 128, 64, 2, 4});
    // cp.async stages (admits takes them where nothing is converted).
    for (TileShape t :
         {TileShape{128, 128, 32, 2, 2, 3}, TileShape{128, 128, 32, 2, 2, 4},
          TileShape{128, 256, 32, 2, 4, 3}})
      blocks.push_back(t);
  }
  for (const TileShape &t : blocks) {
    add(t);
    add(splitK(t, s.m, s.n, s.k, s.batches, multiprocessors));
  }
  return result;
}

Attribute encodeTiles(MLIRContext *context, const TileShape &t, Type mmaType,
                      StringRef signature, Origin origin, StringRef target) {
  // Block, warp (wgmma: warpgroup of four warps along m) and instruction
  // tiles over (M, N, K).
  SmallVector<int64_t> block{t.bm, t.bn, t.bk};
  SmallVector<int64_t> warp{t.bm / t.warpsM, t.bn / t.warpsN, t.bk};
  SmallVector<int64_t> instruction{16, 8, mmaDepth(mmaType)};
  if (t.wgmma) {
    // 32 bytes deep: k16 of halves, k32 of 8-bit integers and fp8.
    warp = {64, t.bn, t.bk};
    instruction = {64, t.bn, multipliesBytes(mmaType) ? 32 : 16};
  }
  Builder b(context);
  SmallVector<DenseI64ArrayAttr> levels{b.getDenseI64ArrayAttr(block),
                                        b.getDenseI64ArrayAttr(warp),
                                        b.getDenseI64ArrayAttr(instruction)};
  auto config = ContractionConfigAttr::get(
      context, t.wgmma ? Engine::wgmma : Engine::mma_sync, t.stages, t.splits,
      signature, origin);
  return aicc::tile::EncodingAttr::get(context, levels, {},
                                       b.getStringAttr(target), config);
}

FailureOr<TileShape> decodeTiles(Attribute attr, std::string &why) {
  auto encoding = dyn_cast<aicc::tile::EncodingAttr>(attr);
  auto fail = [&](const std::string &message) {
    why = message;
    return failure();
  };
  // The encoding's verifier has checked the levels' shape against the
  // configuration.
  auto config =
      encoding ? dyn_cast_or_null<ContractionConfigAttr>(encoding.getConfig())
               : ContractionConfigAttr();
  if (!config)
    return fail("not a #tile.encoding with a #aicc_gpu.contraction");
  ArrayRef<int64_t> block = encoding.getTiles()[0].asArrayRef();
  ArrayRef<int64_t> warp = encoding.getTiles()[1].asArrayRef();
  bool wgmma = config.getEngine() == Engine::wgmma;
  // A wgmma tiling of 8-bit integers (k32 instructions) is the halves' one
  // with slices of the same bytes, twice the elements.
  int64_t bytesPerElement =
      wgmma && encoding.getTiles()[2].asArrayRef()[2] == 32 ? 1 : 2;
  TileShape t{block[0],
              block[1],
              block[2] * bytesPerElement / 2,
              1,
              1,
              config.getStages(),
              config.getSplits()};
  FailureOr<TileShape> parsed = parseTiles(formatTiles(t), wgmma);
  if (failed(parsed) || parsed->wgmma != wgmma)
    return fail("the " + stringifyEngine(config.getEngine()).str() +
                " kernel has no tiling " + formatTiles(t));
  parsed->bk = block[2];
  // The warps follow from the block (parseTiles); the encoding must agree.
  SmallVector<int64_t> expected{parsed->bm / parsed->warpsM,
                                parsed->bn / parsed->warpsN, parsed->bk};
  if (wgmma)
    expected = {64, parsed->bn, parsed->bk};
  if (ArrayRef<int64_t>(expected) != warp)
    return fail("its warp tile is not the kernel's for that block");
  return *parsed;
}

} // namespace aicc::gpu::mma
