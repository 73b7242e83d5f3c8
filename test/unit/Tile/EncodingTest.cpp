//===- EncodingTest.cpp - The #tile.encoding attribute's C++ API ----------===//

#include "Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace aicc::tile;

namespace {

class EncodingTest : public ::testing::Test {
protected:
  EncodingTest() : builder(&context) { context.loadDialect<TileDialect>(); }

  /// Builds an encoding through the checked path, recording the diagnostic.
  EncodingAttr build(ArrayRef<ArrayRef<int64_t>> tiles, ArrayRef<int64_t> order,
                     StringRef target = "") {
    SmallVector<DenseI64ArrayAttr> levels;
    for (ArrayRef<int64_t> level : tiles)
      levels.push_back(builder.getDenseI64ArrayAttr(level));
    auto emit = [&] { return emitError(UnknownLoc::get(&context)); };
    return EncodingAttr::getChecked(
        emit, &context, ArrayRef<DenseI64ArrayAttr>(levels), order,
        target.empty() ? StringAttr() : builder.getStringAttr(target),
        aicc::tile::KernelConfigAttrInterface());
  }

  MLIRContext context;
  Builder builder;
  std::string message;
  ScopedDiagnosticHandler handler{&context, [this](Diagnostic &diagnostic) {
                                    message = diagnostic.str();
                                    return success();
                                  }};
};

TEST_F(EncodingTest, ValidEncodingKeepsItsFields) {
  EncodingAttr encoding = build({{128, 64}, {32, 32}}, {1, 0}, "cuda");
  ASSERT_TRUE(encoding);
  EXPECT_EQ(encoding.getNumLevels(), 2u);
  EXPECT_EQ(encoding.getTiles()[1].asArrayRef(), ArrayRef<int64_t>({32, 32}));
  EXPECT_EQ(encoding.getTarget().getValue(), "cuda");
  EXPECT_EQ(encoding.getOrderOrDefault(2), SmallVector<int64_t>({1, 0}));
}

TEST_F(EncodingTest, OrderDefaultsToRowMajor) {
  EncodingAttr encoding = build({{8, 8, 8}}, {});
  ASSERT_TRUE(encoding);
  EXPECT_EQ(encoding.getOrderOrDefault(3), SmallVector<int64_t>({0, 1, 2}));
}

TEST_F(EncodingTest, EncodingsAreUniqued) {
  EXPECT_EQ(build({{4, 4}}, {1, 0}), build({{4, 4}}, {1, 0}));
  EXPECT_NE(build({{4, 4}}, {1, 0}), build({{4, 4}}, {0, 1}));
}

TEST_F(EncodingTest, CheckedBuildRejectsNonNestingLevels) {
  EXPECT_FALSE(build({{8, 8}, {3, 8}}, {}));
  EXPECT_EQ(
      message,
      "tile level 1 size 3 does not divide level 0 size 8 in dimension 0");
}

TEST_F(EncodingTest, CheckedBuildRejectsEmptyEncoding) {
  EXPECT_FALSE(build({}, {}));
  EXPECT_EQ(message, "encoding carries no tiles, order, target or config");
}

TEST_F(EncodingTest, TensorTypeChecksRankAgainstEncoding) {
  EncodingAttr encoding = build({{4, 4}}, {});
  ASSERT_TRUE(encoding);
  auto emit = [&] { return emitError(UnknownLoc::get(&context)); };
  EXPECT_TRUE(RankedTensorType::getChecked(emit, {16, 16}, builder.getF32Type(),
                                           encoding));
  EXPECT_FALSE(RankedTensorType::getChecked(emit, {16, 16, 16},
                                            builder.getF32Type(), encoding));
  EXPECT_EQ(message, "encoding tiles have rank 2 but the tensor has rank 3");
}

} // namespace
