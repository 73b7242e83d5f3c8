// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @modes
func.func @modes(%x: tensor<2x3xf32>, %d: tensor<?x3xi32>) {
  // CHECK: tile.pad constant %{{.*}} padding = [0, 1, 0, 1] value = -1.000000e+00 : f32 : tensor<2x3xf32> -> tensor<2x5xf32>
  %0 = tile.pad constant %x padding = [0, 1, 0, 1] value = -1.0 : f32 : tensor<2x3xf32> -> tensor<2x5xf32>
  // CHECK: tile.pad constant %{{.*}} padding = [1, 1, 1, 1] : tensor<2x3xf32> -> tensor<4x5xf32>
  %1 = tile.pad constant %x padding = [1, 1, 1, 1] : tensor<2x3xf32> -> tensor<4x5xf32>
  // CHECK: tile.pad reflect %{{.*}} padding = [1, 2, 0, 2] : tensor<2x3xf32> -> tensor<3x7xf32>
  %2 = tile.pad reflect %x padding = [1, 2, 0, 2] : tensor<2x3xf32> -> tensor<3x7xf32>
  // CHECK: tile.pad edge %{{.*}} padding = [3, 3, 3, 3] : tensor<2x3xf32> -> tensor<8x9xf32>
  %3 = tile.pad edge %x padding = [3, 3, 3, 3] : tensor<2x3xf32> -> tensor<8x9xf32>
  // CHECK: tile.pad wrap %{{.*}} padding = [0, 3, 0, 0] : tensor<?x3xi32> -> tensor<?x6xi32>
  %4 = tile.pad wrap %d padding = [0, 3, 0, 0] : tensor<?x3xi32> -> tensor<?x6xi32>
  return
}
