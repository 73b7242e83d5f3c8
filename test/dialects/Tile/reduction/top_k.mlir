// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @top_k
func.func @top_k(%x: tensor<2x10xf32>, %y: tensor<?x7xi32>) {
  // CHECK: tile.top_k %{{.*}} k = 3 axis = 1 : tensor<2x10xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
  %v0, %i0 = tile.top_k %x k = 3 axis = 1 : tensor<2x10xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
  // CHECK: tile.top_k %{{.*}} k = 2 axis = 0 {largest = false, sorted = false} : tensor<?x7xi32> -> tensor<2x7xi32>, tensor<2x7xi64>
  %v1, %i1 = tile.top_k %y k = 2 axis = 0 {largest = false, sorted = false} : tensor<?x7xi32> -> tensor<2x7xi32>, tensor<2x7xi64>
  return
}
