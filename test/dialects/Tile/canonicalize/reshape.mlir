// RUN: aicc-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tile.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = tile.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @chain(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = tile.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = tile.reshape %0 : tensor<24xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// A reshape chain that returns to the input's shape disappears.
// CHECK-LABEL: func @round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tile.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %1 = tile.reshape %0 : tensor<6xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @constant
// CHECK-NEXT: %[[C:.*]] = tile.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi64>
// CHECK-NEXT: return %[[C]]
func.func @constant() -> tensor<2x2xi64> {
  %c = tile.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %0 = tile.reshape %c : tensor<4xi64> -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// Weights are not folded into their users.
// CHECK-LABEL: func @negative_weight
// CHECK: tile.weight
// CHECK: tile.reshape
func.func @negative_weight() -> tensor<2x2xi64> {
  %c = tile.weight "w" = dense<[1, 2, 3, 4]> : tensor<4xi64>
  %0 = tile.reshape %c : tensor<4xi64> -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}
