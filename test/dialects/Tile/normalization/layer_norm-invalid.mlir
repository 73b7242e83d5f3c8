// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_axis(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.layer_norm %x, %g axis = 2 epsilon = 1.0e-5 : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @negative_scale_shape(%x: tensor<2x8xf32>, %g: tensor<7xf32>) {
  // expected-error @+2 {{parameter shape 7 does not broadcast to the normalized shape 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.layer_norm %x, %g axis = 1 epsilon = 1.0e-5 : (tensor<2x8xf32>, tensor<7xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @negative_scale_rank(%x: tensor<2x8xf32>, %g: tensor<2x8xf32>) {
  // expected-error @+2 {{parameter shape 2x8 does not broadcast to the normalized shape 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.layer_norm %x, %g axis = 1 epsilon = 1.0e-5 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @negative_parameter_type(%x: tensor<2x8xf32>, %g: tensor<8xf16>) {
  // expected-error @+2 {{parameters must have the input's element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.layer_norm %x, %g axis = 1 epsilon = 1.0e-5 : (tensor<2x8xf32>, tensor<8xf16>) -> tensor<2x8xf32>
  return
}

// -----

func.func @negative_integers(%x: tensor<2x8xi32>, %g: tensor<8xi32>) {
  // expected-error @+2 {{needs a float element type, got 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.layer_norm %x, %g axis = 1 epsilon = 1.0e-5 : (tensor<2x8xi32>, tensor<8xi32>) -> tensor<2x8xi32>
  return
}

// -----

func.func @negative_epsilon(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{epsilon must be non-negative, got -1.000000e+00}}
  %0 = tile.layer_norm %x, %g axis = 1 epsilon = -1.0 : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}
