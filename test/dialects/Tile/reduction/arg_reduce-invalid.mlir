// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_axis(%x: tensor<4x10xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.arg_reduce max %x axis = 2 : tensor<4x10xf32> -> tensor<4xi64>
  return
}

// -----

func.func @negative_result_not_i64(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{result #0 must be ranked tensor of 64-bit signless integer values}}
  %0 = tile.arg_reduce max %x axis = 1 : tensor<4x10xf32> -> tensor<4xi32>
  return
}

// -----

func.func @negative_bools(%x: tensor<4x10xi1>) {
  // expected-error @+1 {{needs a numeric element type, got 'i1'}}
  %0 = tile.arg_reduce max %x axis = 1 : tensor<4x10xi1> -> tensor<4xi64>
  return
}
