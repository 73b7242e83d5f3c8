// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_empty_axes(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{axes must not be empty}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.reduce sum %x axes = [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @negative_axis_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.reduce max %x axes = [2] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @negative_negative_axis(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{axis -1 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.reduce max %x axes = [-1] : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @negative_axes_not_ascending(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{axes must be distinct and ascending}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.reduce min %x axes = [1, 0] : tensor<4x8xf32> -> tensor<f32>
  return
}

// -----

func.func @negative_wrong_keep_dims_shape(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @negative_l2_on_integers(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'l2' needs a float element type, got 'i32'}}
  %0 = tile.reduce l2 %x axes = [1] : tensor<4x8xi32> -> tensor<4xi32>
  return
}

// -----

func.func @negative_sum_on_bools(%x: tensor<4x8xi1>) {
  // expected-error @+1 {{'sum' needs a numeric element type, got 'i1'}}
  %0 = tile.reduce sum %x axes = [1] : tensor<4x8xi1> -> tensor<4xi1>
  return
}
