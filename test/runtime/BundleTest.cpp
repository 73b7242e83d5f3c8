//===- BundleTest.cpp - The loader refuses malformed bundles --------------===//
//
// Usage: aicc-runtime-bundle-test MODEL.bin
//
// Loads a valid bundle, then damaged copies of it: targeted corruptions of
// every structure (with the checksum recomputed, so that the structural
// checks are what must catch them) and thousands of random ones outside the
// code image. Every damaged copy must be refused with a status and a
// message; none may crash the process. TMA tensor maps are added to the
// plan, valid and damaged ones. A bundle of CUDA steps gets the
// checks of the launch shapes and GPU code objects too; it must load, so
// run it with a CUDA driver (on a machine without a GPU, the fake one:
// AICC_CUDA_DRIVER=libaicc-fake-cuda.so). Then checks the context options
// and the profile on the valid bundle. Prints one line per check and a
// summary; exits non-zero if any check failed.
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

/// The offset of the first CODE section with `format`, or 0.
uint64_t codeSection(Bytes &b, uint32_t format) {
  aicc_bundle_header &h = header(b);
  for (uint32_t i = 0; i < h.section_count; ++i) {
    auto &s = at<aicc_section_entry>(b, h.section_table_offset +
                                            i * sizeof(aicc_section_entry));
    if (s.kind == AICC_SECTION_CODE &&
        at<aicc_code_header>(b, s.offset).format == format)
      return s.offset;
  }
  return 0;
}

/// Launch step `i`.
aicc_launch_step &step(Bytes &b, uint32_t i) {
  return at<aicc_launch_step>(b, section(b, AICC_SECTION_PLAN).offset +
                                     sizeof(aicc_plan_header) +
                                     i * sizeof(aicc_launch_step));
}

/// `good` with `maps` appended to its plan's tensor maps. The sections
/// after the plan move by a multiple of the page size, which keeps every
/// alignment.
Bytes withTensorMaps(const Bytes &good,
                     const std::vector<aicc_tensor_map> &maps) {
  Bytes b = good;
  aicc_section_entry &plan = section(b, AICC_SECTION_PLAN);
  uint64_t end = plan.offset + plan.size;
  uint64_t bytes = maps.size() * sizeof(aicc_tensor_map);
  uint64_t shift = (bytes + AICC_BUNDLE_PAGE_ALIGNMENT - 1) /
                   AICC_BUNDLE_PAGE_ALIGNMENT * AICC_BUNDLE_PAGE_ALIGNMENT;
  aicc_bundle_header &h = header(b);
  for (uint32_t i = 0; i < h.section_count; ++i) {
    auto &s = at<aicc_section_entry>(b, h.section_table_offset +
                                            i * sizeof(aicc_section_entry));
    if (s.offset >= end && &s != &plan)
      s.offset += shift;
  }
  plan.size += bytes;
  at<aicc_plan_header>(b, plan.offset).tensor_map_count +=
      static_cast<uint32_t>(maps.size());
  h.file_size += shift;
  Bytes inserted(shift, 0);
  std::memcpy(inserted.data(), maps.data(), bytes);
  b.insert(b.begin() + end, inserted.begin(), inserted.end());
  return b;
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

void expectLoads(const char *what, Bytes b) {
  reseal(b);
  aicc_model *model = nullptr;
  if (aicc_model_load_memory(b.data(), b.size(), &model) != AICC_OK) {
    std::printf("FAIL %s: refused: %s\n", what, aicc_last_error_message());
    ++failures;
    return;
  }
  aicc_model_release(model);
  std::printf("ok   %s: loads\n", what);
}

void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAIL %s (%s)\n", what, aicc_last_error_message());
    ++failures;
  } else {
    std::printf("ok   %s\n", what);
  }
}

