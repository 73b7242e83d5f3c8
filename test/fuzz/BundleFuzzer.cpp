//===- BundleFuzzer.cpp - libFuzzer target: the bundle reader -------------===//
//
// Feeds arbitrary bytes to the runtime's bundle validation. A bundle's
// SHA-256 covers the whole file, so a mutated bundle would almost always stop
// at the digest check; the harness writes the right digest into the mutated
// bytes first, so that every structural rule behind it is exercised.
//
//===----------------------------------------------------------------------===//

#include "BundleReader.h"
#include "Sha256.h"

#include <cstring>
#include <vector>

namespace {
/// Bytes 72..103 of a bundle hold the digest of the file with them zeroed.
constexpr size_t kDigestOffset = 72;
constexpr size_t kDigestSize = 32;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  if (size >= kDigestOffset + kDigestSize) {
    std::memset(bytes.data() + kDigestOffset, 0, kDigestSize);
    aicc::runtime::Sha256 sha;
    sha.update(bytes.data(), bytes.size());
    std::array<uint8_t, 32> digest = sha.finish();
    std::memcpy(bytes.data() + kDigestOffset, digest.data(), kDigestSize);
  }
  aicc::runtime::BundleView view;
  (void)aicc::runtime::parseBundle(bytes.data(), bytes.size(), view);
  // Untouched bytes too: the digest check itself must reject them cleanly.
  aicc::runtime::BundleView raw;
  (void)aicc::runtime::parseBundle(data, size, raw);
  return 0;
}
