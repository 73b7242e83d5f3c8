// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_tuple_too_long(%x: tensor<4x5xf32>, %i: tensor<3x3xi64>) {
  // expected-error @+2 {{index tuples have length 3, expected 1 to 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.gather_nd %x, %i batch_dims = 0 : (tensor<4x5xf32>, tensor<3x3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_dynamic_tuple(%x: tensor<4x5xf32>, %i: tensor<3x?xi64>) {
  // expected-error @+2 {{index tuples have length ?, expected 1 to 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.gather_nd %x, %i batch_dims = 0 : (tensor<4x5xf32>, tensor<3x?xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_batch_dims(%x: tensor<4x5xf32>, %i: tensor<4x1xi64>) {
  // expected-error @+2 {{batch_dims 2 must be less than the ranks of data and indices}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.gather_nd %x, %i batch_dims = 2 : (tensor<4x5xf32>, tensor<4x1xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_batch_sizes(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+2 {{batch dimensions of data and indices differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.gather_nd %x, %i batch_dims = 1 : (tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  return
}
