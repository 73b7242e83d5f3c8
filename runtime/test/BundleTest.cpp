//===- BundleTest.cpp - The loader refuses malformed bundles --------------===//
//
// Usage: aicc-runtime-bundle-test MODEL.bin
//
// Loads a valid bundle, then damaged copies of it: targeted corruptions of
// every structure (with the checksum recomputed, so that the structural
// checks are what must catch them) and thousands of random ones outside the
// code image. Every damaged copy must be refused with a status and a
// message; none may crash the process. Prints one line per check and a
// summary; exits non-zero on the first failure.
//
//===----------------------------------------------------------------------===//

#include "CpuFeatures.h"
#include "Sha256.h"

#include "aicc/bundle_format.h"
#include "aicc/runtime.h"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {
using Bytes = std::vector<uint8_t>;

void reseal(Bytes &b) {
  if (b.size() < sizeof(aicc_bundle_header))
    return;
  size_t at = offsetof(aicc_bundle_header, digest);
  std::memset(b.data() + at, 0, 32);
  aicc::runtime::Sha256 sha;
  sha.update(b.data(), b.size());
  std::array<uint8_t, 32> digest = sha.finish();
  std::memcpy(b.data() + at, digest.data(), 32);
}

template <typename T> T &at(Bytes &b, uint64_t offset) {
  return *reinterpret_cast<T *>(b.data() + offset);
}

aicc_bundle_header &header(Bytes &b) { return at<aicc_bundle_header>(b, 0); }

aicc_section_entry &section(Bytes &b, uint32_t kind) {
  aicc_bundle_header &h = header(b);
  for (uint32_t i = 0; i < h.section_count; ++i) {
    auto &s = at<aicc_section_entry>(b, h.section_table_offset +
                                            i * sizeof(aicc_section_entry));
    if (s.kind == kind)
      return s;
  }
  std::fprintf(stderr, "the test bundle has no section of kind %u\n", kind);
  std::exit(1);
}

int failures = 0;

