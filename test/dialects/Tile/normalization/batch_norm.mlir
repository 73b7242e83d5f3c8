// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @inference
func.func @inference(%x: tensor<?x64x8x8xf32>, %s: tensor<64xf32>, %b: tensor<64xf32>, %m: tensor<64xf32>, %v: tensor<64xf32>) -> tensor<?x64x8x8xf32> {
  // CHECK: tile.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} epsilon = 1.000000e-05 : (tensor<?x64x8x8xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x8x8xf32>
  %0 = tile.batch_norm %x, %s, %b, %m, %v epsilon = 1.0e-5 : (tensor<?x64x8x8xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x8x8xf32>
  return %0 : tensor<?x64x8x8xf32>
}

// CHECK-LABEL: func @rank_two
func.func @rank_two(%x: tensor<4x3xf16>, %p: tensor<3xf16>) -> tensor<4x3xf16> {
  // CHECK: tile.batch_norm
  %0 = tile.batch_norm %x, %p, %p, %p, %p epsilon = 0.0 : (tensor<4x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<4x3xf16>
  return %0 : tensor<4x3xf16>
}
