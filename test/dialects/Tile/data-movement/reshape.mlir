// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @static
func.func @static(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  // CHECK: tile.reshape %{{.*}} : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %0 = tile.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// CHECK-LABEL: func @one_inferred_dim
func.func @one_inferred_dim(%x: tensor<?x768xf32>, %y: tensor<4x6xi8>) {
  // CHECK: tile.reshape %{{.*}} : tensor<?x768xf32> -> tensor<?x12x64xf32>
  %0 = tile.reshape %x : tensor<?x768xf32> -> tensor<?x12x64xf32>
  // CHECK: tile.reshape %{{.*}} : tensor<4x6xi8> -> tensor<?x8xi8>
  %1 = tile.reshape %y : tensor<4x6xi8> -> tensor<?x8xi8>
  return
}

// CHECK-LABEL: func @to_and_from_scalar
func.func @to_and_from_scalar(%x: tensor<1x1xf32>) -> tensor<1xf32> {
  // CHECK: tile.reshape %{{.*}} : tensor<1x1xf32> -> tensor<f32>
  %0 = tile.reshape %x : tensor<1x1xf32> -> tensor<f32>
  // CHECK: tile.reshape %{{.*}} : tensor<f32> -> tensor<1xf32>
  %1 = tile.reshape %0 : tensor<f32> -> tensor<1xf32>
  return %1 : tensor<1xf32>
}
