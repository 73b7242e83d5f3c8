// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_not_divisible(%x: tensor<1x6x8xf32>, %s: tensor<6xf32>) {
  // expected-error @+2 {{channels 6 are not divisible by num_groups 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.group_norm %x, %s, %s num_groups = 4 epsilon = 1.0e-5 : (tensor<1x6x8xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x8xf32>
  return
}

// -----

func.func @negative_zero_groups(%x: tensor<1x6x8xf32>, %s: tensor<6xf32>) {
  // expected-error @+2 {{num_groups must be positive, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.group_norm %x, %s, %s num_groups = 0 epsilon = 1.0e-5 : (tensor<1x6x8xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x8xf32>
  return
}

// -----

func.func @negative_per_group_scale(%x: tensor<1x6x8xf32>, %s: tensor<2xf32>) {
  // expected-error @+2 {{a parameter has 2 values, expected 6}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.group_norm %x, %s, %s num_groups = 2 epsilon = 1.0e-5 : (tensor<1x6x8xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x6x8xf32>
  return
}
