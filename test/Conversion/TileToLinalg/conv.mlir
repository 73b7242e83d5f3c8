// RUN: aicc-opt %s -convert-tile-to-linalg -mlir-print-local-scope | FileCheck %s --check-prefix=CHECK
// RUN: aicc-opt %s -aicc-cpu-convert-tile-to-linalg=panel-width=32 -mlir-print-local-scope | FileCheck %s --check-prefix=PANEL

// Convolutions with several input and output channels per group become a
// matrix product of the filter [g, M, c * taps] with unfolded patches; with
// conv-panel-width the patches are packed into panels of that many output
// positions. Depthwise convolutions take the direct form without panels and
// the sum over taps with them.

// Two taps of a 1-d kernel: one strided slice of the input per tap, copied
// into the patches [n, g, c, tap, o], which collapse to [n, g, K, P].
// CHECK-LABEL: func.func @conv_as_matmul
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x6xf32>, %[[W:.*]]: tensor<8x4x2xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT: tensor.pad
// CHECK: %[[G:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2], [3]] output_shape [1, 1, 4, 6]
// CHECK: %[[U:.*]] = tensor.empty() : tensor<1x1x4x2x5xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[G]][0, 0, 0, 0] [1, 1, 4, 5] [1, 1, 1, 1]
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[U]][0, 0, 0, 0, 0] [1, 1, 4, 1, 5] [1, 1, 1, 1, 1]
// CHECK: %[[C0:.*]] = linalg.generic {{.*}} ins(%[[S0]] : tensor<1x1x4x5xf32>) outs(%[[T0]] : tensor<1x1x4x5xf32>)
// CHECK: %[[U0:.*]] = tensor.insert_slice %[[C0]] into %[[U]][0, 0, 0, 0, 0]
// CHECK: tensor.extract_slice %[[G]][0, 0, 0, 1] [1, 1, 4, 5] [1, 1, 1, 1]
// CHECK: %[[U1:.*]] = tensor.insert_slice %{{.*}} into %[[U0]][0, 0, 0, 1, 0]
// CHECK: %[[P:.*]] = tensor.collapse_shape %[[U1]] {{\[}}[0], [1], [2, 3], [4]] : tensor<1x1x4x2x5xf32> into tensor<1x1x8x5xf32>
// CHECK: %[[F:.*]] = tensor.expand_shape %{{.*}} output_shape [1, 8, 8] : tensor<64xf32> into tensor<1x8x8xf32>
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x8x5xf32>)
// CHECK: %[[PROD:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[F]], %[[P]] : tensor<1x8x8xf32>, tensor<1x1x8x5xf32>) outs(%[[ACC]] : tensor<1x1x8x5xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[Y:.*]] = tensor.collapse_shape %[[PROD]] {{\[}}[0], [1, 2], [3]] : tensor<1x1x8x5xf32> into tensor<1x8x5xf32>
// The bias is broadcast along the channel dimension.
// CHECK: %[[BB:.*]] = tensor.expand_shape %[[B]] {{.*}} into tensor<8x1xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME: ins(%[[Y]], %[[BB]] : tensor<1x8x5xf32>, tensor<8x1xf32>)
// CHECK: arith.addf

