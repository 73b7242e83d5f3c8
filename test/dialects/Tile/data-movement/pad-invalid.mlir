// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_padding_count(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{padding has 2 entries, expected 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.pad constant %x padding = [1, 1] : tensor<2x3xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @negative_negative_pad(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{padding entry -1 is less than 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.pad constant %x padding = [0, -1, 0, 0] : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @negative_value_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{padding value has type 'f16' but the elements are 'f32'}}
  %0 = tile.pad constant %x padding = [0, 1, 0, 1] value = 1.0 : f16 : tensor<2x3xf32> -> tensor<2x5xf32>
  return
}

// -----

func.func @negative_value_with_reflect(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{only 'constant' padding takes a value}}
  %0 = tile.pad reflect %x padding = [0, 1, 0, 1] value = 1.0 : f32 : tensor<2x3xf32> -> tensor<2x5xf32>
  return
}

// -----

func.func @negative_reflect_too_far(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'reflect' padding of dimension 1 is larger than its size 3 allows}}
  %0 = tile.pad reflect %x padding = [0, 3, 0, 0] : tensor<2x3xf32> -> tensor<2x6xf32>
  return
}

// -----

func.func @negative_edge_of_empty(%x: tensor<0x3xf32>) {
  // expected-error @+1 {{'edge' padding of dimension 0 is larger than its size 0 allows}}
  %0 = tile.pad edge %x padding = [1, 0, 0, 0] : tensor<0x3xf32> -> tensor<1x3xf32>
  return
}
