// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_rank(%x: tensor<3x4xf32>, %i: tensor<2xi64>) {
  // expected-error @+2 {{indices have rank 1 but data has rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.gather_elements %x, %i axis = 0 : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_axis(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+2 {{axis -1 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.gather_elements %x, %i axis = -1 : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return
}
