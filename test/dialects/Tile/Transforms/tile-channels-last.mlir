// RUN: aicc-opt %s -tile-channels-last -canonicalize -cse -split-input-file | FileCheck %s

// Two convolutions with 16 channels and a ReLU between: one transpose in
// (the image and the filter), one out; the ReLU runs channels last, and the
// transposes between the convolutions cancel. The per-channel bias is
// read as it is.

// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x8x8xf32>, %[[W1:.*]]: tensor<16x16x3x3xf32>, %[[W2:.*]]: tensor<32x16x1x1xf32>, %[[B:.*]]: tensor<32xf32>)
// CHECK-DAG: %[[XL:.*]] = tile.transpose %[[X]] permutation = [0, 2, 3, 1] : tensor<1x16x8x8xf32> -> tensor<1x8x8x16xf32>
// CHECK-DAG: %[[W1L:.*]] = tile.transpose %[[W1]] permutation = [0, 2, 3, 1] : tensor<16x16x3x3xf32> -> tensor<16x3x3x16xf32>
// CHECK: %[[C1:.*]] = tile.conv %[[XL]], %[[W1L]] {{.*}} channels_last : (tensor<1x8x8x16xf32>, tensor<16x3x3x16xf32>) -> tensor<1x8x8x16xf32>
// CHECK: %[[R:.*]] = tile.unary relu %[[C1]] : tensor<1x8x8x16xf32>
// A 1x1 filter's transpose moves only unit dimensions: a reshape.
// CHECK: %[[W2L:.*]] = tile.reshape %[[W2]] : tensor<32x16x1x1xf32> -> tensor<32x1x1x16xf32>
// CHECK: %[[C2:.*]] = tile.conv %[[R]], %[[W2L]], %[[B]] {{.*}} channels_last : (tensor<1x8x8x16xf32>, tensor<32x1x1x16xf32>, tensor<32xf32>) -> tensor<1x8x8x32xf32>
// CHECK: %[[Y:.*]] = tile.transpose %[[C2]] permutation = [0, 3, 1, 2] : tensor<1x8x8x32xf32> -> tensor<1x32x8x8xf32>
// CHECK-NOT: tile.transpose
// CHECK: return %[[Y]]
func.func @chain(%x: tensor<1x16x8x8xf32>, %w1: tensor<16x16x3x3xf32>, %w2: tensor<32x16x1x1xf32>, %b: tensor<32xf32>) -> tensor<1x32x8x8xf32> {
  %0 = tile.conv %x, %w1 strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %1 = tile.unary relu %0 : tensor<1x16x8x8xf32>
  %2 = tile.conv %1, %w2, %b strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x16x8x8xf32>, tensor<32x16x1x1xf32>, tensor<32xf32>) -> tensor<1x32x8x8xf32>
  return %2 : tensor<1x32x8x8xf32>
}

// -----

// What gains nothing stays: 2 channels (4 times the work padded to 8),
// 4 channels per group, a depthwise convolution over 4 groups.