void expectRefused(const char *what, Bytes b, aicc_status_t expected,
                   bool resealed = true) {
  if (resealed)
    reseal(b);
  aicc_model *model = nullptr;
  aicc_status_t s = aicc_model_load_memory(b.data(), b.size(), &model);
  const char *message = aicc_last_error_message();
  if (s == AICC_OK || model != nullptr) {
    std::printf("FAIL %s: accepted\n", what);
    aicc_model_release(model);
    ++failures;
  } else if (s != expected || !*message) {
    std::printf("FAIL %s: status %s (%s), expected %s\n", what,
                aicc_status_string(s), message, aicc_status_string(expected));
    ++failures;
  } else {
    std::printf("ok   %s: %s\n", what, message);
  }
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MODEL.bin\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  const Bytes good(text.begin(), text.end());
  if (!in || good.size() < sizeof(aicc_bundle_header)) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }

  aicc_model *model = nullptr;
  if (aicc_model_load_memory(good.data(), good.size(), &model) != AICC_OK) {
    std::printf("FAIL the valid bundle: %s\n", aicc_last_error_message());
    return 1;
  }
  aicc_model_release(model);
  std::printf("ok   the valid bundle loads\n");

  const aicc_status_t bad = AICC_INVALID_BUNDLE;
  Bytes b;

  b = good;
  b[b.size() / 2] ^= 1;
  expectRefused("one flipped bit, checksum not updated", b, bad, false);
  expectRefused("truncated to the header",
                Bytes(good.begin(), good.begin() + 100), bad, false);
  b = good;
  b.resize(b.size() - 1);
  expectRefused("one byte short", b, bad);
  b = good;
  b.push_back(0);
  expectRefused("one byte extra", b, bad);
  b = good;
  b[0] = 'X';
  expectRefused("bad magic", b, bad);
  b = good;
  header(b).format_version = 99;
  expectRefused("future format version", b, AICC_UNSUPPORTED_VERSION);
  b = good;
  header(b).reserved[3] = 1;
  expectRefused("reserved header byte set", b, bad);
  b = good;
  std::memset(header(b).producer, 'x', sizeof(header(b).producer));
  expectRefused("unterminated producer", b, bad);
  b = good;
  header(b).section_table_offset = b.size() - 8;
  expectRefused("section table past the end", b, bad);
  b = good;
  header(b).section_count = 0xffffffff;
  expectRefused("huge section count", b, bad);
  b = good;
  section(b, AICC_SECTION_MANIFEST).size = UINT64_MAX - 8;
  expectRefused("section size overflowing", b, bad);
  b = good;
  section(b, AICC_SECTION_MANIFEST).offset += 8;
  expectRefused("section misaligned", b, bad);
  b = good;
  section(b, AICC_SECTION_PLAN).offset =
      section(b, AICC_SECTION_MANIFEST).offset;
  expectRefused("overlapping sections", b, bad);
  b = good;
  section(b, AICC_SECTION_PLAN).kind = AICC_SECTION_MANIFEST;
  expectRefused("two manifests, no plan", b, bad);
  b = good;
  section(b, AICC_SECTION_CODE).kind = 77;
  expectRefused("unknown section kind", b, bad);
  {
    b = good;
    auto &strings = section(b, AICC_SECTION_STRINGS);
    b[strings.offset + strings.size - 1] = 'x';
    expectRefused("string table not NUL-terminated", b, bad);
  }
  {
    b = good;
    uint64_t m = section(b, AICC_SECTION_MANIFEST).offset;
    at<aicc_manifest_header>(b, m).tensor_count += 1;
    expectRefused("manifest count off by one", b, bad);
    b = good;
    auto &first = at<aicc_tensor_record>(b, m + sizeof(aicc_manifest_header));
    first.name = 0x7fffffff;
    expectRefused("tensor name outside the string table", b, bad);
    b = good;
    at<aicc_tensor_record>(b, m + sizeof(aicc_manifest_header)).dtype = 8;
    expectRefused("string element type", b, bad);
    b = good;
    at<aicc_tensor_record>(b, m + sizeof(aicc_manifest_header)).byte_size += 4;
    expectRefused("byte size disagreeing with the shape", b, bad);
    b = good;
    at<aicc_tensor_record>(b, m + sizeof(aicc_manifest_header)).rank = 1000;
    expectRefused("rank 1000", b, bad);
    b = good;
    at<aicc_tensor_record>(b, m + sizeof(aicc_manifest_header)).role =
        AICC_ROLE_WEIGHT;
    expectRefused("tensor out of role order", b, bad);
  }
  {
    b = good;
    uint64_t p = section(b, AICC_SECTION_PLAN).offset;
    at<aicc_plan_header>(b, p).arena_size = uint64_t(1) << 60;
    expectRefused("absurd arena", b, bad);
    b = good;
    at<aicc_plan_header>(b, p).arena_alignment = 3;
    expectRefused("arena alignment not a power of two", b, bad);
    b = good;
    auto &step = at<aicc_launch_step>(b, p + sizeof(aicc_plan_header));
    step.arg_count += 1000;
    expectRefused("step arguments past the argument array", b, bad);
    b = good;
    at<aicc_launch_step>(b, p + sizeof(aicc_plan_header)).target = 42;
    expectRefused("step for an unknown target", b, bad);
    b = good;
    uint32_t steps = at<aicc_plan_header>(b, p).step_count;
    auto &arg = at<aicc_buffer_ref>(b, p + sizeof(aicc_plan_header) +
                                           steps * sizeof(aicc_launch_step));
    arg.index = 1000000;
    arg.kind = AICC_BUFFER_INPUT;
    expectRefused("argument naming a missing input", b, bad);
    b = good;
    at<aicc_launch_step>(b, p + sizeof(aicc_plan_header)).target =
        AICC_TARGET_CUDA;
    expectRefused("a CUDA step on a CPU-only runtime", b,
                  AICC_UNSUPPORTED_TARGET);
  }
  {
    b = good;
    uint64_t c = section(b, AICC_SECTION_CODE).offset;
    at<aicc_code_header>(b, c).image_size += 1 << 20;
    expectRefused("code image past its section", b, bad);
    b = good;
    at<aicc_code_header>(b, c).required_features = uint64_t(1) << 40;
    expectRefused("code needing an unknown CPU feature", b, bad);
    uint64_t missing = 0;
#define AICC_MISSING_FEATURE(name, bit, string)                                \
  if (!missing && !(aicc::runtime::hostCpuFeatures() & (uint64_t(1) << bit)))  \
    missing = uint64_t(1) << bit;
    AICC_CPU_FEATURES(AICC_MISSING_FEATURE)
#undef AICC_MISSING_FEATURE
    if (missing) {
      b = good;
      at<aicc_code_header>(b, c).required_features |= missing;
      expectRefused("code needing a feature this CPU lacks", b,
                    AICC_UNSUPPORTED_TARGET);
    } else {
      std::printf("skip code needing a feature this CPU lacks: this CPU has "
                  "every feature the format knows\n");
    }
    b = good;
    uint64_t image = c + at<aicc_code_header>(b, c).image_offset;
    b[image + 18] = 183; // EM_AARCH64
    expectRefused("code for another architecture", b, bad);
  }

  // Random damage outside the code image: never a crash, always refused or
  // (if the damage is harmless, e.g. in padding) accepted.
  std::mt19937_64 random(12345);
  uint64_t code =
      section(*const_cast<Bytes *>(&good), AICC_SECTION_CODE).offset;
  int refused = 0, accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    b = good;
    int flips = 1 + int(random() % 4);
    for (int f = 0; f < flips; ++f) {
      uint64_t offset = random() % code;
      if (offset >= offsetof(aicc_bundle_header, digest) &&
          offset < offsetof(aicc_bundle_header, digest) + 32)
        continue;
      b[offset] = static_cast<uint8_t>(random());
    }
    reseal(b);
    aicc_model *m = nullptr;
    if (aicc_model_load_memory(b.data(), b.size(), &m) == AICC_OK) {
      ++accepted;
      aicc_model_release(m);
    } else {
      ++refused;
    }
  }
  std::printf("ok   20000 random corruptions: %d refused, %d harmless\n",
              refused, accepted);
  if (failures)
    std::printf("%d checks failed\n", failures);
  else
    std::printf("all bundle checks passed\n");
  return failures ? 1 : 0;
}
