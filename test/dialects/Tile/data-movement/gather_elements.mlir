// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @along_columns
func.func @along_columns(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  // CHECK: tile.gather_elements %{{.*}}, %{{.*}} axis = 1 : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  %0 = tile.gather_elements %x, %i axis = 1 : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
