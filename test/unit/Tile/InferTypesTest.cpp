//===- InferTypesTest.cpp - Result-type inference through the C++ API -----===//
//
// The importer builds tile ops from C++ without spelling result types. These
// tests build ops that way and check the inferred types, and that
// createInferred turns bad input into a diagnostic instead of an abort.
//
//===----------------------------------------------------------------------===//

#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace aicc::tile;

namespace {

class InferTypesTest : public ::testing::Test {
protected:
  InferTypesTest() : builder(&context), loc(UnknownLoc::get(&context)) {
    context.loadDialect<TileDialect, func::FuncDialect>();
    module = ModuleOp::create(builder, loc);
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// A function argument of the given type to feed the ops under test.
  Value arg(ArrayRef<int64_t> shape, Type element) {
    auto type = RankedTensorType::get(shape, element);
    auto func =
        func::FuncOp::create(builder, loc, "f" + std::to_string(count++),
                             builder.getFunctionType({type}, {}));
    Block *entry = func.addEntryBlock();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(entry);
    func::ReturnOp::create(builder, loc);
    return entry->getArgument(0);
  }

  /// Places new ops before the terminator of the function defining `value`.
  void insertNear(Value value) {
    Block *block = cast<BlockArgument>(value).getOwner();
    builder.setInsertionPoint(block->getTerminator());
  }

  static RankedTensorType typeOf(Value value) {
    return cast<RankedTensorType>(value.getType());
  }

  MLIRContext context;
  OpBuilder builder;
  Location loc;
  OwningOpRef<ModuleOp> module;
  int count = 0;
};

TEST_F(InferTypesTest, BinaryBroadcasts) {
  Value x = arg({8, 1, 16}, builder.getF32Type());
  Value b = arg({4, 16}, builder.getF32Type());
  insertNear(x);
  // Both operands live in different functions here; only the types matter.
  auto op = BinaryOp::create(builder, loc, BinaryKind::add, x, b);
  EXPECT_EQ(typeOf(op.getResult()).getShape(), ArrayRef<int64_t>({8, 4, 16}));
  EXPECT_TRUE(typeOf(op.getResult()).getElementType().isF32());
}

TEST_F(InferTypesTest, CompareYieldsBool) {
  Value x = arg({ShapedType::kDynamic, 3}, builder.getF16Type());
  insertNear(x);
  auto op = CompareOp::create(builder, loc, ComparePredicate::lt, x, x);
  EXPECT_EQ(typeOf(op.getResult()).getShape(),
            ArrayRef<int64_t>({ShapedType::kDynamic, 3}));
  EXPECT_TRUE(typeOf(op.getResult()).getElementType().isInteger(1));
}

TEST_F(InferTypesTest, MatmulBatchAndIntegerAccumulation) {
  Value a = arg({2, 1, 64, 32}, builder.getIntegerType(8));
  Value b = arg({5, 16, 32}, builder.getIntegerType(8, /*isSigned=*/false));
  insertNear(a);
  auto op = MatmulOp::create(builder, loc, a, b, /*transpose_lhs=*/false,
                             /*transpose_rhs=*/true);
  EXPECT_EQ(typeOf(op.getResult()).getShape(),
            ArrayRef<int64_t>({2, 5, 64, 16}));
  EXPECT_TRUE(typeOf(op.getResult()).getElementType().isInteger(32));
}

TEST_F(InferTypesTest, ConvOutputSize) {
  Value x = arg({1, 3, 224, 224}, builder.getF32Type());
  Value w = arg({64, 3, 7, 7}, builder.getF32Type());
  insertNear(x);
  auto op = ConvOp::create(builder, loc, x, w, /*bias=*/Value(),
                           /*strides=*/ArrayRef<int64_t>{2, 2},
                           /*dilations=*/ArrayRef<int64_t>{1, 1},
                           /*padding=*/ArrayRef<int64_t>{3, 3, 3, 3},
                           /*groups=*/1);
  EXPECT_EQ(typeOf(op.getResult()).getShape(),
            ArrayRef<int64_t>({1, 64, 112, 112}));
}

TEST_F(InferTypesTest, PoolCeilMode) {
  Value x = arg({1, 1, 5, 5}, builder.getF32Type());
  insertNear(x);
  auto op = PoolOp::create(builder, loc, PoolKind::avg, x,
                           /*kernel=*/ArrayRef<int64_t>{2, 2},
                           /*strides=*/ArrayRef<int64_t>{2, 2},
                           /*dilations=*/ArrayRef<int64_t>{1, 1},
                           /*padding=*/ArrayRef<int64_t>{0, 0, 0, 0},
                           /*ceil_mode=*/true, /*count_include_pad=*/false,
                           /*p=*/IntegerAttr());
  EXPECT_EQ(typeOf(op.getResult()).getShape(), ArrayRef<int64_t>({1, 1, 3, 3}));
}

TEST_F(InferTypesTest, SliceKeepsWholeDynamicDimension) {
  Value x = arg({ShapedType::kDynamic, 10}, builder.getF32Type());
  insertNear(x);
  auto op = SliceOp::create(builder, loc, x, ArrayRef<int64_t>{0, 9},
                            ArrayRef<int64_t>{-1, 5}, ArrayRef<int64_t>{1, -2});
  EXPECT_EQ(typeOf(op.getResult()).getShape(),
            ArrayRef<int64_t>({ShapedType::kDynamic, 5}));
}

TEST_F(InferTypesTest, SplitAndTopKHaveSeveralResults) {
  Value x = arg({4, 8}, builder.getF32Type());
  insertNear(x);
  auto split =
      SplitOp::create(builder, loc, x, /*axis=*/1, ArrayRef<int64_t>{2, 6});
  ASSERT_EQ(split.getNumResults(), 2u);
  EXPECT_EQ(typeOf(split.getResult(1)).getShape(), ArrayRef<int64_t>({4, 6}));

  auto topK = TopKOp::create(builder, loc, x, /*k=*/3, /*axis=*/1);
  EXPECT_EQ(typeOf(topK.getValues()).getShape(), ArrayRef<int64_t>({4, 3}));
  EXPECT_TRUE(typeOf(topK.getIndices()).getElementType().isInteger(64));
}

TEST_F(InferTypesTest, BuiltModuleVerifies) {
  Value x = arg({2, 3, 8}, builder.getF32Type());
  insertNear(x);
  auto t = TransposeOp::create(builder, loc, x, ArrayRef<int64_t>{2, 0, 1});
  auto r = ReduceOp::create(builder, loc, ReduceKind::mean, t,
                            ArrayRef<int64_t>{0}, /*keep_dims=*/true);
  EXPECT_EQ(typeOf(r.getResult()).getShape(), ArrayRef<int64_t>({1, 2, 3}));
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(InferTypesTest, CreateInferredSucceeds) {
  Value x = arg({4, 8}, builder.getF32Type());
  Value b = arg({8}, builder.getF32Type());
  insertNear(x);
  BinaryOp::Properties properties;
  properties.setKind(BinaryKindAttr::get(&context, BinaryKind::mul));
  FailureOr<BinaryOp> op =
      createInferred<BinaryOp>(builder, loc, {x, b}, properties);
  ASSERT_TRUE(succeeded(op));
  EXPECT_EQ(typeOf(op->getResult()).getShape(), ArrayRef<int64_t>({4, 8}));
  EXPECT_EQ(op->getKind(), BinaryKind::mul);
}

TEST_F(InferTypesTest, CreateInferredReportsInsteadOfAborting) {
  Value x = arg({4, 8}, builder.getF32Type());
  Value b = arg({3}, builder.getF32Type());
  insertNear(x);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    message = diagnostic.str();
    return success();
  });
  BinaryOp::Properties properties;
  properties.setKind(BinaryKindAttr::get(&context, BinaryKind::add));
  EXPECT_TRUE(
      failed(createInferred<BinaryOp>(builder, loc, {x, b}, properties)));
  EXPECT_EQ(message, "operand shapes 4x8, 3 are not broadcast-compatible");
}

TEST_F(InferTypesTest, CreateInferredRejectsBadAttributes) {
  Value x = arg({2, 3}, builder.getF32Type());
  insertNear(x);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    message = diagnostic.str();
    return success();
  });
  TransposeOp::Properties properties;
  properties.setPermutation(builder.getDenseI64ArrayAttr({0, 0}));
  EXPECT_TRUE(
      failed(createInferred<TransposeOp>(builder, loc, {x}, properties)));
  EXPECT_EQ(message, "permutation is not a permutation of [0, 2)");
}

} // namespace