/// Corruptions of the launch shapes and the GPU code objects of a bundle
/// of CUDA steps.
void gpuChecks(const Bytes &good) {
  const aicc_status_t bad = AICC_INVALID_BUNDLE;
  Bytes b;
  const uint32_t steps =
      at<aicc_plan_header>(
          *const_cast<Bytes *>(&good),
          section(*const_cast<Bytes *>(&good), AICC_SECTION_PLAN).offset)
          .step_count;
  for (int d = 0; d < 3; ++d) {
    b = good;
    step(b, 0).grid[d] = 0;
    expectRefused("a GPU step with an empty grid dimension", b, bad);
    b = good;
    step(b, steps - 1).block[d] = 0;
    expectRefused("a GPU step with an empty block dimension", b, bad);
  }
  b = good;
  step(b, 0).grid[0] = 0x80000000u;
  expectRefused("grid x of 2^31", b, bad);
  b = good;
  step(b, 0).grid[1] = 65536;
  expectRefused("grid y of 65536", b, bad);
  b = good;
  step(b, 0).grid[2] = 65536;
  expectRefused("grid z of 65536", b, bad);
  b = good;
  step(b, 0).block[0] = 512;
  step(b, 0).block[1] = 2;
  step(b, 0).block[2] = 2;
  expectRefused("a block of 2048 threads", b, bad);
  b = good;
  step(b, 0).shared_bytes = 227 * 1024 + 1;
  expectRefused("227 KiB + 1 of shared memory", b, bad);
  b = good;
  step(b, 0).grid[0] = 0x7fffffffu;
  step(b, 0).grid[1] = 65535;
  step(b, 0).grid[2] = 65535;
  step(b, 0).block[0] = 1024;
  step(b, 0).block[1] = 1;
  step(b, 0).block[2] = 1;
  step(b, 0).shared_bytes = 227 * 1024;
  expectLoads("the largest launch shape the format allows", b);
  b = good;
  step(b, 0).target = AICC_TARGET_ROCM;
  expectRefused("a ROCm step without ROCm code", b, bad);
  b = good;
  step(b, 0).target = AICC_TARGET_CPU_X86_64;
  expectRefused("a CPU step with a launch shape", b, bad);
  b = good;
  step(b, 0).entry =
      at<aicc_tensor_record>(b, section(b, AICC_SECTION_MANIFEST).offset +
                                    sizeof(aicc_manifest_header))
          .name;
  expectRefused("a kernel the code object lacks (a tensor's name)", b, bad);

  uint64_t cubin = codeSection(b, AICC_CODE_CUBIN);
  uint64_t ptx = codeSection(b, AICC_CODE_PTX);
  if (!cubin || !ptx) {
    std::printf("skip the code object checks: they need a bundle with a "
                "cubin and PTX\n");
    return;
  }
  auto code = [&](Bytes &bytes, uint64_t offset) -> aicc_code_header & {
    return at<aicc_code_header>(bytes, offset);
  };
  b = good;
  code(b, cubin).target = AICC_TARGET_ROCM;
  expectRefused("a cubin for ROCm", b, bad);
  b = good;
  code(b, cubin).target = AICC_TARGET_CPU_X86_64;
  expectRefused("a cubin for the CPU", b, bad);
  b = good;
  code(b, cubin).format = AICC_CODE_HSACO;
  expectRefused("HSACO for CUDA", b, bad);
  b = good;
  code(b, cubin).format = AICC_CODE_ELF_SHARED_OBJECT;
  expectRefused("an x86-64 object for CUDA", b, bad);
  b = good;
  code(b, cubin).format = 5;
  expectRefused("an unknown code format", b, bad);
  b = good;
  code(b, cubin).min_driver = 13000;
  expectRefused("a cubin with a minimum driver version", b, bad);
  b = good;
  code(b, cubin).required_features = AICC_CPU_AVX2;
  expectRefused("a cubin with CPU features", b, bad);
  for (const char *arch : {"", "x", "sm_9", "sm_", "sm_09", "sm_1000", "sm_90b",
                           "sm_90aa", "compute_90", "gfx90a"}) {
    // Written over the model's name, which nothing checks.
    b = good;
    auto &m =
        at<aicc_manifest_header>(b, section(b, AICC_SECTION_MANIFEST).offset);
    uint32_t name = m.model_name;
    size_t room = std::strlen(reinterpret_cast<const char *>(
        &b[section(b, AICC_SECTION_STRINGS).offset + name]));
    if (std::strlen(arch) > room) {
      std::printf("skip cubin architecture '%s': the model's name is "
                  "shorter\n",
                  arch);
      continue;
    }
    std::memset(&b[section(b, AICC_SECTION_STRINGS).offset + name], 0, room);
    std::memcpy(&b[section(b, AICC_SECTION_STRINGS).offset + name], arch,
                std::strlen(arch));
    code(b, cubin).arch = name;
    std::string what = std::string("cubin architecture '") + arch + "'";
    expectRefused(what.c_str(), b, bad);
  }
  b = good;
  uint64_t image = cubin + code(b, cubin).image_offset;
  b[image] = 0;
  expectRefused("a cubin that is not ELF", b, bad);
  b = good;
  b[image + 18] = 62; // EM_X86_64
  expectRefused("a cubin for another machine", b, bad);
  b = good;
  image = ptx + code(b, ptx).image_offset;
  std::memset(&b[image], ' ', code(b, ptx).image_size);
  expectRefused("PTX without a terminating NUL", b, bad);
  b = good;
  code(b, ptx).min_driver = 13000;
  expectLoads("PTX with a minimum driver version", b);
}

