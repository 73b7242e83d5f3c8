// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @bias_relu
func.func @bias_relu(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // CHECK: %[[R:.*]] = tile.fusion (%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<8xf32>):
  // CHECK-NEXT: %[[S:.*]] = tile.binary add %[[A]], %[[C]]
  // CHECK-NEXT: %[[T:.*]] = tile.unary relu %[[S]]
  // CHECK-NEXT: tile.yield %[[T]] : tensor<4x8xf32>
  // CHECK-NEXT: }
  %r = tile.fusion (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %s = tile.binary add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %t = tile.unary relu %s : tensor<4x8xf32>
    tile.yield %t : tensor<4x8xf32>
  }
  // CHECK: return %[[R]]
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func @several_results_and_attributes
func.func @several_results_and_attributes(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xi1>) {
  // CHECK: tile.fusion (%{{.*}}) attributes {kernel = "k0"} : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xi1>)
  // CHECK: tile.yield %{{.*}}, %{{.*}} : tensor<16xf32>, tensor<16xi1>
  %r:2 = tile.fusion (%x) attributes {kernel = "k0"} : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xi1>) {
  ^bb0(%a: tensor<16xf32>):
    %e = tile.unary exp %a : tensor<16xf32>
    %n = tile.classify nan %e : tensor<16xf32> -> tensor<16xi1>
    tile.yield %e, %n : tensor<16xf32>, tensor<16xi1>
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xi1>
}

// CHECK-LABEL: func @no_inputs
func.func @no_inputs() -> tensor<2xf32> {
  // CHECK: tile.fusion () : () -> tensor<2xf32>
  %r = tile.fusion () : () -> tensor<2xf32> {
    %c = tile.constant dense<1.0> : tensor<2xf32>
    tile.yield %c : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
