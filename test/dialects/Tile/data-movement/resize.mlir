// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @modes
func.func @modes(%x: tensor<1x3x8x8xf32>, %i: tensor<1x1x4x4xui8>) {
  // CHECK: tile.resize linear %{{.*}} scales = [1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  %0 = tile.resize linear %x scales = [1.0, 1.0, 2.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  // CHECK: tile.resize nearest %{{.*}} scales = [1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00] coordinate_transform = asymmetric nearest_mode = floor : tensor<1x1x4x4xui8> -> tensor<1x1x8x8xui8>
  %1 = tile.resize nearest %i scales = [1.0, 1.0, 2.0, 2.0] coordinate_transform = asymmetric nearest_mode = floor : tensor<1x1x4x4xui8> -> tensor<1x1x8x8xui8>
  // CHECK: tile.resize cubic %{{.*}} scales = [1.000000e+00, 1.000000e+00, 5.000000e-01, 5.000000e-01] {antialias, cubic_coeff_a = -5.000000e-01 : f64, exclude_outside} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  %2 = tile.resize cubic %x scales = [1.0, 1.0, 0.5, 0.5] {antialias, cubic_coeff_a = -0.5 : f64, exclude_outside} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  // CHECK: tile.resize linear %{{.*}} scales = [1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00] coordinate_transform = tf_crop_and_resize roi = [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 5.000000e-01, 5.000000e-01] {extrapolation_value = 1.000000e+01 : f64} : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  %3 = tile.resize linear %x scales = [1.0, 1.0, 1.0, 1.0] coordinate_transform = tf_crop_and_resize roi = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.5, 0.5] {extrapolation_value = 10.0 : f64} : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return
}

// CHECK-LABEL: func @dynamic_scales
func.func @dynamic_scales(%x: tensor<1x1x2x4xf32>, %s: tensor<4xf32>) -> tensor<1x1x1x2xf32> {
  // CHECK: tile.resize linear %{{.*}} dynamic_scales(%{{.*}} : tensor<4xf32>) scales = [1.000000e+00, 1.000000e+00, 5.000000e-01, 5.000000e-01] : tensor<1x1x2x4xf32> -> tensor<1x1x1x2xf32>
  %0 = tile.resize linear %x dynamic_scales(%s : tensor<4xf32>) scales = [1.0, 1.0, 0.5, 0.5] : tensor<1x1x2x4xf32> -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}
