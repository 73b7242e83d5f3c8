// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @three_way_broadcast
func.func @three_way_broadcast(%c: tensor<4x1xi1>, %a: tensor<4xf32>, %b: tensor<f32>) -> tensor<4x4xf32> {
  // CHECK: tile.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x1xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %0 = tile.select %c, %a, %b : (tensor<4x1xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
