// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @broadcasts
func.func @broadcasts(%x: tensor<3x1xf32>, %s: tensor<f16>, %d: tensor<1x?xi64>) {
  // CHECK: tile.expand %{{.*}} : tensor<3x1xf32> -> tensor<2x3x4xf32>
  %0 = tile.expand %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
  // CHECK: tile.expand %{{.*}} : tensor<f16> -> tensor<5x5xf16>
  %1 = tile.expand %s : tensor<f16> -> tensor<5x5xf16>
  // CHECK: tile.expand %{{.*}} : tensor<1x?xi64> -> tensor<?x?xi64>
  %2 = tile.expand %d : tensor<1x?xi64> -> tensor<?x?xi64>
  return
}
