// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @embedding
func.func @embedding(%table: tensor<1000x64xf32>, %ids: tensor<2x8xi64>) -> tensor<2x8x64xf32> {
  // CHECK: tile.gather %{{.*}}, %{{.*}} axis = 0 : (tensor<1000x64xf32>, tensor<2x8xi64>) -> tensor<2x8x64xf32>
  %0 = tile.gather %table, %ids axis = 0 : (tensor<1000x64xf32>, tensor<2x8xi64>) -> tensor<2x8x64xf32>
  return %0 : tensor<2x8x64xf32>
}

// A scalar index removes the axis.
// CHECK-LABEL: func @scalar_index_middle_axis
func.func @scalar_index_middle_axis(%x: tensor<3x?x5xf16>, %i: tensor<i32>) -> tensor<3x5xf16> {
  // CHECK: tile.gather %{{.*}}, %{{.*}} axis = 1 : (tensor<3x?x5xf16>, tensor<i32>) -> tensor<3x5xf16>
  %0 = tile.gather %x, %i axis = 1 : (tensor<3x?x5xf16>, tensor<i32>) -> tensor<3x5xf16>
  return %0 : tensor<3x5xf16>
}
