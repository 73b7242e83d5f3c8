// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_condition_not_bool(%c: tensor<4xi8>, %a: tensor<4xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = tile.select %c, %a, %a : (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_value_types_differ(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+2 {{operand element types 'f32' and 'i32' differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_condition_not_broadcastable(%c: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error @+2 {{operand shapes 3, 4 are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.select %c, %a, %a : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
