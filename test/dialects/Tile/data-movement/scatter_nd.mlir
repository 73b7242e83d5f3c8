// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @elements
func.func @elements(%x: tensor<8xf32>, %i: tensor<4x1xi64>, %u: tensor<4xf32>) -> tensor<8xf32> {
  // CHECK: tile.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} reduction = none : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>
  %0 = tile.scatter_nd %x, %i, %u reduction = none : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func @slices
func.func @slices(%x: tensor<4x4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4x4xf32>) -> tensor<4x4x4xf32> {
  // CHECK: tile.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} reduction = mul
  %0 = tile.scatter_nd %x, %i, %u reduction = mul : (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>) -> tensor<4x4x4xf32>
  return %0 : tensor<4x4x4xf32>
}
