// RUN: aicc-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @whole_slice
// CHECK-SAME: (%[[X:.*]]: tensor<4x?xf32>)
// CHECK-NEXT: return %[[X]]
func.func @whole_slice(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %0 = tile.slice %x starts = [0, 0] sizes = [4, -1] steps = [1, 1] : tensor<4x?xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// CHECK-LABEL: func @negative_reversed_slice
// CHECK: tile.slice
func.func @negative_reversed_slice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tile.slice %x starts = [3] sizes = [4] steps = [-1] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @single_concat
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @single_concat(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tile.concat %x axis = 0 : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @zero_pad
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @zero_pad(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tile.pad reflect %x padding = [0, 0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @unit_tile
// CHECK-SAME: (%[[X:.*]]: tensor<2x?xf32>)
// CHECK-NEXT: return %[[X]]
func.func @unit_tile(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = tile.tile %x repeats = [1, 1] : tensor<2x?xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// CHECK-LABEL: func @same_shape_expand
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @same_shape_expand(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tile.expand %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @splat_expand
// CHECK-NEXT: %[[C:.*]] = tile.constant dense<1.500000e+00> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @splat_expand() -> tensor<2x3xf32> {
  %c = tile.constant dense<1.5> : tensor<f32>
  %0 = tile.expand %c : tensor<f32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Identical constants merge; unused pure ops disappear.
// CHECK-LABEL: func @cse_and_dce
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = tile.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = tile.binary add %[[X]], %[[C]]
// CHECK-NEXT: %[[T:.*]] = tile.binary sub %[[X]], %[[C]]
// CHECK-NEXT: return %[[S]], %[[T]]
func.func @cse_and_dce(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = tile.constant dense<2.0> : tensor<4xf32>
  %b = tile.constant dense<2.0> : tensor<4xf32>
  %dead = tile.unary exp %x : tensor<4xf32>
  %s = tile.binary add %x, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = tile.binary sub %x, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s, %t : tensor<4xf32>, tensor<4xf32>
}

// -----

// A uniform condition picks an operand of the result type.
// CHECK-LABEL: func @uniform_select
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[B]]
func.func @uniform_select(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = tile.constant dense<false> : tensor<4xi1>
  %s = tile.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Picking the operand would lose the broadcast, so the select stays.
// CHECK-LABEL: func @negative_uniform_select_broadcasts
// CHECK: tile.select
func.func @negative_uniform_select_broadcasts(%a: tensor<4xf32>, %b: tensor<f32>) -> tensor<4xf32> {
  %c = tile.constant dense<false> : tensor<4xi1>
  %s = tile.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
