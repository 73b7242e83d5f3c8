// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_integer_input(%x: tensor<4xi32>) {
  // expected-error @+1 {{needs a float element type, got 'i32'}}
  %0 = tile.classify inf %x : tensor<4xi32> -> tensor<4xi1>
  return
}

// -----

func.func @negative_shape_changes(%x: tensor<4xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4xi1>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.classify nan %x : tensor<4xf32> -> tensor<2xi1>
  return
}
