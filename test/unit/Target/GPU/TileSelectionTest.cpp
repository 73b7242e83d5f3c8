//===- TileSelectionTest.cpp - Tensor-core contraction tilings ------------===//

#include "MMAKernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace aicc::gpu::mma;

namespace {

class TileSelectionTest : public ::testing::Test {
protected:
  /// An f16 product of `m` x `n` x `k`, A read along k and B along its
  /// rows (a weight matrix [k][n]).
  ContractionShape product(int64_t m, int64_t n, int64_t k, bool wgmma,
                           Type half = {}) {
    Type type = half ? half : Type(Float16Type::get(&context));
    return ContractionShape{
        m,    n,    k,    1, type, Access::KVector, Access::RowVector,
        type, type, wgmma};
  }
  MLIRContext context;
};

TEST_F(TileSelectionTest, SignatureNamesTheShapeAndAccesses) {
  EXPECT_EQ(contractionSignature(product(4096, 3072, 768, true)),
            "f16:b1:m4096:n3072:k768:kr");
}

TEST_F(TileSelectionTest, LargeProductsOnWgmmaTakeTwoWarpgroupBlocks) {
  // BERT's QKV projection at batch 32 on an H100 (132 multiprocessors).
  TileShape t = chooseTiles(product(4096, 3072, 768, true), 132, std::nullopt);
  EXPECT_TRUE(t.wgmma);
  EXPECT_EQ(t.bm, 128);
  EXPECT_EQ(t.bk, 64);
  EXPECT_EQ(t.splits, 1);
  EXPECT_GE(t.stages, 3);
  EXPECT_TRUE(admits(product(4096, 3072, 768, true), t));
}

TEST_F(TileSelectionTest, LargeProductsOnMmaSyncTakeEightWarpBlocks) {
  TileShape t =
      chooseTiles(product(4096, 4096, 4096, false), 132, std::nullopt);
  EXPECT_FALSE(t.wgmma);
  EXPECT_EQ(t.bm, 128);
  EXPECT_EQ(t.bn, 128);
  EXPECT_EQ(t.threads(), 256);
  EXPECT_EQ(t.splits, 1);
}

TEST_F(TileSelectionTest, FewBlocksSplitK) {
  // 128 x 128 outputs are a handful of blocks for 132 multiprocessors;
  // K = 4096 is long enough to share among several.
  TileShape t = chooseTiles(product(128, 128, 4096, false), 132, std::nullopt);
  EXPECT_GT(t.splits, 1);
  EXPECT_TRUE(admits(product(128, 128, 4096, false), t));
}

TEST_F(TileSelectionTest, ForcedTilingsWin) {
  FailureOr<TileShape> forced = parseTiles("64x64x32x2", /*wgmma=*/false);
  ASSERT_TRUE(succeeded(forced));
  EXPECT_EQ(chooseTiles(product(1024, 1024, 1024, false), 132, *forced),
            *forced);
}

TEST_F(TileSelectionTest, ParseAndFormatRoundTrip) {
  for (const char *spec : {"128x128x32x1", "64x64x32x2/4", "128x128x32x3"}) {
    FailureOr<TileShape> t = parseTiles(spec, false);
    ASSERT_TRUE(succeeded(t)) << spec;
    EXPECT_EQ(formatTiles(*t), spec);
  }
  FailureOr<TileShape> w = parseTiles("128x256x64x4", /*wgmma=*/true);
  ASSERT_TRUE(succeeded(w));
  EXPECT_TRUE(w->wgmma);
}

TEST_F(TileSelectionTest, ParseRefusesWhatNoKernelRuns) {
  // BK not a multiple of 16; too many stages for the shared memory; not
  // a shape at all.
  EXPECT_TRUE(failed(parseTiles("128x128x20", false)));
  EXPECT_TRUE(failed(parseTiles("128x256x64x2", false)));
  EXPECT_TRUE(failed(parseTiles("big", false)));
}

TEST_F(TileSelectionTest, AdmitsChecksSplitsAndStages) {
  ContractionShape s = product(256, 256, 64, false);
  FailureOr<TileShape> eightSplits = parseTiles("64x64x32x1/8", false);
  ASSERT_TRUE(succeeded(eightSplits));
  // K = 64 has two slices of 32: eight splits would leave six empty.
  EXPECT_FALSE(admits(s, *eightSplits));
  // cp.async stages need both operands read 8 halves at a time.
  ContractionShape scalar = s;
  scalar.a = Access::Scalar;
  FailureOr<TileShape> staged = parseTiles("64x64x32x3", false);
  ASSERT_TRUE(succeeded(staged));
  EXPECT_TRUE(admits(s, *staged));
  EXPECT_FALSE(admits(scalar, *staged));
}

TEST_F(TileSelectionTest, CandidatesStartWithTheModelsChoiceAndAllRun) {
  ContractionShape s = product(2048, 2048, 1024, false);
  SmallVector<TileShape> candidates = tileCandidates(s, 132);
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates.front(), chooseTiles(s, 132, std::nullopt));
  for (const TileShape &t : candidates)
    EXPECT_TRUE(admits(s, t)) << formatTiles(t);
}

} // namespace
