//===- BundleWriter.h - Writing model.bin -----------------------*- C++ -*-===//
//
// The compiler's side of the bundle format (runtime/include/aicc/
// bundle_format.h, docs/bundle-format.md): a description of a compiled model
// in plain structures, laid out, checksummed and written atomically.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_BUNDLE_BUNDLEWRITER_H
#define AICC_BUNDLE_BUNDLEWRITER_H

#include "aicc/bundle_format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_pwrite_stream;
} // namespace llvm

namespace aicc::bundle {

struct Tensor {
  std::string name;
  aicc_tensor_role role = AICC_ROLE_INPUT;
  aicc_dtype dtype = AICC_DTYPE_FLOAT32;
  std::vector<int64_t> dims;
  /// Weights only: the bytes, `byteSize()` of them. Either `data` points at
  /// storage that outlives the write, or `ownedData` holds them.
  llvm::ArrayRef<char> data;
  std::string ownedData;

  uint64_t byteSize() const;
  llvm::ArrayRef<char> bytes() const {
    return ownedData.empty() ? data : llvm::ArrayRef<char>(ownedData);
  }
};

struct CodeObject {
  aicc_target target = AICC_TARGET_CPU_X86_64;
  aicc_code_format format = AICC_CODE_ELF_SHARED_OBJECT;
  std::string arch;
  uint64_t requiredFeatures = 0;
  uint32_t minDriver = 0; ///< CUDA PTX: lowest driver version that JITs it
  std::string image;
};

struct LaunchStep {
  aicc_target target = AICC_TARGET_CPU_X86_64;
  std::string entry;
  std::vector<aicc_buffer_ref> args;
  /// GPU steps: the launch shape; zero for the CPU.
  uint32_t grid[3] = {0, 0, 0};
  uint32_t block[3] = {0, 0, 0};
  uint32_t sharedBytes = 0;
  std::string source; ///< the ONNX nodes the step came from, or empty
  /// What the step computes and moves (0: not known), and on what.
  uint64_t bytes = 0;
  uint64_t flops = 0;
  aicc_math_unit math = AICC_MATH_SCALAR;
};

struct Bundle {
  std::string modelName;
  std::string producer; ///< "aicc 0.1.0"
  std::vector<Tensor> inputs, outputs, weights;
  uint64_t arenaSize = 0;
  uint32_t arenaAlignment = 64;
  std::vector<LaunchStep> steps;
  /// The plan's TMA tensor maps, which AICC_BUFFER_TENSOR_MAP arguments of
  /// CUDA steps name by index.
  std::vector<aicc_tensor_map> tensorMaps;
  std::vector<CodeObject> codeObjects;
};

/// Writes `bundle` to `stream`, which must support seeking back (a file or
/// a buffer): the checksum is patched into the header at the end.
llvm::Error writeBundle(const Bundle &bundle, llvm::raw_pwrite_stream &stream);

/// Writes `bundle` to `path` atomically: into a temporary file next to it,
/// renamed over `path` only once complete. On failure no file is left.
llvm::Error writeBundleFile(const Bundle &bundle, llvm::StringRef path);

} // namespace aicc::bundle

#endif // AICC_BUNDLE_BUNDLEWRITER_H
