//===- BundleReader.cpp - Validating model.bin ----------------------------===//

#include "BundleReader.h"

#include "Error.h"
#include "Sha256.h"

#include <cstring>
#include <string>

using namespace aicc::runtime;

namespace {
aicc_status_t invalid(const std::string &message) {
  return fail(AICC_INVALID_BUNDLE, "invalid bundle: " + message);
}

bool isPowerOfTwo(uint64_t v) { return v && !(v & (v - 1)); }

/// a + b <= limit, without overflow.
bool fits(uint64_t a, uint64_t b, uint64_t limit) {
  return a <= limit && b <= limit - a;
}

/// a * b, or false on overflow.
bool multiply(uint64_t a, uint64_t b, uint64_t &result) {
  if (a && b > UINT64_MAX / a)
    return false;
  result = a * b;
  return true;
}

const char *kindName(uint32_t kind) {
  switch (kind) {
  case AICC_SECTION_STRINGS:
    return "STRINGS";
  case AICC_SECTION_MANIFEST:
    return "MANIFEST";
  case AICC_SECTION_PLAN:
    return "PLAN";
  case AICC_SECTION_CODE:
    return "CODE";
  case AICC_SECTION_CONSTANTS:
    return "CONSTANTS";
  }
  return "unknown";
}

bool allZero(const void *data, size_t size) {
  const uint8_t *bytes = static_cast<const uint8_t *>(data);
  for (size_t i = 0; i < size; ++i)
    if (bytes[i])
      return false;
  return true;
}

bool isGpuTarget(uint32_t target) {
  return target == AICC_TARGET_CUDA || target == AICC_TARGET_ROCM;
}

// Launch limits every GPU the format targets shares: CUDA's grid limits, the
// 1024 threads per block of NVIDIA and AMD GPUs, and the 227 KiB of shared
// memory an sm_90 block can opt into. A device may offer less; the executor
// checks that at load.
constexpr uint32_t kMaxGridX = 0x7fffffffu;
constexpr uint32_t kMaxGridYZ = 65535;
constexpr uint64_t kMaxBlockThreads = 1024;
constexpr uint32_t kMaxSharedBytes = 227 * 1024;

std::string shape(const uint32_t (&dims)[3]) {
  return std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" +
         std::to_string(dims[2]);
}

class Reader {
public:
  Reader(const uint8_t *data, size_t size, BundleView &view)
      : data(data), size(size), view(view) {}

  aicc_status_t run() {
    if (aicc_status_t s = readHeader())
      return s;
    if (aicc_status_t s = readSections())
      return s;
    if (aicc_status_t s = readStrings())
      return s;
    if (aicc_status_t s = readManifest())
      return s;
    if (aicc_status_t s = readPlan())
      return s;
    return readCode();
  }

private:
  aicc_status_t readHeader() {
    if (size < sizeof(aicc_bundle_header))
      return invalid("the file is " + std::to_string(size) +
                     " bytes, shorter than a bundle header");
    const auto *header = reinterpret_cast<const aicc_bundle_header *>(data);
    if (std::memcmp(header->magic, AICC_BUNDLE_MAGIC, AICC_BUNDLE_MAGIC_SIZE) !=
        0)
      return invalid("not an aicc bundle (bad magic)");
    if (header->format_version != AICC_BUNDLE_FORMAT_VERSION)
      return fail(AICC_UNSUPPORTED_VERSION,
                  "the bundle has format version " +
                      std::to_string(header->format_version) +
                      "; this runtime (" + aicc_runtime_version() +
                      ") reads version " +
                      std::to_string(AICC_BUNDLE_FORMAT_VERSION) +
                      "; recompile the model with a matching aicc");
    if (header->header_size != sizeof(aicc_bundle_header))
      return invalid("header size " + std::to_string(header->header_size));
    if (header->file_size != size)
      return invalid("the header says " + std::to_string(header->file_size) +
                     " bytes but the file has " + std::to_string(size) +
                     " (truncated?)");
    if (header->flags != 0 ||
        !allZero(header->reserved, sizeof(header->reserved)))
      return invalid("reserved header fields are set");
    if (std::memchr(header->producer, 0, sizeof(header->producer)) == nullptr)
      return invalid("the producer string is not terminated");

    // The checksum covers the whole file with the digest field zeroed.
    Sha256 sha;
    size_t digestAt = offsetof(aicc_bundle_header, digest);
    sha.update(data, digestAt);
    uint8_t zeros[sizeof(header->digest)] = {};
    sha.update(zeros, sizeof(zeros));
    sha.update(data + digestAt + sizeof(zeros),
               size - digestAt - sizeof(zeros));
    std::array<uint8_t, 32> digest = sha.finish();
    if (std::memcmp(digest.data(), header->digest, digest.size()) != 0)
      return invalid("checksum mismatch: the file is corrupted");
    view.header = header;
    return AICC_OK;
  }

