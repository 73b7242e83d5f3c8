// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @float_kinds
func.func @float_kinds(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // CHECK: tile.unary exp %{{.*}} : tensor<4x?xf32>
  %0 = tile.unary exp %x : tensor<4x?xf32>
  // CHECK: tile.unary gelu_tanh %{{.*}} : tensor<4x?xf32>
  %1 = tile.unary gelu_tanh %0 : tensor<4x?xf32>
  // CHECK: tile.unary round %{{.*}} : tensor<4x?xf32>
  %2 = tile.unary round %1 : tensor<4x?xf32>
  return %2 : tensor<4x?xf32>
}

// CHECK-LABEL: func @numeric_kinds_on_integers
func.func @numeric_kinds_on_integers(%x: tensor<8xi32>) -> tensor<8xi32> {
  // CHECK: tile.unary abs %{{.*}} : tensor<8xi32>
  %0 = tile.unary abs %x : tensor<8xi32>
  // CHECK: tile.unary relu %{{.*}} : tensor<8xi32>
  %1 = tile.unary relu %0 : tensor<8xi32>
  // CHECK: tile.unary bitwise_not %{{.*}} : tensor<8xi32>
  %2 = tile.unary bitwise_not %1 : tensor<8xi32>
  return %2 : tensor<8xi32>
}

// CHECK-LABEL: func @parameterized
func.func @parameterized(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  // CHECK: tile.unary leaky_relu %{{.*}} {alpha = 1.000000e-01 : f64} : tensor<2x3xf16>
  %0 = tile.unary leaky_relu %x {alpha = 0.1 : f64} : tensor<2x3xf16>
  // CHECK: tile.unary hard_sigmoid %{{.*}} {alpha = 2.000000e-01 : f64, beta = 5.000000e-01 : f64} : tensor<2x3xf16>
  %1 = tile.unary hard_sigmoid %0 {alpha = 0.2 : f64, beta = 0.5 : f64} : tensor<2x3xf16>
  return %1 : tensor<2x3xf16>
}

// CHECK-LABEL: func @boolean_not
func.func @boolean_not(%x: tensor<i1>) -> tensor<i1> {
  // CHECK: tile.unary not %{{.*}} : tensor<i1>
  %0 = tile.unary not %x : tensor<i1>
  return %0 : tensor<i1>
}
