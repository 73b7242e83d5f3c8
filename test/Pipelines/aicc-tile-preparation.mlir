// RUN: aicc-opt %s --aicc-tile-preparation | FileCheck %s

// Fusion regions are inlined, composite ops (softmax) decomposed into
// primitive ones, and the result folded: the add computed inside and
// outside the region is computed once.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT: tile.fusion
// CHECK-NOT: tile.softmax
// CHECK: %[[S:.*]] = tile.binary add %[[X]], %[[B]]
// CHECK-NEXT: %[[M:.*]] = tile.reduce max %[[S]] axes = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: %[[D:.*]] = tile.binary sub %[[S]], %[[M]]
// CHECK-NEXT: %[[E:.*]] = tile.unary exp %[[D]]
// CHECK-NEXT: %[[Z:.*]] = tile.reduce sum %[[E]] axes = [1] keep_dims
// CHECK-NEXT: %[[R:.*]] = tile.binary div %[[E]], %[[Z]]
// CHECK-NEXT: return %[[R]], %[[S]]
func.func @main(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %r = tile.fusion (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %s = tile.binary add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %t = tile.softmax %s axis = 1 : tensor<4x8xf32>
    tile.yield %t : tensor<4x8xf32>
  }
  %s2 = tile.binary add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %r, %s2 : tensor<4x8xf32>, tensor<4x8xf32>
}
