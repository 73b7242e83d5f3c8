// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_shape_changes(%x: tensor<4xf32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = tile.cast %x : tensor<4xf32> -> tensor<5xf16>
  return
}

// -----

func.func @negative_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = tile.cast %x : tensor<*xf32> -> tensor<4xf16>
  return
}
