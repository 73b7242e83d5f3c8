//===- TensorFiles.h - .npy and ONNX TensorProto files ----------*- C++ -*-===//
//
// aicc-run's file formats, read and written without numpy or protobuf: the
// runtime and its tools depend on nothing but the C++ standard library.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_TOOLS_AICCRUN_TENSORFILES_H
#define AICC_TOOLS_AICCRUN_TENSORFILES_H

#include "aicc/runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace aicc::run {

struct HostTensor {
  aicc_dtype dtype = AICC_DTYPE_FLOAT32;
  std::vector<int64_t> dims;
  std::vector<uint8_t> data; // row-major bytes
};

/// Reads a .npy file (version 1-3, C order) or an ONNX TensorProto (.pb,
/// any other extension). Returns an error message, empty on success.
std::string readTensorFile(const std::string &path, HostTensor &tensor);

/// Writes `tensor` as a .npy file; error message or empty.
std::string writeNpy(const std::string &path, const HostTensor &tensor);

/// "[1, 3, 224, 224]".
std::string formatDims(const std::vector<int64_t> &dims);

} // namespace aicc::run

#endif // AICC_TOOLS_AICCRUN_TENSORFILES_H
