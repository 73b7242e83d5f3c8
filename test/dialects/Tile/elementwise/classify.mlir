// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @classes
func.func @classes(%x: tensor<4x?xf32>) {
  // CHECK: tile.classify nan %{{.*}} : tensor<4x?xf32> -> tensor<4x?xi1>
  %0 = tile.classify nan %x : tensor<4x?xf32> -> tensor<4x?xi1>
  // CHECK: tile.classify neg_inf %{{.*}} : tensor<4x?xf32> -> tensor<4x?xi1>
  %1 = tile.classify neg_inf %x : tensor<4x?xf32> -> tensor<4x?xi1>
  return
}