  aicc_status_t readSections() {
    const aicc_bundle_header *header = view.header;
    uint64_t tableBytes;
    if (header->section_count == 0 || header->section_count > 4096 ||
        !multiply(header->section_count, sizeof(aicc_section_entry),
                  tableBytes) ||
        header->section_table_offset % 8 != 0 ||
        header->section_table_offset < sizeof(aicc_bundle_header) ||
        !fits(header->section_table_offset, tableBytes, size))
      return invalid("the section table is out of bounds");
    sections = reinterpret_cast<const aicc_section_entry *>(
        data + header->section_table_offset);
    count = header->section_count;
    uint64_t tableEnd = header->section_table_offset + tableBytes;
    uint64_t previousEnd = tableEnd;
    unsigned seen[6] = {};
    for (uint32_t i = 0; i < count; ++i) {
      const aicc_section_entry &s = sections[i];
      std::string which =
          "section " + std::to_string(i) + " (" + kindName(s.kind) + ")";
      if (s.kind < AICC_SECTION_STRINGS || s.kind > AICC_SECTION_CONSTANTS)
        return invalid("section " + std::to_string(i) + " has unknown kind " +
                       std::to_string(s.kind));
      if (s.flags != 0 || s.reserved != 0)
        return invalid(which + " has reserved fields set");
      if (!isPowerOfTwo(s.alignment) || s.alignment < 8 ||
          s.alignment > AICC_BUNDLE_PAGE_ALIGNMENT ||
          s.offset % s.alignment != 0)
        return invalid(which + " is misaligned");
      if (!fits(s.offset, s.size, size))
        return invalid(which + " ends past the end of the file");
      if (s.offset < previousEnd)
        return invalid(which + " overlaps what precedes it");
      previousEnd = s.offset + s.size;
      ++seen[s.kind];
    }
    for (uint32_t kind : {AICC_SECTION_STRINGS, AICC_SECTION_MANIFEST,
                          AICC_SECTION_PLAN, AICC_SECTION_CONSTANTS})
      if (seen[kind] != 1)
        return invalid(std::string("the bundle needs exactly one ") +
                       kindName(kind) + " section, it has " +
                       std::to_string(seen[kind]));
    if (seen[AICC_SECTION_CODE] == 0)
      return invalid("the bundle has no code");
    return AICC_OK;
  }

  const aicc_section_entry &find(uint32_t kind) const {
    for (uint32_t i = 0; i < count; ++i)
      if (sections[i].kind == kind)
        return sections[i];
    return sections[0]; // unreachable: readSections checked presence
  }

  aicc_status_t readStrings() {
    const aicc_section_entry &s = find(AICC_SECTION_STRINGS);
    const char *strings = reinterpret_cast<const char *>(data + s.offset);
    if (s.size == 0 || strings[0] != 0 || strings[s.size - 1] != 0)
      return invalid("the string table must start and end with NUL");
    view.strings = strings;
    view.stringsSize = s.size;
    return AICC_OK;
  }

  bool validString(uint32_t offset) const { return offset < view.stringsSize; }