/// Buffer reference `i` of the plan.
aicc_buffer_ref &arg(Bytes &b, uint32_t i) {
  uint64_t p = section(b, AICC_SECTION_PLAN).offset;
  return at<aicc_buffer_ref>(b, p + sizeof(aicc_plan_header) +
                                    at<aicc_plan_header>(b, p).step_count *
                                        sizeof(aicc_launch_step) +
                                    i * sizeof(aicc_buffer_ref));
}

/// TMA tensor maps added to the plan: valid ones, each rule broken once,
/// and references to them from the steps.
void tensorMapChecks(const Bytes &good) {
  const aicc_status_t bad = AICC_INVALID_BUNDLE;
  Bytes copy = good;
  uint64_t p = section(copy, AICC_SECTION_PLAN).offset;
  const aicc_plan_header plan = at<aicc_plan_header>(copy, p);
  const uint32_t first = plan.tensor_map_count; // of the maps added
  const auto &input =
      at<aicc_tensor_record>(copy, section(copy, AICC_SECTION_MANIFEST).offset +
                                       sizeof(aicc_manifest_header));
  if (input.byte_size < 64 || input.byte_size % 16 != 0) {
    std::printf("skip the tensor map checks: input 0 is not a multiple of "
                "16 bytes\n");
    return;
  }
  // Input 0 as float32 rows of 16 bytes, exactly.
  aicc_tensor_map fit = {};
  fit.buffer = {AICC_BUFFER_INPUT, 0, 0};
  fit.dtype = AICC_DTYPE_FLOAT32;
  fit.rank = 2;
  fit.dims[0] = 4;
  fit.dims[1] = input.byte_size / 16;
  fit.strides[0] = 16;
  fit.box[0] = 4;
  fit.box[1] = 1;
  auto refused = [&](const char *what,
                     const std::function<void(aicc_tensor_map &)> &change) {
    aicc_tensor_map map = fit;
    change(map);
    expectRefused(what, withTensorMaps(good, {map}), bad);
  };
  auto loads = [&](const char *what,
                   const std::function<void(aicc_tensor_map &)> &change) {
    aicc_tensor_map map = fit;
    change(map);
    expectLoads(what, withTensorMaps(good, {map}));
  };
  loads("a tensor map that fills its input exactly", [](auto &) {});
  refused("a tensor map one row past its buffer",
          [](aicc_tensor_map &m) { m.dims[1] += 1; });
  refused("a tensor map 16 bytes into its buffer",
          [](aicc_tensor_map &m) { m.byte_offset = 16; });
  refused("a tensor map whose extent overflows", [](aicc_tensor_map &m) {
    m.dims[0] = m.dims[1] = uint64_t(1) << 32;
    m.strides[0] = (uint64_t(1) << 40) - 16;
  });
  loads("a 32-byte box row under a 32-byte swizzle", [](aicc_tensor_map &m) {
    m.box[0] = 8;
    m.swizzle = 32;
  });
  refused("a 64-byte box row under a 32-byte swizzle", [](aicc_tensor_map &m) {
    m.box[0] = 16;
    m.swizzle = 32;
  });
  refused("a 16-byte swizzle", [](aicc_tensor_map &m) { m.swizzle = 16; });
  refused("an 8-byte box row", [](aicc_tensor_map &m) { m.box[0] = 2; });
  refused("an empty box", [](aicc_tensor_map &m) { m.box[1] = 0; });
  refused("a box of 257", [](aicc_tensor_map &m) { m.box[1] = 257; });
  refused("a tensor map of rank 0", [](aicc_tensor_map &m) { m.rank = 0; });
  refused("a tensor map of rank 6", [](aicc_tensor_map &m) { m.rank = 6; });
  refused("an empty tensor map dimension",
          [](aicc_tensor_map &m) { m.dims[0] = 0; });
  refused("a tensor map dimension of 2^32 + 1",
          [](aicc_tensor_map &m) { m.dims[1] = (uint64_t(1) << 32) + 1; });
  refused("a tensor map dimension past its rank",
          [](aicc_tensor_map &m) { m.dims[2] = 1; });
  refused("a tensor map stride past its rank",
          [](aicc_tensor_map &m) { m.strides[1] = 16; });
  refused("a tensor map box past its rank",
          [](aicc_tensor_map &m) { m.box[4] = 1; });
  refused("a tensor map stride of 8 bytes",
          [](aicc_tensor_map &m) { m.strides[0] = 8; });
  refused("a tensor map stride of 2^40",
          [](aicc_tensor_map &m) { m.strides[0] = uint64_t(1) << 40; });
  refused("a tensor map 8 bytes into its buffer",
          [](aicc_tensor_map &m) { m.byte_offset = 8; });
  refused("an int32 tensor map",
          [](aicc_tensor_map &m) { m.dtype = AICC_DTYPE_INT32; });
  refused("a tensor map of element type 2^32 - 1",
          [](aicc_tensor_map &m) { m.dtype = 0xffffffffu; });
  loads("a bfloat16 tensor map", [](aicc_tensor_map &m) {
    m.dtype = AICC_DTYPE_BFLOAT16;
    m.box[0] = 8;
  });
  refused("a tensor map of a tensor map", [](aicc_tensor_map &m) {
    m.buffer = {AICC_BUFFER_TENSOR_MAP, 0, 0};
  });
  refused("a tensor map of buffer kind 0",
          [](aicc_tensor_map &m) { m.buffer.kind = 0; });
  refused("a tensor map of a missing input",
          [](aicc_tensor_map &m) { m.buffer.index = 1000000; });
  refused("a tensor map of an input at an offset",
          [](aicc_tensor_map &m) { m.buffer.offset = 16; });
  if (plan.arena_size >= 64 && plan.arena_size % 16 == 0) {
    auto arena = [&](aicc_tensor_map &m) {
      m.buffer = {AICC_BUFFER_ARENA, 0, 16};
      m.byte_offset = 16;
      m.rank = 1;
      m.dims[0] = (plan.arena_size - 32) / 4;
      m.dims[1] = m.strides[0] = m.box[1] = 0;
    };
    loads("a tensor map that fills the arena past an offset", arena);
    refused("a tensor map one element past the arena", [&](aicc_tensor_map &m) {
      arena(m);
      m.dims[0] += 1;
    });
    refused("a tensor map 8 bytes into the arena", [&](aicc_tensor_map &m) {
      arena(m);
      m.buffer.offset = 8;
    });
    refused("a tensor map past the arena's end", [&](aicc_tensor_map &m) {
      arena(m);
      m.buffer.offset = plan.arena_size + 16;
    });
  } else {
    std::printf("skip the tensor maps of the arena: it is smaller than 64 "
                "bytes or not a multiple of 16\n");
  }
  Bytes b = withTensorMaps(good, {fit});
  at<aicc_plan_header>(b, section(b, AICC_SECTION_PLAN).offset)
      .tensor_map_count += 1;
  expectRefused("a tensor map count past the plan's size", b, bad);

  // References from the steps, through the first argument of step 0.
  const uint32_t use = step(copy, 0).first_arg;
  if (step(copy, 0).arg_count == 0) {
    std::printf("skip the references to tensor maps: step 0 has no "
                "arguments\n");
    return;
  }
  b = withTensorMaps(good, {fit});
  arg(b, use) = {AICC_BUFFER_TENSOR_MAP, first, 0};
  if (step(copy, 0).target == AICC_TARGET_CUDA) {
    expectLoads("a CUDA step taking a tensor map", b);
    Bytes other = b;
    step(other, 0).target = AICC_TARGET_CPU_X86_64;
    std::memset(step(other, 0).grid, 0, sizeof(step(other, 0).grid));
    std::memset(step(other, 0).block, 0, sizeof(step(other, 0).block));
    step(other, 0).shared_bytes = 0;
    expectRefused("a CPU step taking a tensor map", other, bad);
    other = b;
    step(other, 0).target = AICC_TARGET_ROCM;
    expectRefused("a ROCm step taking a tensor map", other, bad);
  } else {
    expectRefused("a CPU step taking a tensor map", b, bad);
  }
  b = withTensorMaps(good, {fit});
  arg(b, use) = {AICC_BUFFER_TENSOR_MAP, first + 1, 0};
  expectRefused("a reference to a missing tensor map", b, bad);
  b = withTensorMaps(good, {fit});
  arg(b, use) = {AICC_BUFFER_TENSOR_MAP, first, 16};
  expectRefused("a tensor map reference with an offset", b, bad);
  b = good;
  arg(b, use) = {AICC_BUFFER_TENSOR_MAP, plan.tensor_map_count, 0};
  expectRefused("a tensor map reference past the plan's maps", b, bad);
}

