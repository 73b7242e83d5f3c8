// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_incompatible(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{cannot broadcast 3x2 to 3x4}}
  %0 = tile.expand %x : tensor<3x2xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @negative_rank_shrinks(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{cannot broadcast rank 2 to the smaller rank 1}}
  %0 = tile.expand %x : tensor<1x3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @negative_element_type(%x: tensor<3xf32>) {
  // expected-error @+1 {{changes the element type from 'f32' to 'f16'}}
  %0 = tile.expand %x : tensor<3xf32> -> tensor<2x3xf16>
  return
}
