// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @static_and_dynamic
func.func @static_and_dynamic(%a: tensor<2x3xf32>, %b: tensor<2x?xf32>, %c: tensor<?x5xf32>) {
  // CHECK: tile.concat %{{.*}}, %{{.*}} axis = 1 : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = tile.concat %a, %b axis = 1 : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: tile.concat %{{.*}}, %{{.*}} axis = 1 : (tensor<2x3xf32>, tensor<?x5xf32>) -> tensor<2x8xf32>
  %1 = tile.concat %a, %c axis = 1 : (tensor<2x3xf32>, tensor<?x5xf32>) -> tensor<2x8xf32>
  // CHECK: tile.concat %{{.*}}, %{{.*}}, %{{.*}} axis = 0 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<6x3xf32>
  %2 = tile.concat %a, %a, %a axis = 0 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<6x3xf32>
  return
}
