//===- Sha256.h - SHA-256 for bundle checksums ------------------*- C++ -*-===//

#ifndef AICC_RUNTIME_SHA256_H
#define AICC_RUNTIME_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>

namespace aicc::runtime {

/// FIPS 180-4 SHA-256, incremental.
class Sha256 {
public:
  Sha256();
  void update(const void *data, size_t size);
  std::array<uint8_t, 32> finish();

private:
  void block(const uint8_t *data);
  uint32_t state[8];
  uint8_t buffer[64];
  size_t buffered = 0;
  uint64_t length = 0;
};

} // namespace aicc::runtime

#endif // AICC_RUNTIME_SHA256_H
