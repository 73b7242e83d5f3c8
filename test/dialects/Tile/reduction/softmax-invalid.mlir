// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_axis(%x: tensor<2x10xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = tile.softmax %x axis = 2 : tensor<2x10xf32>
  return
}

// -----

func.func @negative_integers(%x: tensor<2x10xi32>) {
  // expected-error @+1 {{needs a float element type, got 'i32'}}
  %0 = tile.log_softmax %x axis = 1 : tensor<2x10xi32>
  return
}

// -----

func.func @negative_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{axis 0 is out of range for rank 0}}
  %0 = tile.softmax %x axis = 0 : tensor<f32>
  return
}