  aicc_status_t readManifest() {
    const aicc_section_entry &s = find(AICC_SECTION_MANIFEST);
    const aicc_section_entry &c = find(AICC_SECTION_CONSTANTS);
    view.constants = data + c.offset;
    view.constantsSize = c.size;
    if (s.size < sizeof(aicc_manifest_header))
      return invalid("the manifest is truncated");
    const auto *m =
        reinterpret_cast<const aicc_manifest_header *>(data + s.offset);
    uint64_t expected = sizeof(aicc_manifest_header) +
                        uint64_t(m->tensor_count) * sizeof(aicc_tensor_record) +
                        uint64_t(m->dim_count) * sizeof(int64_t);
    if (uint64_t(m->input_count) + m->output_count + m->weight_count !=
            m->tensor_count ||
        expected != s.size)
      return invalid("the manifest's counts do not match its size");
    if (!validString(m->model_name) ||
        !allZero(m->reserved, sizeof(m->reserved)))
      return invalid("the manifest header is malformed");
    view.manifest = m;
    view.tensors = reinterpret_cast<const aicc_tensor_record *>(m + 1);
    view.dims =
        reinterpret_cast<const int64_t *>(view.tensors + m->tensor_count);
    for (uint32_t i = 0; i < m->tensor_count; ++i) {
      const aicc_tensor_record &t = view.tensors[i];
      std::string which = "tensor " + std::to_string(i);
      uint32_t role = i < m->input_count                     ? AICC_ROLE_INPUT
                      : i < m->input_count + m->output_count ? AICC_ROLE_OUTPUT
                                                             : AICC_ROLE_WEIGHT;
      if (!validString(t.name))
        return invalid(which + " has a bad name");
      which += " ('" + std::string(view.string(t.name)) + "')";
      if (t.role != role)
        return invalid(which + " is out of order (role " +
                       std::to_string(t.role) + ")");
      size_t elementSize = dtypeSize(t.dtype);
      if (elementSize == 0)
        return invalid(which + " has unknown element type " +
                       std::to_string(t.dtype));
      if (t.rank > AICC_BUNDLE_MAX_RANK ||
          !fits(t.first_dim, t.rank, m->dim_count))
        return invalid(which + " has bad dimensions");
      uint64_t bytes = elementSize;
      for (uint32_t d = 0; d < t.rank; ++d) {
        int64_t dim = view.dims[t.first_dim + d];
        if (dim < 0 || !multiply(bytes, uint64_t(dim), bytes))
          return invalid(which + " has a negative or overflowing dimension");
      }
      if (bytes != t.byte_size)
        return invalid(which + " has byte size " + std::to_string(t.byte_size) +
                       " for a shape of " + std::to_string(bytes) + " bytes");
      if (t.reserved0 != 0 || t.reserved1 != 0)
        return invalid(which + " has reserved fields set");
      if (role == AICC_ROLE_WEIGHT) {
        if (t.data_offset % AICC_BUNDLE_CONSTANT_ALIGNMENT != 0 ||
            !fits(t.data_offset, t.byte_size, view.constantsSize))
          return invalid(which + " lies outside the constant section");
      } else if (t.data_offset != 0) {
        return invalid(which + " has data but is not a weight");
      }
    }
    return AICC_OK;
  }

