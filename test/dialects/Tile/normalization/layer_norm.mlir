// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @bert
func.func @bert(%x: tensor<?x128x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x128x768xf32> {
  // CHECK: tile.layer_norm %{{.*}}, %{{.*}}, %{{.*}} axis = 2 epsilon = 9.9999999999999998E-13 : (tensor<?x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
  %0 = tile.layer_norm %x, %g, %b axis = 2 epsilon = 1.0e-12 : (tensor<?x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>
  return %0 : tensor<?x128x768xf32>
}

// Parameters broadcast to the normalized shape; the bias is optional.
// CHECK-LABEL: func @broadcast_scale_no_bias
func.func @broadcast_scale_no_bias(%x: tensor<2x3x4x5xf16>, %g: tensor<1x5xf16>) -> tensor<2x3x4x5xf16> {
  // CHECK: tile.layer_norm %{{.*}}, %{{.*}} axis = 1 epsilon = 1.000000e-05 : (tensor<2x3x4x5xf16>, tensor<1x5xf16>) -> tensor<2x3x4x5xf16>
  %0 = tile.layer_norm %x, %g axis = 1 epsilon = 1.0e-5 : (tensor<2x3x4x5xf16>, tensor<1x5xf16>) -> tensor<2x3x4x5xf16>
  return %0 : tensor<2x3x4x5xf16>
}
