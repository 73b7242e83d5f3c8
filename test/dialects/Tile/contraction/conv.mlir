// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @resnet_stem
func.func @resnet_stem(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>) -> tensor<1x64x112x112xf32> {
  // CHECK: tile.conv %{{.*}}, %{{.*}}, %{{.*}} strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3] : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  %0 = tile.conv %x, %w, %b strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3] : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  return %0 : tensor<1x64x112x112xf32>
}

// CHECK-LABEL: func @depthwise_dilated_asymmetric
func.func @depthwise_dilated_asymmetric(%x: tensor<2x32x15x15xf16>, %w: tensor<32x1x3x3xf16>) -> tensor<2x32x12x13xf16> {
  // CHECK: tile.conv %{{.*}}, %{{.*}} strides = [1, 1] dilations = [2, 2] padding = [0, 1, 1, 1] groups = 32 : (tensor<2x32x15x15xf16>, tensor<32x1x3x3xf16>) -> tensor<2x32x12x13xf16>
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [2, 2] padding = [0, 1, 1, 1] groups = 32 : (tensor<2x32x15x15xf16>, tensor<32x1x3x3xf16>) -> tensor<2x32x12x13xf16>
  return %0 : tensor<2x32x12x13xf16>
}

// CHECK-LABEL: func @conv1d_and_conv3d
func.func @conv1d_and_conv3d(%x1: tensor<1x4x10xf32>, %w1: tensor<8x4x3xf32>, %x3: tensor<1x2x4x4x4xf32>, %w3: tensor<2x2x2x2x2xf32>) {
  // CHECK: tile.conv %{{.*}}, %{{.*}} strides = [3] dilations = [1] padding = [0, 0] : (tensor<1x4x10xf32>, tensor<8x4x3xf32>) -> tensor<1x8x3xf32>
  %0 = tile.conv %x1, %w1 strides = [3] dilations = [1] padding = [0, 0] : (tensor<1x4x10xf32>, tensor<8x4x3xf32>) -> tensor<1x8x3xf32>
  // CHECK: tile.conv %{{.*}}, %{{.*}} strides = [1, 1, 1] dilations = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] : (tensor<1x2x4x4x4xf32>, tensor<2x2x2x2x2xf32>) -> tensor<1x2x3x3x3xf32>
  %1 = tile.conv %x3, %w3 strides = [1, 1, 1] dilations = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] : (tensor<1x2x4x4x4xf32>, tensor<2x2x2x2x2xf32>) -> tensor<1x2x3x3x3xf32>
  return
}

// CHECK-LABEL: func @dynamic_batch_and_size
func.func @dynamic_batch_and_size(%x: tensor<?x3x?x32xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<?x8x?x30xf32> {
  // CHECK: tile.conv %{{.*}}, %{{.*}} strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<?x3x?x32xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x30xf32>
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<?x3x?x32xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x30xf32>
  return %0 : tensor<?x8x?x30xf32>
}

// CHECK-LABEL: func @integer
func.func @integer(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x2x2xui8>) -> tensor<1x1x3x3xi32> {
  // CHECK: tile.conv %{{.*}}, %{{.*}} strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x1x4x4xui8>, tensor<1x1x2x2xui8>) -> tensor<1x1x3x3xi32>
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x1x4x4xui8>, tensor<1x1x2x2xui8>) -> tensor<1x1x3x3xi32>
  return %0 : tensor<1x1x3x3xi32>
}
