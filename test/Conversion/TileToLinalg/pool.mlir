// RUN: aicc-opt %s -convert-tile-to-linalg -mlir-print-local-scope | FileCheck %s

// Pooling is one linalg.generic over (n, c, o..., k...) that reads the
// padded input at o * stride + k * dilation; the kernel window is a
// loop-only operand (an empty tensor of the kernel's shape).

// Max pooling pads with -inf and starts from -inf.
// CHECK-LABEL: func.func @max_padded_strided
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x5x5xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NINF]] : f32
// CHECK: } : tensor<1x2x5x5xf32> to tensor<1x2x7x7xf32>
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME: ins(%[[PAD]], %[[WIN]] : tensor<1x2x7x7xf32>, tensor<3x3xf32>) outs(%[[ACC]] : tensor<1x2x3x3xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: arith.maximumf %[[OUT]], %[[IN]] : f32
// CHECK: return %[[R]]
func.func @max_padded_strided(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %0 = tile.pool max %x kernel = [3, 3] strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// Unsigned max starts from 0 and compares unsigned; no padding, no pad op.
// CHECK-LABEL: func.func @max_unsigned
// CHECK: %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NOT: tensor.pad
// CHECK: linalg.fill ins(%[[Z]] : i8)
// CHECK: arith.maxui %{{.*}}, %{{.*}} : i8
func.func @max_unsigned(%x: tensor<1x1x4xui8>) -> tensor<1x1x2xui8> {
  %0 = tile.pool max %x kernel = [2] strides = [2] dilations = [1] padding = [0, 0] : tensor<1x1x4xui8> -> tensor<1x1x2xui8>
  return %0 : tensor<1x1x2xui8>
}

// Ceil mode pads the end so that the last window exists.
// CHECK-LABEL: func.func @max_ceil_mode
// CHECK: tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 1]
// CHECK: } : tensor<1x1x5xf32> to tensor<1x1x6xf32>
func.func @max_ceil_mode(%x: tensor<1x1x5xf32>) -> tensor<1x1x3xf32> {
  %0 = tile.pool max %x kernel = [2] strides = [2] dilations = [1] padding = [0, 0] ceil_mode : tensor<1x1x5xf32> -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}

// Average pooling sums, then divides by a constant tensor of the element
// counts of each window: padding excluded by default...
// CHECK-LABEL: func.func @avg_exclude_pad
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2 + d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK: arith.addf
// CHECK: %[[N:.*]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 2.000000e+00, 1.000000e+00]]]> : tensor<1x1x3xf32>
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %[[N]] : tensor<1x1x3xf32>, tensor<1x1x3xf32>)
// CHECK: arith.divf
func.func @avg_exclude_pad(%x: tensor<1x1x4xf32>) -> tensor<1x1x3xf32> {
  %0 = tile.pool avg %x kernel = [2] strides = [2] dilations = [1] padding = [1, 1] : tensor<1x1x4xf32> -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}

// ...and included with count_include_pad.
// CHECK-LABEL: func.func @avg_include_pad
// CHECK: arith.constant dense<2.000000e+00> : tensor<1x1x3xf32>
// CHECK: arith.divf
func.func @avg_include_pad(%x: tensor<1x1x4xf32>) -> tensor<1x1x3xf32> {
  %0 = tile.pool avg %x kernel = [2] strides = [2] dilations = [1] padding = [1, 1] count_include_pad : tensor<1x1x4xf32> -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}

// Lp pooling with p = 2: sum of squares of magnitudes, then a square root.
// CHECK-LABEL: func.func @lp2
// CHECK: math.absf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: math.sqrt
// CHECK-NOT: math.powf
func.func @lp2(%x: tensor<1x1x4xf32>) -> tensor<1x1x2xf32> {
  %0 = tile.pool lp %x kernel = [2] strides = [2] dilations = [1] padding = [0, 0] {p = 2 : i64} : tensor<1x1x4xf32> -> tensor<1x1x2xf32>
  return %0 : tensor<1x1x2xf32>
}