// CHECK-LABEL: func @refused
// CHECK-NOT: tile.transpose
// CHECK-NOT: channels_last
func.func @refused(%x: tensor<1x2x8x8xf32>, %w: tensor<8x2x3x3xf32>, %g: tensor<8x4x1x1xf32>, %y: tensor<1x4x6x6xf32>, %d: tensor<4x1x3x3xf32>) -> (tensor<1x8x6x6xf32>, tensor<1x4x4x4xf32>) {
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x2x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = tile.conv %0, %g strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 2 : (tensor<1x8x6x6xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x6x6xf32>
  %2 = tile.conv %y, %d strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 4 : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %1, %2 : tensor<1x8x6x6xf32>, tensor<1x4x4x4xf32>
}

// -----

// An RGB image (3 channels, ResNet's 7x7 stem): image and filter get 5 zero
// channels, and the image's spatial padding joins them in one tile.pad, so
// that the convolution pads nothing itself. The max pool after the ReLU
// reads channels last too: the model's one transpose back is at its end.

// CHECK-LABEL: func @rgb_stem
// CHECK-DAG: %[[X:.*]] = tile.transpose %arg0 permutation = [0, 2, 3, 1] : tensor<2x3x16x16xf32> -> tensor<2x16x16x3xf32>
// CHECK-DAG: %[[W:.*]] = tile.transpose %arg1 permutation = [0, 2, 3, 1] : tensor<8x3x7x7xf32> -> tensor<8x7x7x3xf32>
// CHECK-DAG: %[[XP:.*]] = tile.pad constant %[[X]] padding = [0, 3, 3, 0, 0, 3, 3, 5] : tensor<2x16x16x3xf32> -> tensor<2x22x22x8xf32>
// CHECK-DAG: %[[WP:.*]] = tile.pad constant %[[W]] padding = [0, 0, 0, 0, 0, 0, 0, 5] : tensor<8x7x7x3xf32> -> tensor<8x7x7x8xf32>
// CHECK: %[[C:.*]] = tile.conv %[[XP]], %[[WP]] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] channels_last : (tensor<2x22x22x8xf32>, tensor<8x7x7x8xf32>) -> tensor<2x8x8x8xf32>
// CHECK: %[[R:.*]] = tile.unary relu %[[C]] : tensor<2x8x8x8xf32>
// CHECK: %[[P:.*]] = tile.pool max %[[R]] kernel = [3, 3] strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] channels_last : tensor<2x8x8x8xf32> -> tensor<2x4x4x8xf32>
// CHECK: %[[BACK:.*]] = tile.transpose %[[P]] permutation = [0, 3, 1, 2] : tensor<2x4x4x8xf32> -> tensor<2x8x4x4xf32>
// CHECK: return %[[BACK]]
func.func @rgb_stem(%x: tensor<2x3x16x16xf32>, %w: tensor<8x3x7x7xf32>) -> tensor<2x8x4x4xf32> {
  %0 = tile.conv %x, %w strides = [2, 2] dilations = [1, 1] padding = [3, 3, 3, 3] : (tensor<2x3x16x16xf32>, tensor<8x3x7x7xf32>) -> tensor<2x8x8x8xf32>
  %1 = tile.unary relu %0 : tensor<2x8x8x8xf32>
  %2 = tile.pool max %1 kernel = [3, 3] strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] : tensor<2x8x8x8xf32> -> tensor<2x8x4x4xf32>
  return %2 : tensor<2x8x4x4xf32>
}

// -----

// Element-wise ops: a per-channel operand [C, 1, 1] is reshaped to the
// result's rank and transposed, which moves only unit dimensions (one
// reshape); a scalar stays; an operand of the result's size that is not
// transposed back makes the op wait (here the model's input), so the
// transpose back stays before it.

