// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_not_broadcastable(%x: tensor<4x8xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{operand shapes 4x8, 3 are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.binary add %x, %b : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @negative_element_types_differ(%x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+2 {{operand element types 'f32' and 'f16' differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.binary mul %x, %y : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_wrong_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x9xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.binary add %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x9xf32>
  return
}

// -----

func.func @negative_result_forgets_static_size(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{are incompatible with return type(s) of operation 'tensor<?x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.binary add %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
  return
}

// -----

func.func @negative_logical_on_integers(%x: tensor<4xi32>) {
  // expected-error @+1 {{'and' needs an i1 element type, got 'i32'}}
  %0 = tile.binary and %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @negative_bitwise_on_floats(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bitwise_or' needs an integer element type, got 'f32'}}
  %0 = tile.binary bitwise_or %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_arithmetic_on_bools(%x: tensor<4xi1>) {
  // expected-error @+1 {{'add' needs a numeric element type, got 'i1'}}
  %0 = tile.binary add %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}
