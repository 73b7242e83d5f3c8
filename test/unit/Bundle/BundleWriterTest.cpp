//===- BundleWriterTest.cpp - The writer's bundles, read back -------------===//
//
// Bundles written by bundle::writeBundle, validated by the runtime's reader:
// what the writer lays out is where the reader looks for it.
//
//===----------------------------------------------------------------------===//

#include "BundleReader.h"

#include "aicc/Bundle/BundleWriter.h"
#include "aicc/runtime.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace aicc;

namespace {
/// An ELF64 header with e_machine EM_CUDA: all the reader asks of a cubin.
std::string fakeCubin() {
  std::string image(64, '\0');
  image.replace(0, 4,
                "\x7f"
                "ELF");
  image[4] = 2; // 64-bit
  image[5] = 1; // little-endian
  image[18] = static_cast<char>(190);
  return image;
}

/// One CUDA step that reads input x through a TMA tensor map and writes y.
bundle::Bundle tensorMapBundle() {
  bundle::Bundle b;
  b.modelName = "tma";
  b.producer = "BundleWriterTest";
  bundle::Tensor x;
  x.name = "x";
  x.dims = {64, 64};
  bundle::Tensor y = x;
  y.name = "y";
  y.role = AICC_ROLE_OUTPUT;
  b.inputs = {x};
  b.outputs = {y};
  aicc_tensor_map map = {};
  map.buffer = {AICC_BUFFER_INPUT, 0, 0};
  map.dtype = AICC_DTYPE_FLOAT32;
  map.rank = 2;
  map.dims[0] = map.dims[1] = 64;
  map.strides[0] = 64 * 4;
  map.box[0] = 32;
  map.box[1] = 16;
  map.swizzle = 128;
  b.tensorMaps = {map};
  bundle::LaunchStep step;
  step.target = AICC_TARGET_CUDA;
  step.entry = "copy";
  step.args = {{AICC_BUFFER_TENSOR_MAP, 0, 0}, {AICC_BUFFER_OUTPUT, 0, 0}};
  for (int d = 0; d < 3; ++d)
    step.grid[d] = step.block[d] = 1;
  b.steps = {step};
  bundle::CodeObject code;
  code.target = AICC_TARGET_CUDA;
  code.format = AICC_CODE_CUBIN;
  code.arch = "sm_90";
  code.image = fakeCubin();
  b.codeObjects = {code};
  return b;
}

TEST(BundleWriterTest, TensorMapsFollowTheArguments) {
  bundle::Bundle b = tensorMapBundle();
  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream stream(bytes);
  ASSERT_FALSE(llvm::errorToBool(bundle::writeBundle(b, stream)));
  // The reader wants 8-byte aligned bytes.
  std::vector<uint64_t> words((bytes.size() + 7) / 8);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  runtime::BundleView view;
  ASSERT_EQ(
      runtime::parseBundle(reinterpret_cast<const uint8_t *>(words.data()),
                           bytes.size(), view),
      AICC_OK)
      << aicc_last_error_message();
  ASSERT_EQ(view.plan->tensor_map_count, 1u);
  EXPECT_EQ(std::memcmp(&view.tensorMaps[0], &b.tensorMaps[0],
                        sizeof(aicc_tensor_map)),
            0);
  ASSERT_EQ(view.plan->arg_count, 2u);
  EXPECT_EQ(view.args[0].kind, AICC_BUFFER_TENSOR_MAP);
  EXPECT_EQ(view.args[0].index, 0u);
}

TEST(BundleWriterTest, RefusesAReferenceToAMissingTensorMap) {
  bundle::Bundle b = tensorMapBundle();
  b.tensorMaps.clear();
  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream stream(bytes);
  llvm::Error error = bundle::writeBundle(b, stream);
  ASSERT_TRUE(bool(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "step 'copy' names tensor map 0 of 0");
}
} // namespace
