// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_empty_name() {
  // expected-error @+1 {{weight name must not be empty}}
  %0 = tile.weight "" = dense<0.5> : tensor<4xf32>
  return
}
