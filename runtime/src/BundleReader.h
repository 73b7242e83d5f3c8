//===- BundleReader.h - Validating model.bin --------------------*- C++ -*-===//
//
// A bundle is code and is read as hostile input: every offset, size, count
// and string is checked before anything points into it. Once parseBundle
// succeeds, the view's pointers and counts may be used without re-checking.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_RUNTIME_BUNDLEREADER_H
#define AICC_RUNTIME_BUNDLEREADER_H

#include "aicc/bundle_format.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace aicc::runtime {

struct CodeView {
  const aicc_code_header *header;
  const uint8_t *image;
  const char *arch;
};

/// Validated views into a bundle held in memory.
struct BundleView {
  const aicc_bundle_header *header = nullptr;
  const char *strings = nullptr;
  uint64_t stringsSize = 0;
  const aicc_manifest_header *manifest = nullptr;
  const aicc_tensor_record *tensors = nullptr; // manifest->tensor_count
  const int64_t *dims = nullptr;               // manifest->dim_count
  const aicc_plan_header *plan = nullptr;
  const aicc_launch_step *steps = nullptr;     // plan->step_count
  const aicc_buffer_ref *args = nullptr;       // plan->arg_count
  const aicc_tensor_map *tensorMaps = nullptr; // plan->tensor_map_count
  std::vector<CodeView> code;
  const uint8_t *constants = nullptr;
  uint64_t constantsSize = 0;

  const char *string(uint32_t offset) const { return strings + offset; }
  const aicc_tensor_record &input(uint32_t i) const { return tensors[i]; }
  const aicc_tensor_record &output(uint32_t i) const {
    return tensors[manifest->input_count + i];
  }
  const aicc_tensor_record &weight(uint32_t i) const {
    return tensors[manifest->input_count + manifest->output_count + i];
  }
};

/// "CUDA", "ROCm", ... for an aicc_target value.
const char *targetName(uint32_t target);

/// "cubin", "PTX", ... for an aicc_code_format value.
const char *formatName(uint32_t format);

/// A CUDA architecture, "sm_<major><minor>[a]": sm_90 is 9.0, sm_100 10.0,
/// and the "a" suffix marks code that runs on exactly that version.
struct SmArch {
  unsigned major = 0;
  unsigned minor = 0;
  bool specific = false;
};

/// Parses "sm_80", "sm_90a", "sm_100"; false for anything else.
bool parseSmArch(const char *text, SmArch &arch);

/// Whether `text` is an AMDGPU target name, "gfx" and lowercase letters or
/// digits ("gfx90a", "gfx942"), without feature suffixes.
bool isGfxArch(const char *text);

/// Validates the `size` bytes at `data` (8-byte aligned) as a bundle, the
/// checksum included. On failure records the reason as the thread's last
/// error.
aicc_status_t parseBundle(const uint8_t *data, size_t size, BundleView &view);

} // namespace aicc::runtime

#endif // AICC_RUNTIME_BUNDLEREADER_H
