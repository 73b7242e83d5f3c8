// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_low_rank(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{input must have rank 3 or more (N x C x spatial...), got 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %x strides = [] dilations = [] padding = [] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @negative_filter_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+2 {{filter has rank 3 but input has rank 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_strides_count(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{strides has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_zero_dilation(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{dilations entry 0 is less than 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 0] padding = [0, 0, 0, 0] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_negative_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{padding entry -1 is less than 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, -1, 0, 0] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+2 {{groups must be positive, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 0 : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_channels_not_divisible(%x: tensor<1x6x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{input channels 6 are not divisible by groups 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 4 : (tensor<1x6x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_filter_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{filter expects 3 input channels (3 x 1 groups) but input has 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_output_channels_not_divisible(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+2 {{output channels 3 are not divisible by groups 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 2 : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return
}

// -----

func.func @negative_bias_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+2 {{bias has 5 values, expected 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w, %b strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_bias_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{bias element type must be 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w, %b strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_kernel_larger_than_input(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{spatial dimension 0 of the output would have size 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x3x2x2xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @negative_wrong_output_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<1x4x3x3xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv %x, %w strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return
}
