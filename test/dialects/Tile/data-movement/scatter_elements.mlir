// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @accumulate
func.func @accumulate(%x: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // CHECK: tile.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} axis = 0 reduction = add : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %0 = tile.scatter_elements %x, %i, %u axis = 0 reduction = add : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// CHECK-LABEL: func @replace
func.func @replace(%x: tensor<1x5xi32>, %i: tensor<1x2xi32>, %u: tensor<1x2xi32>) -> tensor<1x5xi32> {
  // CHECK: tile.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} axis = 1 reduction = none
  %0 = tile.scatter_elements %x, %i, %u axis = 1 reduction = none : (tensor<1x5xi32>, tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<1x5xi32>
  return %0 : tensor<1x5xi32>
}
