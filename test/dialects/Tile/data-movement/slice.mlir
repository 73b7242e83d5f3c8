// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @window_and_whole_dynamic_dim
func.func @window_and_whole_dynamic_dim(%x: tensor<4x?xf32>) -> tensor<2x?xf32> {
  // CHECK: tile.slice %{{.*}} starts = [1, 0] sizes = [2, -1] steps = [1, 1] : tensor<4x?xf32> -> tensor<2x?xf32>
  %0 = tile.slice %x starts = [1, 0] sizes = [2, -1] steps = [1, 1] : tensor<4x?xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// CHECK-LABEL: func @reverse_and_strided
func.func @reverse_and_strided(%x: tensor<4x10xf32>) -> tensor<4x3xf32> {
  // CHECK: tile.slice %{{.*}} starts = [3, 1] sizes = [4, 3] steps = [-1, 4] : tensor<4x10xf32> -> tensor<4x3xf32>
  %0 = tile.slice %x starts = [3, 1] sizes = [4, 3] steps = [-1, 4] : tensor<4x10xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func @empty_result
func.func @empty_result(%x: tensor<4xf32>) -> tensor<0xf32> {
  // CHECK: tile.slice %{{.*}} starts = [0] sizes = [0] steps = [1] : tensor<4xf32> -> tensor<0xf32>
  %0 = tile.slice %x starts = [0] sizes = [0] steps = [1] : tensor<4xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
