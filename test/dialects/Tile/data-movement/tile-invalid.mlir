// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_count(%x: tensor<3x4xf32>) {
  // expected-error @+2 {{repeats has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.tile %x repeats = [2] : tensor<3x4xf32> -> tensor<6x4xf32>
  return
}

// -----

func.func @negative_negative_repeat(%x: tensor<3x4xf32>) {
  // expected-error @+2 {{repeats entry -1 is less than 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.tile %x repeats = [1, -1] : tensor<3x4xf32> -> tensor<3x4xf32>
  return
}
