// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_ordering_bools(%x: tensor<4xi1>) {
  // expected-error @+1 {{'gt' needs a numeric element type, got 'i1'}}
  %0 = tile.compare gt %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @negative_result_not_bool(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = tile.compare eq %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_not_broadcastable(%x: tensor<4xf32>, %y: tensor<5xf32>) {
  // expected-error @+2 {{operand shapes 4, 5 are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.compare eq %x, %y : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xi1>
  return
}
