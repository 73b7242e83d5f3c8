//===- LimitsTest.cpp - The GPU architectures' limits ---------------------===//

#include "Limits.h"

#include <gtest/gtest.h>

using namespace aicc::gpu;

namespace {

TEST(LimitsTest, NvidiaArchitecturesTakeTheirTableEntry) {
  std::optional<GPULimits> h100 = limitsOf("sm_90a");
  ASSERT_TRUE(h100);
  EXPECT_EQ(h100->vendor, Vendor::nvidia);
  EXPECT_EQ(h100->multiprocessors, 132);
  EXPECT_EQ(h100->warpSize, 32);
  EXPECT_EQ(h100->sharedPerBlock, 227 * 1024);
  std::optional<GPULimits> a10 = limitsOf("sm_86");
  ASSERT_TRUE(a10);
  EXPECT_EQ(a10->maxThreadsPerMultiprocessor, 1536);
}

TEST(LimitsTest, UnknownNvidiaArchitecturesTakeTheClosestOlderEntry) {
  // sm_95 is between sm_90 and sm_100; sm_50 is older than the oldest.
  EXPECT_EQ(limitsOf("sm_95")->multiprocessors,
            limitsOf("sm_90")->multiprocessors);
  EXPECT_EQ(limitsOf("sm_50")->multiprocessors,
            limitsOf("sm_60")->multiprocessors);
}

TEST(LimitsTest, AmdArchitectures) {
  std::optional<GPULimits> mi300 = limitsOf("gfx942");
  ASSERT_TRUE(mi300);
  EXPECT_EQ(mi300->vendor, Vendor::amd);
  EXPECT_EQ(mi300->multiprocessors, 304);
  EXPECT_EQ(mi300->warpSize, 64);
  // Other AMD GPUs take gfx90a's.
  EXPECT_EQ(limitsOf("gfx1100")->multiprocessors,
            limitsOf("gfx90a")->multiprocessors);
}

TEST(LimitsTest, OtherNamesHaveNone) {
  EXPECT_FALSE(limitsOf("tpu4"));
  EXPECT_FALSE(limitsOf("sm_"));
  EXPECT_FALSE(limitsOf(""));
}

TEST(LimitsTest, SeveralArchitecturesTakeWhatEveryOneMeets) {
  std::optional<GPULimits> both =
      tightestLimits({"sm_80", "sm_86"}, Vendor::nvidia);
  ASSERT_TRUE(both);
  // The largest one's multiprocessors (blocks that fill it fill the rest),
  // the least shared memory, and threads a multiprocessor whose divisors
  // pack both (gcd of 2048 and 1536).
  EXPECT_EQ(both->multiprocessors, 108);
  EXPECT_EQ(both->sharedPerBlock, 99 * 1024);
  EXPECT_EQ(both->maxThreadsPerMultiprocessor, 512);
}

TEST(LimitsTest, MixedOrForeignArchitecturesHaveNone) {
  EXPECT_FALSE(tightestLimits({"sm_90", "gfx942"}, Vendor::nvidia));
  EXPECT_FALSE(tightestLimits({"gfx942"}, Vendor::nvidia));
  EXPECT_FALSE(tightestLimits({"sm_90"}, Vendor::amd));
}

TEST(LimitsTest, NoArchitecturesMeanTheDefaultOnes) {
  EXPECT_EQ(defaultArchs(Vendor::nvidia),
            (std::vector<std::string>{"sm_80", "sm_90"}));
  EXPECT_EQ(defaultArchs(Vendor::amd),
            (std::vector<std::string>{"gfx90a", "gfx942"}));
  std::optional<GPULimits> defaults = tightestLimits({}, Vendor::nvidia);
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults->multiprocessors, 132);
  EXPECT_EQ(defaults->sharedPerBlock, 163 * 1024);
}

} // namespace
