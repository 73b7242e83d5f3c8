// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_counts(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{starts has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.slice %x starts = [0] sizes = [2, 2] steps = [1, 1] : tensor<4x8xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @negative_zero_step(%x: tensor<4xf32>) {
  // expected-error @+2 {{step of dimension 0 is zero}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.slice %x starts = [0] sizes = [2] steps = [0] : tensor<4xf32> -> tensor<2xf32>
  return
}

// -----

func.func @negative_reads_past_end(%x: tensor<4xf32>) {
  // expected-error @+2 {{dimension 0 reads positions 2 to 4 outside its size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.slice %x starts = [2] sizes = [3] steps = [1] : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @negative_reads_before_start(%x: tensor<4xf32>) {
  // expected-error @+2 {{dimension 0 reads positions 1 to -1 outside its size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.slice %x starts = [1] sizes = [3] steps = [-1] : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @negative_whole_dim_with_offset(%x: tensor<?xf32>) {
  // expected-error @+2 {{dimension 0 keeps its whole extent (size -1) so it needs start 0 and step 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.slice %x starts = [1] sizes = [-1] steps = [1] : tensor<?xf32> -> tensor<?xf32>
  return
}

// -----

func.func @negative_size_below_minus_one(%x: tensor<4xf32>) {
  // expected-error @+2 {{sizes entry -2 is less than -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.slice %x starts = [0] sizes = [-2] steps = [1] : tensor<4xf32> -> tensor<4xf32>
  return
}
