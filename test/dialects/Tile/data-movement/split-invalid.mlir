// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_sizes_sum(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{sizes add up to 7 but the dimension has size 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = tile.split %x axis = 1 sizes = [2, 5] : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x5xf32>
  return
}

// -----

func.func @negative_no_sizes(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{sizes must not be empty}}
  // expected-error @+1 {{failed to infer returned types}}
  "tile.split"(%x) <{axis = 1 : i64, sizes = array<i64>}> : (tensor<4x8xf32>) -> ()
  return
}

// -----

func.func @negative_result_count(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x4xf32>', 'tensor<4x4xf32>' are incompatible with return type(s) of operation 'tensor<4x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.split %x axis = 1 sizes = [4, 4] : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @negative_negative_size(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{sizes entry -1 is less than 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = tile.split %x axis = 1 sizes = [9, -1] : tensor<4x8xf32> -> tensor<4x9xf32>, tensor<4x?xf32>
  return
}
