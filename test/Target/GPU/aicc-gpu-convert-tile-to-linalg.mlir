// RUN: aicc-opt %s -aicc-gpu-convert-tile-to-linalg | FileCheck %s

// With direct-convolutions (the GPU targets), a convolution is one generic
// over (batch, group, output channel, output row, input channel, tap row,
// tap column, output column), reading the input through the strided tap
// index: no patch matrix, no slices.

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d4, d3 * 2 + d5, d7 * 2 + d6)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d4, d5, d6)>
// CHECK-LABEL: func.func @patch_embedding
// CHECK-NOT: tensor.insert_slice
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[W]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]}
// CHECK-NOT: tensor.insert_slice
func.func @patch_embedding(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x16x16xf32>) -> tensor<1x8x9x9xf32> {
  %0 = tile.conv %x, %w strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x3x32x32xf32>, tensor<8x3x16x16xf32>) -> tensor<1x8x9x9xf32>
  return %0 : tensor<1x8x9x9xf32>
}
