// RUN: aicc-opt %s -tile-outline-weights | FileCheck %s

// CHECK-LABEL: func @two_weights
// CHECK-SAME: (%[[W1:.*]]: tensor<4xf32> {aicc.weight = "fc.weight", aicc.weight_value = dense<1.000000e+00> : tensor<4xf32>},
// CHECK-SAME:  %[[W2:.*]]: tensor<4xf32> {aicc.weight = "fc.bias", aicc.weight_value = dense<2.000000e+00> : tensor<4xf32>},
// CHECK-SAME:  %[[X:.*]]: tensor<4xf32> {onnx.name = "x"})
// CHECK-NOT: tile.weight
// CHECK: %[[M:.*]] = tile.binary mul %[[X]], %[[W1]]
// CHECK: tile.binary add %[[M]], %[[W2]]
func.func @two_weights(%x: tensor<4xf32> {onnx.name = "x"}) -> tensor<4xf32> {
  %w = tile.weight "fc.weight" = dense<1.0> : tensor<4xf32>
  %b = tile.weight "fc.bias" = dense<2.0> : tensor<4xf32>
  %m = tile.binary mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = tile.binary add %m, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func @no_weights
// CHECK-SAME: (%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func @no_weights(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
