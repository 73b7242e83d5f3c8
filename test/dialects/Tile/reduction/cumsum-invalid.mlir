// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_axis(%x: tensor<5xf32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %0 = tile.cumsum %x axis = 1 : tensor<5xf32>
  return
}

// -----

func.func @negative_bools(%x: tensor<5xi1>) {
  // expected-error @+1 {{needs a numeric element type, got 'i1'}}
  %0 = tile.cumsum %x axis = 0 : tensor<5xi1>
  return
}
