// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @uneven
func.func @uneven(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x6xf32>) {
  // CHECK: tile.split %{{.*}} axis = 1 sizes = [2, 6] : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x6xf32>
  %0:2 = tile.split %x axis = 1 sizes = [2, 6] : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x6xf32>
  return %0#0, %0#1 : tensor<4x2xf32>, tensor<4x6xf32>
}

// CHECK-LABEL: func @dynamic_dim
func.func @dynamic_dim(%x: tensor<?xi64>) {
  // CHECK: tile.split %{{.*}} axis = 0 sizes = [1, 1, 1] : tensor<?xi64> -> tensor<1xi64>, tensor<1xi64>, tensor<1xi64>
  %0:3 = tile.split %x axis = 0 sizes = [1, 1, 1] : tensor<?xi64> -> tensor<1xi64>, tensor<1xi64>, tensor<1xi64>
  return
}
