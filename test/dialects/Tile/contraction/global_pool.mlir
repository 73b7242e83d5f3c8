// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @kinds
func.func @kinds(%x: tensor<1x2048x7x7xf32>, %y: tensor<?x3x4x5x6xf16>) {
  // CHECK: tile.global_pool avg %{{.*}} : tensor<1x2048x7x7xf32> -> tensor<1x2048x1x1xf32>
  %0 = tile.global_pool avg %x : tensor<1x2048x7x7xf32> -> tensor<1x2048x1x1xf32>
  // CHECK: tile.global_pool max %{{.*}} : tensor<?x3x4x5x6xf16> -> tensor<?x3x1x1x1xf16>
  %1 = tile.global_pool max %y : tensor<?x3x4x5x6xf16> -> tensor<?x3x1x1x1xf16>
  // CHECK: tile.global_pool lp %{{.*}} {p = 1 : i64} : tensor<1x2048x7x7xf32> -> tensor<1x2048x1x1xf32>
  %2 = tile.global_pool lp %x {p = 1 : i64} : tensor<1x2048x7x7xf32> -> tensor<1x2048x1x1xf32>
  return
}
