// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_shapes_differ(%x: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x2xf32>) {
  // expected-error @+2 {{indices (2x3) and updates (2x2) must have one shape of the rank of data}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.scatter_elements %x, %i, %u axis = 0 reduction = none : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x2xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @negative_update_type(%x: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf16>) {
  // expected-error @+2 {{updates have element type 'f16' but data has 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.scatter_elements %x, %i, %u axis = 0 reduction = none : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf16>) -> tensor<3x3xf32>
  return
}

// -----

func.func @negative_axis(%x: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.scatter_elements %x, %i, %u axis = 2 reduction = none : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}
