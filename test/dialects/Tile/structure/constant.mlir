// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @constants
func.func @constants() -> (tensor<2xi64>, tensor<f32>, tensor<2x2xf16>, tensor<3xi1>) {
  // CHECK: tile.constant dense<[1, -1]> : tensor<2xi64>
  %0 = tile.constant dense<[1, -1]> : tensor<2xi64>
  // CHECK: tile.constant dense<2.500000e+00> : tensor<f32>
  %1 = tile.constant dense<2.5> : tensor<f32>
  // CHECK: tile.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf16>
  %2 = tile.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  // CHECK: tile.constant dense<[true, false, true]> : tensor<3xi1>
  %3 = tile.constant dense<[true, false, true]> : tensor<3xi1>
  return %0, %1, %2, %3 : tensor<2xi64>, tensor<f32>, tensor<2x2xf16>, tensor<3xi1>
}
