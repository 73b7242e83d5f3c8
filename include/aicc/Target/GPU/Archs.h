//===- Archs.h - The GPU architectures a bundle is for ----------*- C++ -*-===//

#ifndef AICC_TARGET_GPU_ARCHS_H
#define AICC_TARGET_GPU_ARCHS_H

#include <string>
#include <vector>

namespace aicc::gpu {

/// The default architecture list of `target`, oldest first: cuda sm_80 and
/// sm_90, rocm gfx90a and gfx942. (Defined beside the architectures'
/// limits, lib/Target/GPU/Transforms/Limits.cpp.)
std::vector<std::string> defaultArchs(const std::string &target);

} // namespace aicc::gpu

#endif // AICC_TARGET_GPU_ARCHS_H
