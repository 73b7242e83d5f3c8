// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_not_elements() {
  // expected-error @+1 {{Invalid attribute `value` in property conversion}}
  %0 = "tile.constant"() <{value = 1.0 : f32}> : () -> tensor<f32>
  return
}

// -----

func.func @negative_type_mismatch() {
  // expected-error @+1 {{failed to verify that all of {value, result} have same type}}
  %0 = "tile.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return
}
