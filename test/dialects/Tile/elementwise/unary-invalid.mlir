// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_float_kind_on_integers(%x: tensor<4xi32>) {
  // expected-error @+1 {{'exp' needs a float element type, got 'i32'}}
  %0 = tile.unary exp %x : tensor<4xi32>
  return
}

// -----

func.func @negative_numeric_kind_on_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'abs' needs a numeric element type, got 'i1'}}
  %0 = tile.unary abs %x : tensor<4xi1>
  return
}

// -----

func.func @negative_not_on_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'not' needs an i1 element type, got 'f32'}}
  %0 = tile.unary not %x : tensor<4xf32>
  return
}

// -----

func.func @negative_bitwise_not_on_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bitwise_not' needs an integer element type, got 'f32'}}
  %0 = tile.unary bitwise_not %x : tensor<4xf32>
  return
}

// -----

func.func @negative_missing_alpha(%x: tensor<4xf32>) {
  // expected-error @+1 {{'elu' requires 'alpha'}}
  %0 = tile.unary elu %x : tensor<4xf32>
  return
}

// -----

func.func @negative_unexpected_alpha(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tanh' takes no 'alpha'}}
  %0 = tile.unary tanh %x {alpha = 1.0 : f64} : tensor<4xf32>
  return
}

// -----

func.func @negative_missing_beta(%x: tensor<4xf32>) {
  // expected-error @+1 {{'selu' requires 'beta'}}
  %0 = tile.unary selu %x {alpha = 1.6 : f64} : tensor<4xf32>
  return
}

// -----

func.func @negative_unexpected_beta(%x: tensor<4xf32>) {
  // expected-error @+1 {{'celu' takes no 'beta'}}
  %0 = tile.unary celu %x {alpha = 1.0 : f64, beta = 1.0 : f64} : tensor<4xf32>
  return
}

// -----

func.func @negative_unknown_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind'}}
  %0 = tile.unary frobnicate %x : tensor<4xf32>
  return
}
