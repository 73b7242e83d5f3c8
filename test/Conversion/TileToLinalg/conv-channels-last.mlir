// RUN: aicc-opt %s -convert-tile-to-linalg | FileCheck %s

// A channels-last convolution (N x H x W x C, filter M x KH x KW x C/g) is
// one generic over (n, oh, ow, g, m, kh, kw, c) on every target: the
// channels innermost in the image, the filter and the reduction; the input
// padded along its spatial dimensions only; the bias broadcast along the
// last dimension.

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 * 2 + d5, d2 * 2 + d6, d3, d7)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d3, d4, d5, d6, d7)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @grouped
// CHECK: tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 10, 10, 2, 8]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 16, 3, 3, 8]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x4x4x2x16xf32> into tensor<1x4x4x32xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x4x4x32xf32>, tensor<32xf32>)
func.func @grouped(%x: tensor<1x8x8x16xf32>, %w: tensor<32x3x3x8xf32>, %b: tensor<32xf32>) -> tensor<1x4x4x32xf32> {
  %0 = tile.conv %x, %w, %b strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] groups = 2 channels_last : (tensor<1x8x8x16xf32>, tensor<32x3x3x8xf32>, tensor<32xf32>) -> tensor<1x4x4x32xf32>
  return %0 : tensor<1x4x4x32xf32>
}