// In panels of 32: the 5 positions fill part of one zeroed panel
// [n, g, panels, K, 32]; the product runs over (n, g, m, panel, w, k) and
// its first 5 positions are the result.
// PANEL-LABEL: func.func @conv_as_matmul
// PANEL: %[[P:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4]] : tensor<1x1x4x2x5xf32> into tensor<1x1x8x5xf32>
// PANEL: %[[PK:.*]] = tensor.empty() : tensor<1x1x1x8x32xf32>
// PANEL: %[[TAIL:.*]] = tensor.extract_slice %[[PK]][0, 0, 0, 0, 0] [1, 1, 1, 8, 32]
// PANEL: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[TAIL]] : tensor<1x1x1x8x32xf32>)
// PANEL: tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 1, 8, 5]
// PANEL: tensor.extract_slice %[[Z]][0, 0, 0, 0, 0] [1, 1, 1, 8, 5]
// PANEL: linalg.generic
// PANEL-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d2, d3)>]
// PANEL: %[[PANELS:.*]] = tensor.insert_slice %{{.*}} into %[[PK]]
// PANEL: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x8x1x32xf32>)
// PANEL: %[[PROD:.*]] = linalg.generic
// PANEL-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>]
// PANEL-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]
// PANEL-SAME: ins(%{{.*}}, %[[PANELS]] : tensor<1x8x8xf32>, tensor<1x1x1x8x32xf32>)
// PANEL: %[[FLAT:.*]] = tensor.collapse_shape %[[PROD]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x1x8x1x32xf32> into tensor<1x1x8x32xf32>
// PANEL: tensor.extract_slice %[[FLAT]][0, 0, 0, 0] [1, 1, 8, 5] [1, 1, 1, 1] : tensor<1x1x8x32xf32> to tensor<1x1x8x5xf32>
// PANEL: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3]] : tensor<1x1x8x5xf32> into tensor<1x8x5xf32>
func.func @conv_as_matmul(%x: tensor<1x4x6xf32>, %w: tensor<8x4x2xf32>, %b: tensor<8xf32>) -> tensor<1x8x5xf32> {
  %0 = tile.conv %x, %w, %b strides = [1] dilations = [1] padding = [0, 0] : (tensor<1x4x6xf32>, tensor<8x4x2xf32>, tensor<8xf32>) -> tensor<1x8x5xf32>
  return %0 : tensor<1x8x5xf32>
}

// Groups split the channels; strides become slice steps.
// CHECK-LABEL: func.func @grouped_strided
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3]] output_shape [1, 2, 2, 7] : tensor<1x4x7xf32> into tensor<1x2x2x7xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 2, 2, 3] [1, 1, 1, 2] : tensor<1x2x2x7xf32> to tensor<1x2x2x3xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 1] [1, 2, 2, 3] [1, 1, 1, 2] : tensor<1x2x2x7xf32> to tensor<1x2x2x3xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<1x2x4x3xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3]] : tensor<1x2x3x3xf32> into tensor<1x6x3xf32>
func.func @grouped_strided(%x: tensor<1x4x7xf32>, %w: tensor<6x2x2xf32>) -> tensor<1x6x3xf32> {
  %0 = tile.conv %x, %w strides = [2] dilations = [1] padding = [0, 0] groups = 2 : (tensor<1x4x7xf32>, tensor<6x2x2xf32>) -> tensor<1x6x3xf32>
  return %0 : tensor<1x6x3xf32>
}

// A 1x1 unit-stride convolution's patches are its input, reshaped.
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2], [3, 4]] : tensor<1x1x4x5x5xf32> into tensor<1x1x4x25xf32>
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x8x4xf32>, tensor<1x1x4x25xf32>) outs(%{{.*}} : tensor<1x1x8x25xf32>)
// CHECK: return
func.func @pointwise(%x: tensor<1x4x5x5xf32>, %w: tensor<8x4x1x1xf32>) -> tensor<1x8x5x5xf32> {
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x4x5x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x5x5xf32>
  return %0 : tensor<1x8x5x5xf32>
}

