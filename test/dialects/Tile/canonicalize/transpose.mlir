// RUN: aicc-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tile.transpose %x permutation = [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @compose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = tile.transpose %[[X]] permutation = [2, 1, 0] : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT: return %[[T]]
func.func @compose(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = tile.transpose %x permutation = [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = tile.transpose %0 permutation = [1, 0, 2] : tensor<3x4x2xf32> -> tensor<4x3x2xf32>
  return %1 : tensor<4x3x2xf32>
}

// -----

// A transpose undone by its inverse disappears.
// CHECK-LABEL: func @inverse_pair
// CHECK-SAME: (%[[X:.*]]: tensor<1x128x12x64xf32>)
// CHECK-NEXT: return %[[X]]
func.func @inverse_pair(%x: tensor<1x128x12x64xf32>) -> tensor<1x128x12x64xf32> {
  %0 = tile.transpose %x permutation = [0, 2, 1, 3] : tensor<1x128x12x64xf32> -> tensor<1x12x128x64xf32>
  %1 = tile.transpose %0 permutation = [0, 2, 1, 3] : tensor<1x12x128x64xf32> -> tensor<1x128x12x64xf32>
  return %1 : tensor<1x128x12x64xf32>
}

// -----

// The inner transpose keeps its other user.
// CHECK-LABEL: func @inner_has_other_uses
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[T:.*]] = tile.transpose %[[X]] permutation = [1, 0]
// CHECK-NEXT: return %[[T]], %[[X]]
func.func @inner_has_other_uses(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %0 = tile.transpose %x permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = tile.transpose %0 permutation = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<2x3xf32>
}