  aicc_status_t readPlan() {
    const aicc_section_entry &s = find(AICC_SECTION_PLAN);
    if (s.size < sizeof(aicc_plan_header))
      return invalid("the plan is truncated");
    const auto *p = reinterpret_cast<const aicc_plan_header *>(data + s.offset);
    uint64_t expected = sizeof(aicc_plan_header) +
                        uint64_t(p->step_count) * sizeof(aicc_launch_step) +
                        uint64_t(p->arg_count) * sizeof(aicc_buffer_ref) +
                        uint64_t(p->tensor_map_count) * sizeof(aicc_tensor_map);
    if (expected != s.size)
      return invalid("the plan's counts do not match its size");
    if (!isPowerOfTwo(p->arena_alignment) ||
        p->arena_alignment > AICC_BUNDLE_PAGE_ALIGNMENT ||
        !allZero(p->reserved, sizeof(p->reserved)))
      return invalid("the plan header is malformed");
    // An arena larger than any machine's memory is an attack or a bug.
    if (p->arena_size > (uint64_t(1) << 44))
      return invalid("the arena size is implausible");
    view.plan = p;
    view.steps = reinterpret_cast<const aicc_launch_step *>(p + 1);
    view.args =
        reinterpret_cast<const aicc_buffer_ref *>(view.steps + p->step_count);
    view.tensorMaps =
        reinterpret_cast<const aicc_tensor_map *>(view.args + p->arg_count);
    for (uint32_t i = 0; i < p->step_count; ++i)
      if (aicc_status_t s = readStep(i, view.steps[i]))
        return s;
    for (uint32_t i = 0; i < p->arg_count; ++i) {
      const aicc_buffer_ref &arg = view.args[i];
      std::string which = "buffer reference " + std::to_string(i);
      if (arg.kind == AICC_BUFFER_TENSOR_MAP) {
        if (arg.index >= p->tensor_map_count || arg.offset != 0)
          return invalid(which + " names a tensor map that does not exist");
        continue;
      }
      if (aicc_status_t s = readBufferRef(which, arg))
        return s;
    }
    for (uint32_t i = 0; i < p->tensor_map_count; ++i)
      if (aicc_status_t s = readTensorMap(i, view.tensorMaps[i]))
        return s;
    // Only CUDA has the tensor memory accelerator.
    for (uint32_t i = 0; i < p->step_count; ++i) {
      const aicc_launch_step &step = view.steps[i];
      if (step.target == AICC_TARGET_CUDA)
        continue;
      for (uint32_t a = 0; a < step.arg_count; ++a)
        if (view.args[step.first_arg + a].kind == AICC_BUFFER_TENSOR_MAP)
          return invalid("launch step " + std::to_string(i) + " ('" +
                         view.string(step.entry) + "') runs on " +
                         targetName(step.target) + " but its argument " +
                         std::to_string(a) +
                         " is a tensor map, which only CUDA steps take");
    }
    return AICC_OK;
  }

  /// Checks an input, output, weight or arena reference.
  aicc_status_t readBufferRef(const std::string &which,
                              const aicc_buffer_ref &ref) const {
    const aicc_manifest_header *m = view.manifest;
    switch (ref.kind) {
    case AICC_BUFFER_INPUT:
    case AICC_BUFFER_OUTPUT:
    case AICC_BUFFER_WEIGHT: {
      uint32_t limit = ref.kind == AICC_BUFFER_INPUT    ? m->input_count
                       : ref.kind == AICC_BUFFER_OUTPUT ? m->output_count
                                                        : m->weight_count;
      if (ref.index >= limit || ref.offset != 0)
        return invalid(which + " names a tensor that does not exist");
      return AICC_OK;
    }
    case AICC_BUFFER_ARENA:
      if (ref.index != 0 ||
          (ref.offset != 0 && ref.offset >= view.plan->arena_size))
        return invalid(which + " lies outside the arena");
      return AICC_OK;
    }
    return invalid(which + " has unknown kind " + std::to_string(ref.kind));
  }