// Padded 3-tap convolution of 40 positions in panels of 32: the patches are
// zero-filled (edge taps miss a position), then packed as one whole panel
// (transposing copy) and a zero-padded partial one of 8 positions.
// PANEL-LABEL: func.func @padded_two_panels
// PANEL-NOT: tensor.pad
// PANEL: %[[U:.*]] = tensor.empty() : tensor<1x1x4x3x40xf32>
// PANEL: %[[UZ:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[U]] : tensor<1x1x4x3x40xf32>)
// PANEL: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 4, 39] [1, 1, 1, 1]
// PANEL: tensor.extract_slice %[[UZ]][0, 0, 0, 0, 1] [1, 1, 4, 1, 39] [1, 1, 1, 1, 1]
// PANEL: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 4, 40] [1, 1, 1, 1]
// PANEL: tensor.extract_slice %{{.*}}[0, 0, 0, 1] [1, 1, 4, 39] [1, 1, 1, 1]
// PANEL: %[[M:.*]] = tensor.collapse_shape %{{.*}} : tensor<1x1x4x3x40xf32> into tensor<1x1x12x40xf32>
// PANEL: %[[PK:.*]] = tensor.empty() : tensor<1x1x2x12x32xf32>
// PANEL: %[[WHOLE:.*]] = tensor.extract_slice %[[M]][0, 0, 0, 0] [1, 1, 12, 32]
// PANEL: %[[SPLIT:.*]] = tensor.expand_shape %[[WHOLE]] {{.*}} into tensor<1x1x12x1x32xf32>
// PANEL: linalg.generic
// PANEL-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>]
// PANEL-SAME: ins(%[[SPLIT]] : tensor<1x1x12x1x32xf32>) outs(%{{.*}} : tensor<1x1x1x12x32xf32>)
// PANEL: tensor.extract_slice %{{.*}}[0, 0, 1, 0, 0] [1, 1, 1, 12, 32]
// PANEL: linalg.fill
// PANEL: tensor.extract_slice %[[M]][0, 0, 0, 32] [1, 1, 12, 8]
// PANEL: %[[PROD:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x12xf32>, tensor<1x1x2x12x32xf32>) outs(%{{.*}} : tensor<1x1x8x2x32xf32>)
// PANEL: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 8, 40] [1, 1, 1, 1] : tensor<1x1x8x64xf32> to tensor<1x1x8x40xf32>
func.func @padded_two_panels(%x: tensor<1x4x40xf32>, %w: tensor<8x4x3xf32>) -> tensor<1x8x40xf32> {
  %0 = tile.conv %x, %w strides = [1] dilations = [1] padding = [1, 1] : (tensor<1x4x40xf32>, tensor<8x4x3xf32>) -> tensor<1x8x40xf32>
  return %0 : tensor<1x8x40xf32>
}

