// RUN: aicc-opt %s -split-input-file -convert-tile-to-linalg | FileCheck %s

// A channels-last max pool (N x H x W x C) of at most 49 taps: the input
// padded with -inf along its spatial dimensions only, then the element-wise
// maximum of one strided slice per tap, so that a kernel reads each tap
// along the channels.

// CHECK-LABEL: func.func @max_taps
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %cst : f16
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [2, 4, 4, 16] [1, 2, 2, 1]
// CHECK-COUNT-7: tensor.extract_slice %[[P]]
// CHECK: %[[T8:.*]] = tensor.extract_slice %[[P]][0, 2, 2, 0] [2, 4, 4, 16] [1, 2, 2, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[T0]], {{.*}}, %[[T8]] : {{.*}})
// CHECK-COUNT-8: arith.maximumf
// CHECK-NOT: arith.maximumf
// CHECK: linalg.yield
func.func @max_taps(%x: tensor<2x7x7x16xf16>) -> tensor<2x4x4x16xf16> {
  %0 = tile.pool max %x kernel = [3, 3] strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] channels_last : tensor<2x7x7x16xf16> -> tensor<2x4x4x16xf16>
  return %0 : tensor<2x4x4x16xf16>
}

// -----

// Other pools channels last: the window reduction over (n, oh, ow, c, kh,
// kw), the channels innermost of the parallel loops; an average's divisors
// broadcast along the channels ([1, OH, OW, 1]).

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[COUNT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
// CHECK-LABEL: func.func @avg
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #{{.*}}, #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.constant dense<{{\[\[\[\[}}4.000000e+00], [4.000000e+00], [2.000000e+00]], {{.*}}> : tensor<1x3x3x1xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[COUNT]], #{{.*}}]
// CHECK: arith.divf
func.func @avg(%x: tensor<1x5x5x8xf32>) -> tensor<1x3x3x8xf32> {
  %0 = tile.pool avg %x kernel = [2, 2] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 1, 1] channels_last : tensor<1x5x5x8xf32> -> tensor<1x3x3x8xf32>
  return %0 : tensor<1x3x3x8xf32>
}
