//===- CostTest.cpp - The FLOP and byte counts of GPU launches ------------===//

#include "Cost.h"

#include "aicc/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

class CostTest : public ::testing::Test {
protected:
  CostTest() {
    DialectRegistry registry;
    aicc::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  OwningOpRef<ModuleOp> parse(const char *text) {
    return parseSourceString<ModuleOp>(text, &context);
  }
  MLIRContext context;
};

TEST_F(CostTest, AProductCountsAMultiplyAndAnAddPerIteration) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%a: memref<16x8xf32>, %b: memref<8x4xf32>,
                 %c: memref<16x4xf32>) {
      linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                       affine_map<(m, n, k) -> (k, n)>,
                                       affine_map<(m, n, k) -> (m, n)>],
                      iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%a, %b : memref<16x8xf32>, memref<8x4xf32>)
          outs(%c : memref<16x4xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      }
      return
    })mlir");
  ASSERT_TRUE(module);
  linalg::GenericOp product;
  module->walk([&](linalg::GenericOp op) { product = op; });
  EXPECT_EQ(aicc::gpu::countFlops(product), 2 * 16 * 4 * 8);
}

TEST_F(CostTest, LoopsCountTheirTripsAndConversionsNothing) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%x: f32, %h: f16) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %x) -> f32 {
        %e = math.exp %acc : f32
        %w = arith.extf %h : f16 to f32
        %s = arith.addf %e, %w : f32
        scf.yield %s : f32
      }
      return %r : f32
    })mlir");
  ASSERT_TRUE(module);
  auto f = module->lookupSymbol<func::FuncOp>("f");
  // Ten iterations of an exponential and an addition.
  EXPECT_EQ(aicc::gpu::floatOps(f.getBody().front()), 20);
}

TEST_F(CostTest, ALaunchCountsEachBufferOnce) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%in: memref<256xf32>, %out: memref<256xf32>) {
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
        %v = memref.load %in[%tx] : memref<256xf32>
        %w = memref.load %in[%tx] : memref<256xf32>
        %s = arith.addf %v, %w : f32
        memref.store %s, %out[%tx] : memref<256xf32>
        gpu.terminator
      }
      return
    })mlir");
  ASSERT_TRUE(module);
  gpu::LaunchOp launch;
  module->walk([&](gpu::LaunchOp op) { launch = op; });
  // The input read twice and the output written: each buffer's bytes once.
  EXPECT_EQ(aicc::gpu::launchBytes(launch), 2 * 256 * 4);
}

} // namespace