// Depthwise (one channel per group) without panels: padded input, then one
// direct generic over (n, g, m, o_0, c, k_0, k_1, o_1) whose reductions come before the
// innermost output dimension; the input map carries stride and tap.
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK: } : tensor<1x4x6x6xf32> to tensor<1x4x7x7xf32>
// CHECK: %[[GX:.*]] = tensor.expand_shape %[[PAD]] {{.*}} into tensor<1x4x1x7x7xf32>
// CHECK: %[[GW:.*]] = tensor.expand_shape %{{.*}} into tensor<4x1x1x3x3xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d4, d3 * 2 + d5, d7 * 2 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d7)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]
// CHECK-SAME: ins(%[[GX]], %[[GW]] : tensor<1x4x1x7x7xf32>, tensor<4x1x1x3x3xf32>) outs(%{{.*}} : tensor<1x4x1x3x3xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] : tensor<1x4x1x3x3xf32> into tensor<1x4x3x3xf32>
// CHECK-NOT: tile.conv
// With panels, a stride of 2 along the innermost dimension splits the
// padded input (7 columns) into its even (4 columns) and odd (3 columns)
// phases once; each tap then reads a unit-stride slice of one phase: the
// tap at column 2 reads the even phase from column 1.
// PANEL-LABEL: func.func @depthwise
// PANEL: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 0, 0]
// PANEL: %[[EVEN:.*]] = linalg.generic
// PANEL-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3 * 2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// PANEL-SAME: ins(%[[PAD]] : tensor<1x4x7x7xf32>) outs(%{{.*}} : tensor<1x4x7x4xf32>)
// PANEL: tensor.extract_slice %[[EVEN]][0, 0, 0, 0] [1, 4, 3, 3] [1, 1, 2, 1]
// PANEL: %[[ODD:.*]] = linalg.generic
// PANEL-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3 * 2 + 1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// PANEL-SAME: ins(%[[PAD]] : tensor<1x4x7x7xf32>) outs(%{{.*}} : tensor<1x4x7x3xf32>)
// PANEL: tensor.extract_slice %[[ODD]][0, 0, 0, 0] [1, 4, 3, 3] [1, 1, 2, 1]
// PANEL: tensor.extract_slice %[[EVEN]][0, 0, 0, 1] [1, 4, 3, 3] [1, 1, 2, 1]
// PANEL: linalg.generic
// PANEL-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// PANEL-COUNT-8: arith.addf
// PANEL: } -> tensor<1x4x3x3xf32>
func.func @depthwise(%x: tensor<1x4x6x6xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = tile.conv %x, %w strides = [2, 2] dilations = [1, 1] padding = [1, 1, 0, 0] groups = 4 : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// A transposed convolution is a stride-1 convolution of the input with
// stride - 1 zeros inserted between elements (a strided insert_slice into a
// zero tensor), padded by dilation * (k - 1), with the filter transposed to
// [M, C/G, k] and flipped spatially (k - 1 - d3).
// CHECK-LABEL: func.func @conv_transpose_strided
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3xf32>, %[[W:.*]]: tensor<2x4x2xf32>)
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x5xf32>)
// CHECK: %[[D:.*]] = tensor.insert_slice %[[X]] into %[[Z]][0, 0, 0] [1, 2, 3] [1, 1, 2] : tensor<1x2x3xf32> into tensor<1x2x5xf32>
// CHECK: tensor.pad %[[D]] low[0, 0, 1] high[0, 0, 1]
// CHECK: } : tensor<1x2x5xf32> to tensor<1x2x7xf32>
// CHECK: %[[GW:.*]] = tensor.expand_shape %[[W]] {{\[}}[0, 1], [2], [3]] output_shape [1, 2, 4, 2]
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, -d3 + 1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME: ins(%[[GW]] : tensor<1x2x4x2xf32>) outs(%{{.*}} : tensor<1x4x2x2xf32>)
// CHECK: tensor.collapse_shape %{{.*}} : tensor<1x4x2x2xf32> into tensor<4x2x2xf32>
// The convolution itself is a product over two taps of the padded input.
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x4xf32>, tensor<1x1x4x6xf32>)
// CHECK: tensor.collapse_shape %{{.*}} into tensor<1x4x6xf32>
func.func @conv_transpose_strided(%x: tensor<1x2x3xf32>, %w: tensor<2x4x2xf32>) -> tensor<1x4x6xf32> {
  %0 = tile.conv_transpose %x, %w strides = [2] dilations = [1] padding = [0, 0] output_padding = [0] : (tensor<1x2x3xf32>, tensor<2x4x2xf32>) -> tensor<1x4x6xf32>
  return %0 : tensor<1x4x6xf32>
}

// With panels (the CPU pipeline), a depthwise convolution of unit
// innermost stride is one element-wise sum over its taps: each tap a
// strided slice of the padded input and a column of the filter.
// PANEL-LABEL: func.func @depthwise_taps
// PANEL: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// PANEL: tensor.extract_slice %[[PAD]][0, 0, 0, 0] [1, 4, 6, 6] [1, 1, 1, 1]
// PANEL: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [4, 1, 1, 1] [1, 1, 1, 1] : tensor<4x1x3x3xf32> to tensor<4x1x1x1xf32>
// PANEL: tensor.extract_slice %[[PAD]][0, 0, 2, 2] [1, 4, 6, 6] [1, 1, 1, 1]
// PANEL: linalg.generic
// PANEL-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// PANEL-COUNT-8: arith.addf
// PANEL: linalg.yield
// PANEL: } -> tensor<1x4x6x6xf32>
func.func @depthwise_taps(%x: tensor<1x4x6x6xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] groups = 4 : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}
