// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.transpose %x permutation = [0, 0] : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @negative_length(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.transpose %x permutation = [1, 0, 2] : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @negative_result_shape(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<3x2xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.transpose %x permutation = [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}