  /// Checks that the TMA can read tensor map `i` as cuTensorMapEncodeTiled
  /// takes it, and nothing outside its buffer.
  aicc_status_t readTensorMap(uint32_t i, const aicc_tensor_map &map) const {
    std::string which = "tensor map " + std::to_string(i);
    const aicc_buffer_ref &ref = map.buffer;
    if (ref.kind == AICC_BUFFER_TENSOR_MAP)
      return invalid(which + " reads another tensor map");
    if (aicc_status_t s = readBufferRef(which, ref))
      return s;
    uint64_t bufferSize;
    switch (ref.kind) {
    case AICC_BUFFER_INPUT:
      bufferSize = view.input(ref.index).byte_size;
      break;
    case AICC_BUFFER_OUTPUT:
      bufferSize = view.output(ref.index).byte_size;
      break;
    case AICC_BUFFER_WEIGHT:
      bufferSize = view.weight(ref.index).byte_size;
      break;
    default: // the arena
      if (ref.offset % 16 != 0)
        return invalid(which + " starts at arena offset " +
                       std::to_string(ref.offset) + ", not a multiple of 16");
      bufferSize = view.plan->arena_size - ref.offset;
    }
    uint64_t elementSize;
    switch (map.dtype) {
    case AICC_DTYPE_INT8:
    case AICC_DTYPE_UINT8:
      elementSize = 1;
      break;
    case AICC_DTYPE_FLOAT16:
    case AICC_DTYPE_BFLOAT16:
      elementSize = 2;
      break;
    case AICC_DTYPE_FLOAT32:
      elementSize = 4;
      break;
    default:
      return invalid(which + " has element type " + std::to_string(map.dtype) +
                     "; tensor maps hold float16, bfloat16, float32, int8 "
                     "or uint8");
    }
    if (map.rank < 1 || map.rank > 5)
      return invalid(which + " has rank " + std::to_string(map.rank) +
                     ", not 1 to 5");
    for (uint32_t d = 0; d < 5; ++d) {
      std::string dim = " in dimension " + std::to_string(d);
      if (d >= map.rank) {
        if (map.dims[d] != 0 || map.box[d] != 0 ||
            (d > 0 && map.strides[d - 1] != 0))
          return invalid(which + " has its unused dimension " +
                         std::to_string(d) + " set");
        continue;
      }
      if (map.dims[d] < 1 || map.dims[d] > (uint64_t(1) << 32))
        return invalid(which + " has " + std::to_string(map.dims[d]) +
                       " elements" + dim + ", not 1 to 2^32");
      if (map.box[d] < 1 || map.box[d] > 256)
        return invalid(which + " has a box of " + std::to_string(map.box[d]) +
                       " elements" + dim + ", not 1 to 256");
      if (d > 0 && (map.strides[d - 1] % 16 != 0 ||
                    map.strides[d - 1] >= (uint64_t(1) << 40)))
        return invalid(which + " has a stride of " +
                       std::to_string(map.strides[d - 1]) + " bytes" + dim +
                       ", not a multiple of 16 below 2^40");
    }
    if (map.byte_offset % 16 != 0)
      return invalid(which + " starts at byte offset " +
                     std::to_string(map.byte_offset) +
                     ", not a multiple of 16");
    uint64_t boxRow = map.box[0] * elementSize;
    if (boxRow % 16 != 0)
      return invalid(which + " has a box row of " + std::to_string(boxRow) +
                     " bytes, not a multiple of 16");
    if (map.swizzle != 0 && map.swizzle != 32 && map.swizzle != 64 &&
        map.swizzle != 128)
      return invalid(which + " has a swizzle of " +
                     std::to_string(map.swizzle) +
                     " bytes, not 0, 32, 64 or 128");
    if (map.swizzle != 0 && boxRow > map.swizzle)
      return invalid(which + " has a box row of " + std::to_string(boxRow) +
                     " bytes, wider than its " + std::to_string(map.swizzle) +
                     "-byte swizzle");
    // The bytes from the tensor's start to the end of its last element.
    uint64_t extent = elementSize;
    for (uint32_t d = 0; d < map.rank; ++d) {
      uint64_t stride = d == 0 ? elementSize : map.strides[d - 1];
      uint64_t span;
      if (!multiply(map.dims[d] - 1, stride, span) ||
          !fits(extent, span, UINT64_MAX))
        return invalid(which + " reads past its buffer (its extent "
                               "overflows 64 bits)");
      extent += span;
    }
    if (!fits(map.byte_offset, extent, bufferSize))
      return invalid(
          which + " reads past its buffer: " + std::to_string(extent) +
          " bytes from byte offset " + std::to_string(map.byte_offset) +
          " of a " + std::to_string(bufferSize) + "-byte buffer");
    return AICC_OK;
  }

  aicc_status_t readStep(uint32_t i, const aicc_launch_step &step) const {
    std::string which = "launch step " + std::to_string(i);
    if (step.target < AICC_TARGET_CPU_X86_64 ||
        step.target > AICC_TARGET_SYSTOLIC)
      return invalid(which + " has unknown target " +
                     std::to_string(step.target));
    if (!validString(step.entry) || view.string(step.entry)[0] == 0)
      return invalid(which + " has no entry name");
    which += " ('" + std::string(view.string(step.entry)) + "')";
    if (!fits(step.first_arg, step.arg_count, view.plan->arg_count))
      return invalid(which + " has arguments past the argument array");
    if (!validString(step.source))
      return invalid(which + " has a bad source string");
    if (step.math > AICC_MATH_TENSOR_32 || step.reserved != 0)
      return invalid(which + " has an unknown math unit " +
                     std::to_string(step.math) + " or reserved bits set");
    if (!isGpuTarget(step.target)) {
      if (!allZero(step.grid, sizeof(step.grid)) ||
          !allZero(step.block, sizeof(step.block)) || step.shared_bytes != 0)
        return invalid(which + " is not a GPU step but has a launch shape");
      return AICC_OK;
    }
    for (int d = 0; d < 3; ++d)
      if (step.grid[d] == 0 || step.block[d] == 0)
        return invalid(which + " has an empty grid or block");
    if (step.grid[0] > kMaxGridX || step.grid[1] > kMaxGridYZ ||
        step.grid[2] > kMaxGridYZ)
      return invalid(which + " has a grid of " + shape(step.grid) +
                     " blocks, beyond 2^31-1 x 65535 x 65535");
    if (uint64_t(step.block[0]) * step.block[1] * step.block[2] >
        kMaxBlockThreads)
      return invalid(which + " has a block of " + shape(step.block) +
                     " threads, more than " + std::to_string(kMaxBlockThreads));
    if (step.shared_bytes > kMaxSharedBytes)
      return invalid(which + " asks for " + std::to_string(step.shared_bytes) +
                     " bytes of shared memory, more than " +
                     std::to_string(kMaxSharedBytes));
    return AICC_OK;
  }

