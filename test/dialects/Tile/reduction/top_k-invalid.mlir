// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_k_too_large(%x: tensor<2x10xf32>) {
  // expected-error @+2 {{k = 11 is out of range for a dimension of size 10}}
  // expected-error @+1 {{failed to infer returned types}}
  %v, %i = tile.top_k %x k = 11 axis = 1 : tensor<2x10xf32> -> tensor<2x11xf32>, tensor<2x11xi64>
  return
}

// -----

func.func @negative_axis(%x: tensor<2x10xf32>) {
  // expected-error @+2 {{axis 3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %v, %i = tile.top_k %x k = 1 axis = 3 : tensor<2x10xf32> -> tensor<2x1xf32>, tensor<2x1xi64>
  return
}

// -----

func.func @negative_values_type(%x: tensor<2x10xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<2x3xf32>', 'tensor<2x3xi64>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %v, %i = tile.top_k %x k = 3 axis = 1 : tensor<2x10xf32> -> tensor<2x3xf16>, tensor<2x3xi64>
  return
}
