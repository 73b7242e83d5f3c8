// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @slices
func.func @slices(%x: tensor<4x5x6xf32>, %i: tensor<3x2xi64>) -> tensor<3x6xf32> {
  // CHECK: tile.gather_nd %{{.*}}, %{{.*}} batch_dims = 0 : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  %0 = tile.gather_nd %x, %i batch_dims = 0 : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// CHECK-LABEL: func @batched_elements
func.func @batched_elements(%x: tensor<2x5x6xf32>, %i: tensor<2x3x2xi64>) -> tensor<2x3xf32> {
  // CHECK: tile.gather_nd %{{.*}}, %{{.*}} batch_dims = 1 : (tensor<2x5x6xf32>, tensor<2x3x2xi64>) -> tensor<2x3xf32>
  %0 = tile.gather_nd %x, %i batch_dims = 1 : (tensor<2x5x6xf32>, tensor<2x3x2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
