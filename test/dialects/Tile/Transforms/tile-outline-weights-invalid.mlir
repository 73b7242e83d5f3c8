// RUN: aicc-opt %s -split-input-file -tile-outline-weights -verify-diagnostics

// Weights become arguments of their function, so they must be defined in
// its entry block.
func.func @weight_in_branch(%c: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    // expected-error @+1 {{must be in the entry block of its function to be outlined}}
    %w = tile.weight "fc.weight" = dense<1.0> : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
