//===- CpuFeatures.h - What the host CPU can run ----------------*- C++ -*-===//

#ifndef AICC_RUNTIME_CPUFEATURES_H
#define AICC_RUNTIME_CPUFEATURES_H

#include <cstdint>
#include <string>

namespace aicc::runtime {

/// The aicc_cpu_feature bits of the host: each set bit is supported by both
/// the processor and the operating system (saved register state).
uint64_t hostCpuFeatures();

/// "avx2 fma" for the bits of `features`.
std::string cpuFeatureNames(uint64_t features);

/// Asks Linux for permission to use AMX tile data; false if refused.
bool enableAmx();

} // namespace aicc::runtime

#endif // AICC_RUNTIME_CPUFEATURES_H