// CHECK-LABEL: func @elementwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x4x4xf32>, %[[W:.*]]: tensor<8x8x1x1xf32>, %[[S:.*]]: tensor<8x1x1xf32>, %[[F:.*]]: tensor<f32>)
// CHECK: %[[C:.*]] = tile.conv {{.*}} channels_last
// CHECK: %[[SL:.*]] = tile.reshape %[[S]] : tensor<8x1x1xf32> -> tensor<1x1x1x8xf32>
// CHECK: %[[M:.*]] = tile.binary mul %[[C]], %[[SL]] : (tensor<1x4x4x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK: %[[MX:.*]] = tile.binary max %[[M]], %[[F]] : (tensor<1x4x4x8xf32>, tensor<f32>) -> tensor<1x4x4x8xf32>
// CHECK: %[[BACK:.*]] = tile.transpose %[[MX]] permutation = [0, 3, 1, 2]
// CHECK: %[[A:.*]] = tile.binary add %[[BACK]], %[[X]] : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK: %[[CF:.*]] = tile.cast %[[MX]] : tensor<1x4x4x8xf32> -> tensor<1x4x4x8xf16>
// CHECK: %[[CB:.*]] = tile.transpose %[[CF]] permutation = [0, 3, 1, 2] : tensor<1x4x4x8xf16> -> tensor<1x8x4x4xf16>
// CHECK: return %[[A]], %[[CB]]
func.func @elementwise(%x: tensor<1x8x4x4xf32>, %w: tensor<8x8x1x1xf32>, %s: tensor<8x1x1xf32>, %f: tensor<f32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf16>) {
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %1 = tile.binary mul %0, %s : (tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %2 = tile.binary max %1, %f : (tensor<1x8x4x4xf32>, tensor<f32>) -> tensor<1x8x4x4xf32>
  %3 = tile.binary add %2, %x : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %4 = tile.cast %2 : tensor<1x8x4x4xf32> -> tensor<1x8x4x4xf16>
  return %3, %4 : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf16>
}

// -----

// A global average pool (a mean over the spatial axes) runs channels last;
// what is left is [n, 1, 1, c], whose transpose back to [n, c, 1, 1] moves
// only unit dimensions: a reshape. Without keep_dims, [n, c] directly. A
// max pool runs channels last as well; its result is transposed back.

// CHECK-LABEL: func @reductions
// CHECK: %[[C:.*]] = tile.conv {{.*}} channels_last : {{.*}} -> tensor<2x4x4x16xf32>
// CHECK-DAG: %[[K:.*]] = tile.reduce mean %[[C]] axes = [1, 2] keep_dims : tensor<2x4x4x16xf32> -> tensor<2x1x1x16xf32>
// CHECK-DAG: %[[KR:.*]] = tile.reshape %[[K]] : tensor<2x1x1x16xf32> -> tensor<2x16x1x1xf32>
// CHECK-DAG: %[[D:.*]] = tile.reduce sum %[[C]] axes = [1, 2] : tensor<2x4x4x16xf32> -> tensor<2x16xf32>
// CHECK-DAG: %[[P:.*]] = tile.pool max %[[C]] kernel = [2, 2] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] channels_last : tensor<2x4x4x16xf32> -> tensor<2x2x2x16xf32>
// CHECK-DAG: tile.transpose %[[P]] permutation = [0, 3, 1, 2] : tensor<2x2x2x16xf32> -> tensor<2x16x2x2xf32>
func.func @reductions(%x: tensor<2x8x4x4xf32>, %w: tensor<16x8x1x1xf32>) -> (tensor<2x16x1x1xf32>, tensor<2x16xf32>, tensor<2x16x2x2xf32>) {
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<2x8x4x4xf32>, tensor<16x8x1x1xf32>) -> tensor<2x16x4x4xf32>
  %1 = tile.reduce mean %0 axes = [2, 3] keep_dims : tensor<2x16x4x4xf32> -> tensor<2x16x1x1xf32>
  %2 = tile.reduce sum %0 axes = [2, 3] : tensor<2x16x4x4xf32> -> tensor<2x16xf32>
  %3 = tile.pool max %0 kernel = [2, 2] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] : tensor<2x16x4x4xf32> -> tensor<2x16x2x2xf32>
  return %1, %2, %3 : tensor<2x16x1x1xf32>, tensor<2x16xf32>, tensor<2x16x2x2xf32>
}

// -----

// A depthwise convolution over 32 groups, and 1-d convolutions, go channels
// last too.

// CHECK-LABEL: func @depthwise_and_1d
// CHECK: tile.conv {{.*}} groups = 32 channels_last : (tensor<1x6x6x32xf32>, tensor<32x3x3x1xf32>) -> tensor<1x4x4x32xf32>
// CHECK: tile.conv {{.*}} channels_last : (tensor<1x10x8xf32>, tensor<16x3x8xf32>) -> tensor<1x8x16xf32>
func.func @depthwise_and_1d(%x: tensor<1x32x6x6xf32>, %w: tensor<32x1x3x3xf32>, %s: tensor<1x8x10xf32>, %k: tensor<16x8x3xf32>) -> (tensor<1x32x4x4xf32>, tensor<1x16x8xf32>) {
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 32 : (tensor<1x32x6x6xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x4x4xf32>
  %1 = tile.conv %s, %k strides = [1] dilations = [1] padding = [0, 0] : (tensor<1x8x10xf32>, tensor<16x8x3xf32>) -> tensor<1x16x8xf32>
  return %0, %1 : tensor<1x32x4x4xf32>, tensor<1x16x8xf32>
}
