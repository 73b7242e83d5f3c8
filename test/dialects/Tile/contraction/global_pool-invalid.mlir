// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_low_rank(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{input must have rank 3 or more}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.global_pool avg %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @negative_keeps_spatial_size(%x: tensor<1x8x4x4xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<1x8x1x1xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.global_pool avg %x : tensor<1x8x4x4xf32> -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @negative_p_on_avg(%x: tensor<1x8x4x4xf32>) {
  // expected-error @+1 {{only 'lp' pooling takes 'p'}}
  %0 = tile.global_pool avg %x {p = 2 : i64} : tensor<1x8x4x4xf32> -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @negative_lp_on_integers(%x: tensor<1x8x4x4xi8>) {
  // expected-error @+1 {{'lp' pooling does not take element type 'i8'}}
  %0 = tile.global_pool lp %x : tensor<1x8x4x4xi8> -> tensor<1x8x1x1xi8>
  return
}