  /// Whether a code object of `target` may have `format`.
  static bool formatFits(uint32_t target, uint32_t format) {
    switch (format) {
    case AICC_CODE_ELF_SHARED_OBJECT:
      return target == AICC_TARGET_CPU_X86_64;
    case AICC_CODE_CUBIN:
    case AICC_CODE_PTX:
      return target == AICC_TARGET_CUDA;
    case AICC_CODE_HSACO:
      return target == AICC_TARGET_ROCM;
    }
    return false;
  }

  /// Checks the image of a code object against its format.
  aicc_status_t readImage(const std::string &which, const aicc_code_header &h,
                          const uint8_t *image) const {
    uint64_t size = h.image_size;
    // ELF64, little-endian; then the machine.
    auto isElf = [&](uint16_t machine) {
      return size >= 64 &&
             std::memcmp(image,
                         "\x7f"
                         "ELF",
                         4) == 0 &&
             image[4] == 2 && image[5] == 1 && image[18] == (machine & 0xff) &&
             image[19] == (machine >> 8);
    };
    switch (h.format) {
    case AICC_CODE_ELF_SHARED_OBJECT:
      if (!isElf(62) || image[16] != 3 || image[17] != 0)
        return invalid(which + " is not an x86-64 ELF shared object");
      return AICC_OK;
    case AICC_CODE_CUBIN:
      if (!isElf(190))
        return invalid(which + " is not a CUDA ELF (cubin)");
      return AICC_OK;
    case AICC_CODE_HSACO:
      if (!isElf(224))
        return invalid(which + " is not an AMDGPU ELF code object");
      return AICC_OK;
    case AICC_CODE_PTX:
      if (std::memchr(image, 0, size) == nullptr)
        return invalid(which + " holds PTX that is not NUL-terminated");
      return AICC_OK;
    }
    return invalid(which + " has unknown format " + std::to_string(h.format));
  }

