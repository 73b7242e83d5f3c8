//===- Limits.cpp - What a GPU gives a kernel -----------------------------===//
//
// Figures from the vendors' tables: NVIDIA's CUDA C++ Programming Guide
// (compute capabilities) and AMD's CDNA2 / CDNA3 instruction set manuals.
// The multiprocessor counts are those of each generation's data-center part
// (A100, A10, L4, H100 SXM, B200; MI210, MI300X).
//
//===----------------------------------------------------------------------===//

#include "Limits.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace aicc::gpu;

namespace {
struct NvidiaEntry {
  int number; // sm_NN
  GPULimits limits;
};

constexpr int64_t kKiB = 1024;

const NvidiaEntry kNvidia[] = {
    {60,
     {Vendor::nvidia, 56, 32, 1024, 2048, 48 * kKiB, 64 * kKiB, 65536, 255}},
    {70,
     {Vendor::nvidia, 80, 32, 1024, 2048, 96 * kKiB, 96 * kKiB, 65536, 255}},
    {75,
     {Vendor::nvidia, 40, 32, 1024, 1024, 64 * kKiB, 64 * kKiB, 65536, 255}},
    {80,
     {Vendor::nvidia, 108, 32, 1024, 2048, 163 * kKiB, 164 * kKiB, 65536, 255}},
    {86,
     {Vendor::nvidia, 72, 32, 1024, 1536, 99 * kKiB, 100 * kKiB, 65536, 255}},
    {87,
     {Vendor::nvidia, 16, 32, 1024, 1536, 163 * kKiB, 164 * kKiB, 65536, 255}},
    {89,
     {Vendor::nvidia, 58, 32, 1024, 1536, 99 * kKiB, 100 * kKiB, 65536, 255}},
    {90,
     {Vendor::nvidia, 132, 32, 1024, 2048, 227 * kKiB, 228 * kKiB, 65536, 255}},
    {100,
     {Vendor::nvidia, 148, 32, 1024, 2048, 227 * kKiB, 228 * kKiB, 65536, 255}},
    {120,
     {Vendor::nvidia, 170, 32, 1024, 1536, 99 * kKiB, 100 * kKiB, 65536, 255}},
};

// CDNA: 64-lane waves, 64 KiB of LDS, 512 VGPRs a lane (256 architectural
// and 256 accumulation registers), four SIMDs of 512 VGPR rows each.
const GPULimits kGfx90a{Vendor::amd, 104,       64,     1024, 2048,
                        64 * kKiB,   64 * kKiB, 131072, 512};
const GPULimits kGfx942{Vendor::amd, 304,       64,     1024, 2048,
                        64 * kKiB,   64 * kKiB, 131072, 512};
} // namespace

std::optional<GPULimits> aicc::gpu::limitsOf(llvm::StringRef arch) {
  if (arch == "gfx942")
    return kGfx942;
  // Other AMD GPUs: gfx90a's (64 KiB of LDS is what every one gives a
  // block; the wave width only bounds the row kernels' blocks).
  if (arch.starts_with("gfx"))
    return kGfx90a;
  std::optional<int> number = nvidiaArchNumber(arch);
  if (!number)
    return std::nullopt;
  // The closest older entry (the oldest for anything older still).
  const NvidiaEntry *found = &kNvidia[0];
  for (const NvidiaEntry &entry : kNvidia)
    if (entry.number <= *number)
      found = &entry;
  return found->limits;
}

std::optional<int> aicc::gpu::nvidiaArchNumber(llvm::StringRef arch) {
  int number = 0;
  if (!arch.consume_front("sm_") ||
      arch.take_while([](char c) { return c >= '0' && c <= '9'; })
          .getAsInteger(10, number))
    return std::nullopt;
  return number;
}

std::vector<std::string> aicc::gpu::defaultArchs(Vendor vendor) {
  if (vendor == Vendor::amd)
    return {"gfx90a", "gfx942"};
  return {"sm_80", "sm_90"};
}

std::optional<GPULimits>
aicc::gpu::tightestLimits(llvm::ArrayRef<std::string> archs, Vendor vendor) {
  std::vector<std::string> defaults;
  if (archs.empty()) {
    defaults = defaultArchs(vendor);
    archs = defaults;
  }
  std::optional<GPULimits> result;
  for (const std::string &arch : archs) {
    std::optional<GPULimits> limits = limitsOf(arch);
    if (!limits || limits->vendor != vendor)
      return std::nullopt;
    if (!result) {
      result = limits;
      continue;
    }
    result->multiprocessors =
        std::max(result->multiprocessors, limits->multiprocessors);
    result->warpSize = std::max(result->warpSize, limits->warpSize);
    // Blocks whose threads divide this fill every GPU's multiprocessors.
    result->maxThreadsPerMultiprocessor =
        std::gcd(result->maxThreadsPerMultiprocessor,
                 limits->maxThreadsPerMultiprocessor);
    for (auto field :
         {&GPULimits::maxThreadsPerBlock, &GPULimits::sharedPerBlock,
          &GPULimits::sharedPerMultiprocessor,
          &GPULimits::registersPerMultiprocessor,
          &GPULimits::maxRegistersPerThread})
      (*result).*field = std::min((*result).*field, (*limits).*field);
  }
  return result;
}
