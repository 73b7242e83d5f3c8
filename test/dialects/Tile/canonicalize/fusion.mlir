// RUN: aicc-opt %s -canonicalize -split-input-file | FileCheck %s

// A result that forwards an input reads the input; the input stays only if
// the body still uses it.
// CHECK-LABEL: func @forwarded_result
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = tile.fusion (%[[Y]]) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[E:.*]] = tile.unary exp %[[A]]
// CHECK-NEXT: tile.yield %[[E]]
// CHECK: return %[[X]], %[[R]]
func.func @forwarded_result(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = tile.fusion (%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %e = tile.unary exp %b : tensor<4xf32>
    tile.yield %a, %e : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @unused_result
// CHECK: %[[R:.*]] = tile.fusion (%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK: tile.yield %{{.*}} : tensor<4xf32>
// CHECK: return %[[R]]
func.func @unused_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = tile.fusion (%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %e = tile.unary exp %a : tensor<4xf32>
    %l = tile.unary log %a : tensor<4xf32>
    tile.yield %e, %l : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @unused_region
// CHECK-NEXT: return
func.func @unused_region(%x: tensor<4xf32>) {
  %r = tile.fusion (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = tile.unary exp %a : tensor<4xf32>
    tile.yield %e : tensor<4xf32>
  }
  return
}

// -----

// CHECK-LABEL: func @negative_minimal
// CHECK: tile.fusion (%{{.*}}, %{{.*}}) attributes {kernel = "k"}
func.func @negative_minimal(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = tile.fusion (%x, %y) attributes {kernel = "k"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %s = tile.binary add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    tile.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
