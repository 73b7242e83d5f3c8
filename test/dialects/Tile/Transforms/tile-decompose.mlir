// RUN: aicc-opt %s -tile-decompose -split-input-file | FileCheck %s

// CHECK-LABEL: func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>)
// CHECK: %[[MAX:.*]] = tile.reduce max %[[X]] axes = [1] keep_dims
// CHECK: %[[SHIFT:.*]] = tile.binary sub %[[X]], %[[MAX]]
// CHECK: %[[E:.*]] = tile.unary exp %[[SHIFT]]
// CHECK: %[[SUM:.*]] = tile.reduce sum %[[E]] axes = [1] keep_dims
// CHECK: %[[Y:.*]] = tile.binary div %[[E]], %[[SUM]]
// CHECK: return %[[Y]]
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tile.softmax %x axis = 1 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func @log_softmax
// CHECK: tile.reduce max
// CHECK: %[[SHIFT:.*]] = tile.binary sub
// CHECK: tile.unary exp %[[SHIFT]]
// CHECK: %[[SUM:.*]] = tile.reduce sum
// CHECK: %[[LOG:.*]] = tile.unary log %[[SUM]]
// CHECK: tile.binary sub %[[SHIFT]], %[[LOG]]
func.func @log_softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tile.log_softmax %x axis = 0 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Statistics of f16 inputs are computed in f32.
// CHECK-LABEL: func @layer_norm_f16
// CHECK: %[[WIDE:.*]] = tile.cast %{{.*}} : tensor<2x4x8xf16> -> tensor<2x4x8xf32>
// CHECK: tile.reduce mean %[[WIDE]] axes = [1, 2] keep_dims : tensor<2x4x8xf32> -> tensor<2x1x1xf32>
// CHECK: tile.unary rsqrt
// CHECK: tile.cast %{{.*}} : tensor<2x4x8xf32> -> tensor<2x4x8xf16>
// CHECK: tile.binary mul %{{.*}}, %{{.*}} : (tensor<2x4x8xf16>, tensor<4x8xf16>) -> tensor<2x4x8xf16>
// CHECK: tile.binary add
// CHECK-NOT: tile.layer_norm
func.func @layer_norm_f16(%x: tensor<2x4x8xf16>, %g: tensor<4x8xf16>, %b: tensor<4x8xf16>) -> tensor<2x4x8xf16> {
  %0 = tile.layer_norm %x, %g, %b axis = 1 epsilon = 1.0e-5 : (tensor<2x4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// -----

// Constant parameters fold into one scale and one shift per channel.
// CHECK-LABEL: func @batch_norm_constant_parameters
// CHECK-DAG: %[[MEAN:.*]] = tile.constant dense<{{\[\[\[}}1.000000e+00]], {{\[\[}}2.000000e+00]]]> : tensor<2x1x1xf32>
// CHECK-DAG: %[[FACTOR:.*]] = tile.constant dense<5.000000e-01> : tensor<2x1x1xf32>
// CHECK: %[[C:.*]] = tile.binary sub %{{.*}}, %[[MEAN]]
// CHECK: tile.binary mul %[[C]], %[[FACTOR]]
// CHECK: tile.binary add
func.func @batch_norm_constant_parameters(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %s = tile.constant dense<1.0> : tensor<2xf32>
  %b = tile.constant dense<0.0> : tensor<2xf32>
  %m = tile.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = tile.constant dense<4.0> : tensor<2xf32>
  %0 = tile.batch_norm %x, %s, %b, %m, %v epsilon = 0.0 : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// CHECK-LABEL: func @group_norm
// CHECK: tile.reshape %{{.*}} : tensor<1x4x2x2xf32> -> tensor<1x2x8xf32>
// CHECK: tile.reduce mean %{{.*}} axes = [2] keep_dims : tensor<1x2x8xf32> -> tensor<1x2x1xf32>
// CHECK: tile.reshape %{{.*}} : tensor<1x2x8xf32> -> tensor<1x4x2x2xf32>
func.func @group_norm(%x: tensor<1x4x2x2xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = tile.group_norm %x, %s, %b num_groups = 2 epsilon = 1.0e-5 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// The channel-window sum of LRN is an average pool over channels that counts
// its padding.
// CHECK-LABEL: func @lrn
// CHECK: tile.reshape %{{.*}} : tensor<1x6x2x2xf32> -> tensor<1x1x6x4xf32>
// CHECK: tile.pool avg %{{.*}} kernel = [3, 1] strides = [1, 1] dilations = [1, 1] padding = [1, 0, 1, 0] count_include_pad
// CHECK: tile.binary pow
// CHECK: tile.binary div
func.func @lrn(%x: tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32> {
  %0 = tile.lrn %x size = 3 alpha = 1.0e-4 beta = 0.75 bias = 1.0 : tensor<1x6x2x2xf32>
  return %0 : tensor<1x6x2x2xf32>
}

// -----

// CHECK-LABEL: func @global_pools
// CHECK: tile.reduce mean %{{.*}} axes = [2, 3] keep_dims : tensor<1x3x4x4xf32> -> tensor<1x3x1x1xf32>
// CHECK: tile.reduce l2 %{{.*}} axes = [2, 3] keep_dims
func.func @global_pools(%x: tensor<1x3x4x4xf32>) -> (tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) {
  %0 = tile.global_pool avg %x : tensor<1x3x4x4xf32> -> tensor<1x3x1x1xf32>
  %1 = tile.global_pool lp %x {p = 2 : i64} : tensor<1x3x4x4xf32> -> tensor<1x3x1x1xf32>
  return %0, %1 : tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>
}
