// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @softmaxes
func.func @softmaxes(%x: tensor<2x?x1000xf32>) {
  // CHECK: tile.softmax %{{.*}} axis = 2 : tensor<2x?x1000xf32>
  %0 = tile.softmax %x axis = 2 : tensor<2x?x1000xf32>
  // CHECK: tile.log_softmax %{{.*}} axis = 0 : tensor<2x?x1000xf32>
  %1 = tile.log_softmax %x axis = 0 : tensor<2x?x1000xf32>
  return
}
