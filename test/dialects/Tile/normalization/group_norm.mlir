// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @groups
func.func @groups(%x: tensor<1x4x8x8xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  // CHECK: tile.group_norm %{{.*}}, %{{.*}}, %{{.*}} num_groups = 2 epsilon = 1.000000e-05 : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %0 = tile.group_norm %x, %s, %b num_groups = 2 epsilon = 1.0e-5 : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}
