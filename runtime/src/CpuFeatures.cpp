//===- CpuFeatures.cpp - What the host CPU can run ------------------------===//

#include "CpuFeatures.h"

#include "aicc/bundle_format.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

uint64_t aicc::runtime::hostCpuFeatures() {
  uint64_t bits = 0;
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d))
    return 0;
  bool sse42 = c & (1u << 20), osxsave = c & (1u << 27), avx = c & (1u << 28),
       fma = c & (1u << 12), f16c = c & (1u << 29);
  uint64_t xcr0 = 0;
  if (osxsave) {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (uint64_t(hi) << 32) | lo;
  }
  bool ymm = (xcr0 & 0x6) == 0x6;           // SSE and AVX state
  bool zmm = ymm && (xcr0 & 0xe0) == 0xe0;  // opmask, ZMM_Hi256, Hi16_ZMM
  bool tiles = (xcr0 & 0x60000) == 0x60000; // XTILECFG, XTILEDATA
  if (sse42)
    bits |= AICC_CPU_SSE4_2;
  if (avx && ymm) {
    bits |= AICC_CPU_AVX;
    if (fma)
      bits |= AICC_CPU_FMA;
    if (f16c)
      bits |= AICC_CPU_F16C;
  }
  unsigned maxLeaf = __get_cpuid_max(0, nullptr);
  if (maxLeaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    if ((b & (1u << 5)) && ymm)
      bits |= AICC_CPU_AVX2;
    if (b & (1u << 8))
      bits |= AICC_CPU_BMI2;
    if (zmm) {
      if (b & (1u << 16))
        bits |= AICC_CPU_AVX512F;
      if (b & (1u << 17))
        bits |= AICC_CPU_AVX512DQ;
      if (b & (1u << 30))
        bits |= AICC_CPU_AVX512BW;
      if (b & (1u << 31))
        bits |= AICC_CPU_AVX512VL;
      if (c & (1u << 11))
        bits |= AICC_CPU_AVX512VNNI;
      if (d & (1u << 23))
        bits |= AICC_CPU_AVX512FP16;
    }
    if (tiles) {
      if (d & (1u << 24))
        bits |= AICC_CPU_AMX_TILE;
      if (d & (1u << 25))
        bits |= AICC_CPU_AMX_INT8;
      if (d & (1u << 22))
        bits |= AICC_CPU_AMX_BF16;
    }
    unsigned subleaves = a;
    if (subleaves >= 1) {
      __cpuid_count(7, 1, a, b, c, d);
      if ((a & (1u << 4)) && ymm)
        bits |= AICC_CPU_AVXVNNI;
      if ((a & (1u << 5)) && zmm)
        bits |= AICC_CPU_AVX512BF16;
    }
  }
#endif
  return bits;
}

std::string aicc::runtime::cpuFeatureNames(uint64_t features) {
  std::string names;
#define AICC_FEATURE_NAME(name, bit, string)                                   \
  if (features & (uint64_t(1) << bit)) {                                       \
    if (!names.empty())                                                        \
      names += " ";                                                            \
    names += string;                                                           \
  }
  AICC_CPU_FEATURES(AICC_FEATURE_NAME)
#undef AICC_FEATURE_NAME
  return names;
}

bool aicc::runtime::enableAmx() {
#if defined(__x86_64__) && defined(SYS_arch_prctl)
  constexpr int kArchReqXcompPerm = 0x1023;
  constexpr int kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}
