//===- KernelTilesTest.cpp - Tilings of row, attention, MFMA, loops -------===//

#include "KernelTiles.h"

#include <gtest/gtest.h>

using namespace aicc::gpu;

namespace {

GPULimits limits(const char *arch) { return *limitsOf(arch); }

TEST(RowTilingTest, ManyRowsTakeTheWholeBlock) {
  // 65536 rows in blocks of 8 fill the H100's 132 multiprocessors.
  EXPECT_EQ(chooseRowTiling(65536, limits("sm_90"), 256).warps, 8);
}

TEST(RowTilingTest, FewRowsHalveTheBlockWhileMultiprocessorsIdle) {
  // 512 rows: 8 a block leaves 64 blocks for 132 multiprocessors, 4 gives
  // 128, still short, 2 gives 256.
  EXPECT_EQ(chooseRowTiling(512, limits("sm_90"), 256).warps, 2);
  // On 72 multiprocessors (sm_86) 4 a block already fill them.
  EXPECT_EQ(chooseRowTiling(512, limits("sm_86"), 256).warps, 4);
}

TEST(RowTilingTest, AtLeastOneHardwareWarp) {
  EXPECT_EQ(chooseRowTiling(1, limits("sm_90"), 256).warps, 1);
  // A 64-lane wave holds two of the kernel's 32-lane row warps.
  EXPECT_EQ(chooseRowTiling(1, limits("gfx942"), 256).warps, 2);
}

TEST(ElementwiseTilingTest, BlocksPackAMultiprocessorWhole) {
  // 1024 threads would leave a third of sm_86's 1536 idle: 768 pack it.
  EXPECT_EQ(chooseElementwiseThreads(1 << 24, limits("sm_86"), 1024), 768);
  EXPECT_EQ(chooseElementwiseThreads(1 << 24, limits("sm_90"), 1024), 1024);
}

TEST(ElementwiseTilingTest, SmallLoopsSpreadOverMultiprocessors) {
  // 4096 items in blocks of 256 are 16 blocks for 132 multiprocessors:
  // halved down to one warp (128 blocks).
  EXPECT_EQ(chooseElementwiseThreads(4096, limits("sm_90"), 256), 32);
  // No more warps than the loop needs, at least one.
  EXPECT_EQ(chooseElementwiseThreads(10, limits("sm_90"), 256), 32);
  EXPECT_EQ(chooseElementwiseThreads(10, limits("gfx942"), 256), 64);
}

TEST(AttentionTilingTest, FitsOrSaysWhy) {
  std::string why;
  // BERT-base's heads: 128 keys of 64 on sm_90, four warps a block.
  std::optional<AttentionTiling> bert =
      chooseAttentionTiling(32 * 12, 128, 128, 64, limits("sm_90"), why);
  ASSERT_TRUE(bert);
  EXPECT_EQ(bert->warps, 4);
  EXPECT_EQ(bert->sharedBytes, attentionSharedBytes(4, 128, 64));
  // Longer than the kernel has been run with.
  EXPECT_FALSE(chooseAttentionTiling(1, 512, 512, 64, limits("sm_90"), why));
  EXPECT_NE(why.find("256"), std::string::npos);
  // No attention kernel on AMD GPUs.
  EXPECT_FALSE(chooseAttentionTiling(1, 128, 128, 64, limits("gfx942"), why));
}

TEST(AttentionTilingTest, SharedMemoryBoundsTheChain) {
  std::string why;
  // 256 keys of 128 need 143616 bytes a block: sm_90 has them, sm_86 not.
  EXPECT_TRUE(chooseAttentionTiling(2, 256, 256, 128, limits("sm_90"), why));
  EXPECT_FALSE(chooseAttentionTiling(2, 256, 256, 128, limits("sm_86"), why));
}

TEST(WaveTilingTest, FourWavesWhereTheBlocksStillFillTheUnits) {
  // 4096 x 4096: 128 x 128 wave tiles; 2 x 2 waves a block leave 4096
  // blocks for 304 compute units.
  WaveTiling big = chooseWaveTiling(4096, 4096, 1, limits("gfx942"));
  EXPECT_EQ(big.wavesM, 2);
  EXPECT_EQ(big.wavesN, 2);
  // 64 x 64: four wave tiles, one a block.
  WaveTiling small = chooseWaveTiling(64, 64, 1, limits("gfx942"));
  EXPECT_EQ(small.wavesM, 1);
  EXPECT_EQ(small.wavesN, 1);
}

} // namespace