  aicc_status_t readCode() {
    for (uint32_t i = 0; i < count; ++i) {
      const aicc_section_entry &s = sections[i];
      if (s.kind != AICC_SECTION_CODE)
        continue;
      std::string which = "code section " + std::to_string(i);
      if (s.size < sizeof(aicc_code_header))
        return invalid(which + " is truncated");
      const auto *h =
          reinterpret_cast<const aicc_code_header *>(data + s.offset);
      if (h->target < AICC_TARGET_CPU_X86_64 ||
          h->target > AICC_TARGET_SYSTOLIC)
        return invalid(which + " has unknown target " +
                       std::to_string(h->target));
      if (h->format < AICC_CODE_ELF_SHARED_OBJECT ||
          h->format > AICC_CODE_HSACO)
        return invalid(which + " has unknown format " +
                       std::to_string(h->format));
      if (!formatFits(h->target, h->format))
        return invalid(which + " holds " + formatName(h->format) +
                       " code for target " + targetName(h->target));
      if (!validString(h->arch) || !allZero(h->reserved1, sizeof(h->reserved1)))
        return invalid(which + " has a malformed header");
      if (h->min_driver != 0 && h->format != AICC_CODE_PTX)
        return invalid(which + " has a minimum driver version but is not PTX");
      const char *arch = view.string(h->arch);
      which += " (" + std::string(formatName(h->format)) + " '" + arch + "')";
      SmArch sm;
      bool archFits = h->format == AICC_CODE_ELF_SHARED_OBJECT ? arch[0] != 0
                      : h->format == AICC_CODE_HSACO ? isGfxArch(arch)
                                                     : parseSmArch(arch, sm);
      if (!archFits)
        return invalid(which + " has a malformed architecture name");
      if (h->image_offset < sizeof(aicc_code_header) ||
          h->image_offset % AICC_BUNDLE_SECTION_ALIGNMENT != 0 ||
          h->image_size == 0 || !fits(h->image_offset, h->image_size, s.size))
        return invalid(which + " has its image out of bounds");
      uint64_t known = 0;
#define AICC_KNOWN_FEATURE(name, bit, string) known |= uint64_t(1) << bit;
      AICC_CPU_FEATURES(AICC_KNOWN_FEATURE)
#undef AICC_KNOWN_FEATURE
      if (h->target == AICC_TARGET_CPU_X86_64 &&
          (h->required_features & ~known) != 0)
        return invalid(which + " requires CPU features this runtime does "
                               "not know; update the runtime");
      if (h->target != AICC_TARGET_CPU_X86_64 && h->required_features != 0)
        return invalid(which + " has CPU features but is not CPU code");
      const uint8_t *image = data + s.offset + h->image_offset;
      if (aicc_status_t status = readImage(which, *h, image))
        return status;
      view.code.push_back({h, image, arch});
    }
    for (uint32_t i = 0; i < view.plan->step_count; ++i) {
      uint32_t target = view.steps[i].target;
      bool found = false;
      for (const CodeView &code : view.code)
        found |= code.header->target == target;
      if (!found)
        return invalid("launch step " + std::to_string(i) + " runs on " +
                       targetName(target) +
                       " but the bundle holds no code for it");
    }
    return AICC_OK;
  }

  const uint8_t *data;
  size_t size;
  BundleView &view;
  const aicc_section_entry *sections = nullptr;
  uint32_t count = 0;
};
} // namespace

const char *aicc::runtime::targetName(uint32_t target) {
  switch (target) {
  case AICC_TARGET_CPU_X86_64:
    return "x86-64 CPU";
  case AICC_TARGET_CUDA:
    return "CUDA";
  case AICC_TARGET_ROCM:
    return "ROCm";
  case AICC_TARGET_SYSTOLIC:
    return "systolic";
  }
  return "unknown";
}

const char *aicc::runtime::formatName(uint32_t format) {
  switch (format) {
  case AICC_CODE_ELF_SHARED_OBJECT:
    return "ELF";
  case AICC_CODE_CUBIN:
    return "cubin";
  case AICC_CODE_PTX:
    return "PTX";
  case AICC_CODE_HSACO:
    return "HSACO";
  }
  return "unknown";
}

bool aicc::runtime::parseSmArch(const char *text, SmArch &arch) {
  if (std::strncmp(text, "sm_", 3) != 0)
    return false;
  const char *digits = text + 3;
  size_t count = 0;
  while (digits[count] >= '0' && digits[count] <= '9')
    ++count;
  // Two or three digits: major then one minor digit (sm_80, sm_100).
  if (count < 2 || count > 3 || digits[0] == '0')
    return false;
  const char *suffix = digits + count;
  if (suffix[0] != 0 && !(suffix[0] == 'a' && suffix[1] == 0))
    return false;
  arch.major = 0;
  for (size_t i = 0; i + 1 < count; ++i)
    arch.major = arch.major * 10 + unsigned(digits[i] - '0');
  arch.minor = unsigned(digits[count - 1] - '0');
  arch.specific = suffix[0] == 'a';
  return true;
}

bool aicc::runtime::isGfxArch(const char *text) {
  if (std::strncmp(text, "gfx", 3) != 0 || text[3] == 0)
    return false;
  for (const char *c = text + 3; *c; ++c)
    if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z')))
      return false;
  return true;
}

aicc_status_t aicc::runtime::parseBundle(const uint8_t *data, size_t size,
                                         BundleView &view) {
  view = BundleView();
  return Reader(data, size, view).run();
}
