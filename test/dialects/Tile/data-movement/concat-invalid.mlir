// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_no_inputs() {
  // expected-error @+2 {{needs at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.concat axis = 0 : () -> tensor<0xf32>
  return
}

// -----

func.func @negative_other_dim_differs(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+2 {{inputs differ in dimension 0 (2 vs 4) outside the concatenation axis}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.concat %a, %b axis = 1 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @negative_element_types(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+2 {{inputs must share rank and element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.concat %a, %b axis = 0 : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_axis(%a: tensor<2xf32>) {
  // expected-error @+2 {{axis 1 is out of range for rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.concat %a, %a axis = 1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}