/// The context options and the profile, on a bundle that loads.
void contextChecks(const Bytes &good) {
  aicc_model *model = nullptr;
  if (aicc_model_load_memory(good.data(), good.size(), &model) != AICC_OK)
    return;
  aicc_context *context = nullptr;
  aicc_context_options options;
  aicc_context_options_init(&options);
  check(options.flags == 0 && options.struct_size == 12,
        "options default to no flags");
  options.struct_size = 8; // a caller of the first header: no flags field
  options.flags = AICC_CONTEXT_PROFILE;
  check(aicc_context_create(model, &options, &context) == AICC_OK,
        "an 8-byte options struct is accepted");
  const aicc_profile_entry *entries = nullptr;
  size_t count = 99;
  check(aicc_context_profile(context, &entries, &count) ==
            AICC_INVALID_ARGUMENT,
        "...and its flags are not read: no profile");
  aicc_context_release(context);
  context = nullptr;
  options.struct_size = 4;
  check(aicc_context_create(model, &options, &context) ==
                AICC_INVALID_ARGUMENT &&
            !context,
        "a 4-byte options struct is refused");
  options.struct_size = sizeof(options);
  options.flags = 4;
  check(aicc_context_create(model, &options, &context) ==
                AICC_INVALID_ARGUMENT &&
            !context,
        "unknown flags are refused");

  options.flags = AICC_CONTEXT_PROFILE;
  if (aicc_context_create(model, &options, &context) != AICC_OK) {
    check(false, "a profiling context");
    aicc_model_release(model);
    return;
  }
  check(aicc_context_profile(context, &entries, &count) == AICC_OK &&
            count == 0,
        "no profile before the first run");
  double deviceMs = -1;
  check(aicc_context_device_time(context, &deviceMs) == AICC_INVALID_ARGUMENT &&
            deviceMs == 0,
        "no device time before the first run");
  check(aicc_context_device_time(nullptr, &deviceMs) == AICC_INVALID_ARGUMENT,
        "device time of no context refused");
  uint64_t address = 1;
  size_t bytes = 1;
  if (std::strncmp(aicc_model_device(model), "cpu", 3) == 0) {
    check(aicc_context_device_buffer(context, AICC_IO_INPUT, 0, &address,
                                     &bytes) == AICC_INVALID_ARGUMENT &&
              address == 0 && bytes == 0,
          "a CPU context has no device buffers");
    check(aicc_context_run_resident(context) == AICC_INVALID_ARGUMENT,
          "a CPU context does not run resident");
  }
  check(aicc_context_device_buffer(nullptr, AICC_IO_INPUT, 0, &address,
                                   &bytes) == AICC_INVALID_ARGUMENT,
        "device buffers of no context refused");
  std::vector<std::vector<uint8_t>> in, out;
  std::vector<const void *> inputs;
  std::vector<void *> outputs;
  for (size_t i = 0; i < aicc_model_input_count(model); ++i) {
    aicc_tensor_info info;
    aicc_model_input_info(model, i, &info);
    in.emplace_back(info.byte_size + 1, 0);
    inputs.push_back(in.back().data());
  }
  for (size_t i = 0; i < aicc_model_output_count(model); ++i) {
    aicc_tensor_info info;
    aicc_model_output_info(model, i, &info);
    out.emplace_back(info.byte_size + 1, 0);
    outputs.push_back(out.back().data());
  }
  const auto &plan = at<aicc_plan_header>(
      *const_cast<Bytes *>(&good),
      section(*const_cast<Bytes *>(&good), AICC_SECTION_PLAN).offset);
  check(aicc_context_run(context, inputs.data(), inputs.size(), outputs.data(),
                         outputs.size()) == AICC_OK,
        "a profiled run");
  check(aicc_context_profile(context, &entries, &count) == AICC_OK &&
            count == plan.step_count && entries &&
            entries[0].milliseconds >= 0 && *entries[0].kernel,
        "one profile entry per launch step after it");
  bool gpu =
      step(*const_cast<Bytes *>(&good), 0).target != AICC_TARGET_CPU_X86_64;
  if (gpu)
    check(aicc_context_num_threads(context) == 1,
          "a GPU context reports one thread");
  aicc_status_t timed = aicc_context_device_time(context, &deviceMs);
  if (gpu)
    check(timed == AICC_OK && deviceMs >= 0,
          "a GPU run's kernels have a device time");
  else
    check(timed == AICC_INVALID_ARGUMENT, "a CPU context has no device time");
  aicc_context_release(context);
  aicc_model_release(model);
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
  // Kept loaded until the end: with a real GPU driver, this keeps the
  // device's context alive between the loads below, which would otherwise
  // create and destroy it each time.
  std::printf("ok   the valid bundle loads\n");
  bool gpu =
      step(*const_cast<Bytes *>(&good), 0).target != AICC_TARGET_CPU_X86_64;

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
  header(b).format_version = 1;
  expectRefused("format version 1", b, AICC_UNSUPPORTED_VERSION);
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
    // Found by aicc-fuzz-bundle: a code that is no aicc_dtype was converted
    // to the enum before it was checked (undefined behaviour).
    b = good;
    at<aicc_tensor_record>(b, m + sizeof(aicc_manifest_header)).dtype = 589825;
    expectRefused("element type 589825 (no aicc_dtype)", b, bad);
    b = good;
    at<aicc_tensor_record>(b, m + sizeof(aicc_manifest_header)).dtype =
        0xffffffffu;
    expectRefused("element type 2^32 - 1", b, bad);
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
    step(b, 0).arg_count += 1000;
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
    step(b, 0).source = 0x7fffffff;
    expectRefused("step source outside the string table", b, bad);
    b = good;
    step(b, 0).math = AICC_MATH_TENSOR_32 + 1;
    expectRefused("step on an unknown math unit", b, bad);
    b = good;
    step(b, 0).reserved = 1;
    expectRefused("step with reserved bits set", b, bad);
  }
  if (!gpu) {
    b = good;
    step(b, 0).grid[0] = 1;
    expectRefused("a CPU step with a grid", b, bad);
    b = good;
    step(b, 0).block[2] = 1;
    expectRefused("a CPU step with a block", b, bad);
    b = good;
    step(b, 0).shared_bytes = 16;
    expectRefused("a CPU step with shared memory", b, bad);
    b = good;
    step(b, 0).target = AICC_TARGET_CUDA;
    for (int d = 0; d < 3; ++d)
      step(b, 0).grid[d] = step(b, 0).block[d] = 1;
    expectRefused("a CUDA step without CUDA code", b, bad);
    uint64_t c = section(b, AICC_SECTION_CODE).offset;
    b = good;
    at<aicc_code_header>(b, c).target = AICC_TARGET_CUDA;
    expectRefused("an x86-64 object for CUDA", b, bad);
    b = good;
    at<aicc_code_header>(b, c).format = AICC_CODE_PTX;
    expectRefused("PTX for the CPU", b, bad);
    b = good;
    at<aicc_code_header>(b, c).min_driver = 1;
    expectRefused("CPU code with a minimum driver version", b, bad);
    b = good;
    at<aicc_code_header>(b, c).arch = 0;
    expectRefused("CPU code without an architecture name", b, bad);
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
    if (gpu) {
      // GPU code has no CPU features; the checks above cover it.
    } else if (missing) {
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
  if (gpu)
    gpuChecks(good);
  tensorMapChecks(good);

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
  contextChecks(good);
  aicc_model_release(model);
  if (failures)
    std::printf("%d checks failed\n", failures);
  else
    std::printf("all bundle checks passed\n");
  return failures ? 1 : 0;
}
