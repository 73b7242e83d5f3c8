// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_filter_channels(%x: tensor<1x16x8x8xf32>, %w: tensor<8x8x3x3xf32>) {
  // expected-error @+2 {{filter expects 8 input channels but input has 16}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv_transpose %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] output_padding = [0, 0] : (tensor<1x16x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x10x10xf32>
  return
}

// -----

func.func @negative_output_padding_count(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x3x3xf32>) {
  // expected-error @+2 {{output_padding has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv_transpose %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] output_padding = [0] : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<1x8x10x10xf32>
  return
}

// -----

func.func @negative_output_padding_too_large(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x3x3xf32>) {
  // expected-error @+2 {{output_padding 2 must be smaller than the stride or the dilation of spatial dimension 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv_transpose %x, %w strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] output_padding = [2, 0] : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<1x8x19x17xf32>
  return
}

// -----

func.func @negative_groups_divide_channels(%x: tensor<1x6x8x8xf32>, %w: tensor<6x8x3x3xf32>) {
  // expected-error @+2 {{input channels 6 are not divisible by groups 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv_transpose %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] output_padding = [0, 0] groups = 4 : (tensor<1x6x8x8xf32>, tensor<6x8x3x3xf32>) -> tensor<1x32x10x10xf32>
  return
}

// -----

func.func @negative_bias_size(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<16xf32>) {
  // expected-error @+2 {{bias has 16 values, expected 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv_transpose %x, %w, %b strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] output_padding = [0, 0] : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x8x10x10xf32>
  return
}

// -----

func.func @negative_padding_eats_output(%x: tensor<1x1x1x1xf32>, %w: tensor<1x1x1x1xf32>) {
  // expected-error @+2 {{spatial dimension 0 of the output would have size -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.conv_transpose %x, %w strides = [1, 1] dilations = [1, 1] padding = [1, 0, 1, 0] output_padding = [0, 0] : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return
}
