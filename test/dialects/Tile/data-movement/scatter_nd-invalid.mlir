// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_updates_shape(%x: tensor<4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) {
  // expected-error @+2 {{updates have shape 2x3, expected 2x4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.scatter_nd %x, %i, %u reduction = none : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @negative_tuple_too_long(%x: tensor<4xf32>, %i: tensor<2x2xi64>, %u: tensor<2xf32>) {
  // expected-error @+2 {{index tuples have length 2, expected 1 to 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.scatter_nd %x, %i, %u reduction = none : (tensor<4xf32>, tensor<2x2xi64>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_unknown_reduction(%x: tensor<4xf32>, %i: tensor<2x1xi64>, %u: tensor<2xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'reduction'}}
  %0 = tile.scatter_nd %x, %i, %u reduction = avg : (tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<4xf32>
  return
}
