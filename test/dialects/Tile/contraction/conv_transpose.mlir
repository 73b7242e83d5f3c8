// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @upsample_by_two
func.func @upsample_by_two(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x16x16xf32> {
  // CHECK: tile.conv_transpose %{{.*}}, %{{.*}}, %{{.*}} strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] output_padding = [1, 1] : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  %0 = tile.conv_transpose %x, %w, %b strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] output_padding = [1, 1] : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  return %0 : tensor<1x8x16x16xf32>
}

// CHECK-LABEL: func @grouped_1d_dynamic_batch
func.func @grouped_1d_dynamic_batch(%x: tensor<?x4x5xf32>, %w: tensor<4x3x2xf32>) -> tensor<?x6x6xf32> {
  // CHECK: tile.conv_transpose %{{.*}}, %{{.*}} strides = [1] dilations = [1] padding = [0, 0] output_padding = [0] groups = 2 : (tensor<?x4x5xf32>, tensor<4x3x2xf32>) -> tensor<?x6x6xf32>
  %0 = tile.conv_transpose %x, %w strides = [1] dilations = [1] padding = [0, 0] output_padding = [0] groups = 2 : (tensor<?x4x5xf32>, tensor<4x3x2xf32>) -> tensor<?x6x6xf32>
  return %0 : tensor<?x6x6xf32>
}
