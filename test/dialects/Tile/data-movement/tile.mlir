// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @repeats
func.func @repeats(%x: tensor<3x4xf32>, %d: tensor<?x2xi32>) {
  // CHECK: tile.tile %{{.*}} repeats = [2, 1] : tensor<3x4xf32> -> tensor<6x4xf32>
  %0 = tile.tile %x repeats = [2, 1] : tensor<3x4xf32> -> tensor<6x4xf32>
  // CHECK: tile.tile %{{.*}} repeats = [3, 0] : tensor<?x2xi32> -> tensor<?x0xi32>
  %1 = tile.tile %d repeats = [3, 0] : tensor<?x2xi32> -> tensor<?x0xi32>
  return
}
