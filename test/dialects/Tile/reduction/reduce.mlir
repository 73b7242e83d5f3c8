// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @keep_and_drop
func.func @keep_and_drop(%x: tensor<4x8x?xf32>) {
  // CHECK: tile.reduce sum %{{.*}} axes = [1] keep_dims : tensor<4x8x?xf32> -> tensor<4x1x?xf32>
  %0 = tile.reduce sum %x axes = [1] keep_dims : tensor<4x8x?xf32> -> tensor<4x1x?xf32>
  // CHECK: tile.reduce log_sum_exp %{{.*}} axes = [0, 2] : tensor<4x8x?xf32> -> tensor<8xf32>
  %1 = tile.reduce log_sum_exp %x axes = [0, 2] : tensor<4x8x?xf32> -> tensor<8xf32>
  // CHECK: tile.reduce l2 %{{.*}} axes = [0, 1, 2] : tensor<4x8x?xf32> -> tensor<f32>
  %2 = tile.reduce l2 %x axes = [0, 1, 2] : tensor<4x8x?xf32> -> tensor<f32>
  return
}

// CHECK-LABEL: func @integer_kinds
func.func @integer_kinds(%x: tensor<3x5xi64>) {
  // CHECK: tile.reduce prod %{{.*}} axes = [1] : tensor<3x5xi64> -> tensor<3xi64>
  %0 = tile.reduce prod %x axes = [1] : tensor<3x5xi64> -> tensor<3xi64>
  // CHECK: tile.reduce mean %{{.*}} axes = [0] keep_dims : tensor<3x5xi64> -> tensor<1x5xi64>
  %1 = tile.reduce mean %x axes = [0] keep_dims : tensor<3x5xi64> -> tensor<1x5xi64>
  // CHECK: tile.reduce sum_square %{{.*}} axes = [1] : tensor<3x5xi64> -> tensor<3xi64>
  %2 = tile.reduce sum_square %x axes = [1] : tensor<3x5xi64> -> tensor<3xi64>
  return
}
