// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_rank(%x: tensor<64xf32>) {
  // expected-error @+1 {{input must have rank 2 or more (N x C x ...)}}
  %0 = tile.lrn %x size = 5 alpha = 1.0e-4 beta = 0.75 bias = 1.0 : tensor<64xf32>
  return
}

// -----

func.func @negative_size(%x: tensor<1x64xf32>) {
  // expected-error @+1 {{size must be positive, got 0}}
  %0 = tile.lrn %x size = 0 alpha = 1.0e-4 beta = 0.75 bias = 1.0 : tensor<1x64xf32>
  return
}

// -----

func.func @negative_integers(%x: tensor<1x64xi8>) {
  // expected-error @+1 {{needs a float element type, got 'i8'}}
  %0 = tile.lrn %x size = 3 alpha = 1.0e-4 beta = 0.75 bias = 1.0 : tensor<1x64xi8>
  return
}
