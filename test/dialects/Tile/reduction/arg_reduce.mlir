// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @arg_reductions
func.func @arg_reductions(%x: tensor<4x10xf32>, %y: tensor<?x3xi8>) {
  // CHECK: tile.arg_reduce max %{{.*}} axis = 1 : tensor<4x10xf32> -> tensor<4xi64>
  %0 = tile.arg_reduce max %x axis = 1 : tensor<4x10xf32> -> tensor<4xi64>
  // CHECK: tile.arg_reduce min %{{.*}} axis = 0 keep_dims select_last_index : tensor<?x3xi8> -> tensor<1x3xi64>
  %1 = tile.arg_reduce min %y axis = 0 keep_dims select_last_index : tensor<?x3xi8> -> tensor<1x3xi64>
  return
}
