// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_rank(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+2 {{input must have rank 3 or more (N x C x ...)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.instance_norm %x, %s, %s epsilon = 1.0e-5 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_scale_size(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+2 {{a parameter has 4 values, expected 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.instance_norm %x, %s, %s epsilon = 1.0e-5 : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return
}
