// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @instance
func.func @instance(%x: tensor<2x3x8x8xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x8x8xf32> {
  // CHECK: tile.instance_norm %{{.*}}, %{{.*}}, %{{.*}} epsilon = 1.000000e-05 : (tensor<2x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x8x8xf32>
  %0 = tile.instance_norm %x, %s, %b epsilon = 1.0e-5 : (tensor<2x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x8x8xf32>
  return %0 : tensor<2x3x8x8xf32>
}
