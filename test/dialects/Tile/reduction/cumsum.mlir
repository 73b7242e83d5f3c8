// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @cumsums
func.func @cumsums(%x: tensor<5xf32>, %y: tensor<2x?xi64>) {
  // CHECK: tile.cumsum %{{.*}} axis = 0 exclusive : tensor<5xf32>
  %0 = tile.cumsum %x axis = 0 exclusive : tensor<5xf32>
  // CHECK: tile.cumsum %{{.*}} axis = 1 exclusive reverse : tensor<2x?xi64>
  %1 = tile.cumsum %y axis = 1 exclusive reverse : tensor<2x?xi64>
  // CHECK: tile.cumsum %{{.*}} axis = 0 reverse : tensor<5xf32>
  %2 = tile.cumsum %x axis = 0 reverse : tensor<5xf32>
  return
}
