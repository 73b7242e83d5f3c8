// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_rank(%x: tensor<4xf32>, %p: tensor<4xf32>) {
  // expected-error @+2 {{input must have rank 2 or more (N x C x ...)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.batch_norm %x, %p, %p, %p, %p epsilon = 1.0e-5 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_parameter_size(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %q: tensor<3xf32>) {
  // expected-error @+2 {{a parameter has 3 values, expected 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.batch_norm %x, %p, %p, %p, %q epsilon = 1.0e-5 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @negative_parameter_rank(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %q: tensor<1x4xf32>) {
  // expected-error @+2 {{a parameter must be a 1-D tensor}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.batch_norm %x, %q, %p, %p, %p epsilon = 1.0e-5 : (tensor<1x4x2x2xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @negative_epsilon(%x: tensor<1x4xf32>, %p: tensor<4xf32>) {
  // expected-error @+1 {{epsilon must be non-negative}}
  %0 = tile.batch_norm %x, %p, %p, %p, %p epsilon = -1.0e-5 : (tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return
}
