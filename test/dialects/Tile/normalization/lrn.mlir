// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @alexnet
func.func @alexnet(%x: tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32> {
  // CHECK: tile.lrn %{{.*}} size = 5 alpha = 1.000000e-04 beta = 7.500000e-01 bias = 1.000000e+00 : tensor<1x64x8x8xf32>
  %0 = tile.lrn %x size = 5 alpha = 1.0e-4 beta = 0.75 bias = 1.0 : tensor<1x64x8x8xf32>
  return %0 : tensor<1x64x8x8xf32>
}
