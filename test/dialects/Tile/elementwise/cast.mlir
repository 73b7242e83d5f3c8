// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @casts
func.func @casts(%x: tensor<2x?xf32>, %i: tensor<4xui8>) {
  // CHECK: tile.cast %{{.*}} : tensor<2x?xf32> -> tensor<2x?xf16>
  %0 = tile.cast %x : tensor<2x?xf32> -> tensor<2x?xf16>
  // CHECK: tile.cast %{{.*}} : tensor<2x?xf32> -> tensor<2x?xi64>
  %1 = tile.cast %x : tensor<2x?xf32> -> tensor<2x?xi64>
  // CHECK: tile.cast %{{.*}} : tensor<4xui8> -> tensor<4xbf16>
  %2 = tile.cast %i : tensor<4xui8> -> tensor<4xbf16>
  // CHECK: tile.cast %{{.*}} : tensor<4xui8> -> tensor<4xi1>
  %3 = tile.cast %i : tensor<4xui8> -> tensor<4xi1>
  // CHECK: tile.cast %{{.*}} : tensor<2x?xf32> -> tensor<2x?xf8E4M3FN>
  %4 = tile.cast %x : tensor<2x?xf32> -> tensor<2x?xf8E4M3FN>
  return
}
