// RUN: aicc-opt %s -tile-inline-fusions -split-input-file | FileCheck %s

// CHECK-LABEL: func @one_region
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[S:.*]] = tile.binary add %[[X]], %[[B]]
// CHECK-NEXT: %[[T:.*]] = tile.unary relu %[[S]]
// CHECK-NEXT: %[[U:.*]] = tile.unary exp %[[T]]
// CHECK-NEXT: return %[[U]]
func.func @one_region(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = tile.fusion (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %s = tile.binary add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %t = tile.unary relu %s : tensor<4x8xf32>
    tile.yield %t : tensor<4x8xf32>
  }
  %u = tile.unary exp %r : tensor<4x8xf32>
  return %u : tensor<4x8xf32>
}

// -----

// Nested regions, several results, a result that forwards an argument.
// CHECK-LABEL: func @nested
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = tile.unary exp %[[X]]
// CHECK-NEXT: %[[L:.*]] = tile.unary log %[[E]]
// CHECK-NEXT: return %[[L]], %[[X]]
// CHECK-NOT: tile.fusion
// CHECK-NOT: tile.yield
func.func @nested(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = tile.fusion (%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %e = tile.unary exp %a : tensor<4xf32>
    %inner = tile.fusion (%e) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%b: tensor<4xf32>):
      %l = tile.unary log %b : tensor<4xf32>
      tile.yield %l : tensor<4xf32>
    }
    tile.yield %inner, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// IR without fusion regions is left as it is.
// CHECK-LABEL: func @negative_no_regions
// CHECK-NEXT: tile.unary exp
// CHECK-NEXT: return
func.func @negative_no_regions(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tile.unary exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A region whose results nobody reads is still dissolved, op by op.
// CHECK-LABEL: func @unused_results
// CHECK-NEXT: tile.constant
// CHECK-NEXT: return
func.func @unused_results() {
  %r = tile.fusion () : () -> tensor<2xf32> {
    %c = tile.constant dense<1.0> : tensor<2xf32>
    tile.yield %c : tensor<2xf32>
  }
  return
}
