// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @resnet_max_pool
func.func @resnet_max_pool(%x: tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32> {
  // CHECK: tile.pool max %{{.*}} kernel = [3, 3] strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  %0 = tile.pool max %x kernel = [3, 3] strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// With ceil_mode the last partial window counts: 5 positions, kernel 2,
// stride 2 give 3 outputs instead of 2.
// CHECK-LABEL: func @avg_ceil_mode
func.func @avg_ceil_mode(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  // CHECK: tile.pool avg %{{.*}} kernel = [2, 2] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] ceil_mode count_include_pad : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
  %0 = tile.pool avg %x kernel = [2, 2] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] ceil_mode count_include_pad : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// A window that would start in the trailing padding is dropped: 4 positions
// with one trailing pad, kernel 2, stride 2 and ceil_mode give 2, not 3.
// CHECK-LABEL: func @ceil_mode_drops_window_in_padding
func.func @ceil_mode_drops_window_in_padding(%x: tensor<1x1x4xf32>) -> tensor<1x1x2xf32> {
  // CHECK: tile.pool max %{{.*}} kernel = [2] strides = [2] dilations = [1] padding = [0, 1] ceil_mode : tensor<1x1x4xf32> -> tensor<1x1x2xf32>
  %0 = tile.pool max %x kernel = [2] strides = [2] dilations = [1] padding = [0, 1] ceil_mode : tensor<1x1x4xf32> -> tensor<1x1x2xf32>
  return %0 : tensor<1x1x2xf32>
}

// CHECK-LABEL: func @lp_3d_dynamic
func.func @lp_3d_dynamic(%x: tensor<?x2x8x8x?xf32>) -> tensor<?x2x4x4x?xf32> {
  // CHECK: tile.pool lp %{{.*}} kernel = [2, 2, 2] strides = [2, 2, 2] dilations = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] {p = 3 : i64} : tensor<?x2x8x8x?xf32> -> tensor<?x2x4x4x?xf32>
  %0 = tile.pool lp %x kernel = [2, 2, 2] strides = [2, 2, 2] dilations = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] {p = 3 : i64} : tensor<?x2x8x8x?xf32> -> tensor<?x2x4x4x?xf32>
  return %0 : tensor<?x2x4x4x?xf32>
}

// CHECK-LABEL: func @max_on_integers
func.func @max_on_integers(%x: tensor<1x1x4x4xui8>) -> tensor<1x1x2x2xui8> {
  // CHECK: tile.pool max %{{.*}} kernel = [2, 2] strides = [2, 2] dilations = [2, 2] padding = [0, 0, 1, 1] : tensor<1x1x4x4xui8> -> tensor<1x1x2x2xui8>
  %0 = tile.pool max %x kernel = [2, 2] strides = [2, 2] dilations = [2, 2] padding = [0, 0, 1, 1] : tensor<1x1x4x4xui8> -> tensor<1x1x2x2xui8>
  return %0 : tensor<1x1x2x2xui8>
}
