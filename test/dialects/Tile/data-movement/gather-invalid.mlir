// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_axis(%x: tensor<4x8xf32>, %i: tensor<2xi64>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.gather %x, %i axis = 2 : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<4x8xf32>
  return
}

// -----

func.func @negative_float_indices(%x: tensor<4x8xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of integer values}}
  %0 = tile.gather %x, %i axis = 0 : (tensor<4x8xf32>, tensor<2xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @negative_result_shape(%x: tensor<4x8xf32>, %i: tensor<2xi64>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x2xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.gather %x, %i axis = 1 : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<2x8xf32>
  return
}
