// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot reshape 6 elements (2x3) into 7}}
  %0 = tile.reshape %x : tensor<2x3xf32> -> tensor<7xf32>
  return
}

// -----

func.func @negative_inferred_dim_does_not_divide(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot reshape 6 elements (2x3) into ?x4}}
  %0 = tile.reshape %x : tensor<2x3xf32> -> tensor<?x4xf32>
  return
}

// -----

func.func @negative_two_dynamic(%x: tensor<?x6xf32>) {
  // expected-error @+1 {{result may have at most one dynamic dimension, got ?x?x2}}
  %0 = tile.reshape %x : tensor<?x6xf32> -> tensor<?x?x2xf32>
  return
}

// -----

func.func @negative_element_type(%x: tensor<6xf32>) {
  // expected-error @+1 {{changes the element type from 'f32' to 'i32'}}
  %0 = tile.reshape %x : tensor<6xf32> -> tensor<2x3xi32>
  return
}
