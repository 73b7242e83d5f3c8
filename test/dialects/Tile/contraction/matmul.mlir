// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @plain
func.func @plain(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  // CHECK: tile.matmul %{{.*}}, %{{.*}} : (tensor<64x32xf16>, tensor<32x16xf16>) -> tensor<64x16xf16>
  %0 = tile.matmul %a, %b : (tensor<64x32xf16>, tensor<32x16xf16>) -> tensor<64x16xf16>
  return %0 : tensor<64x16xf16>
}

// CHECK-LABEL: func @transposes
func.func @transposes(%a: tensor<32x64xf32>, %b: tensor<16x32xf32>) -> tensor<64x16xf32> {
  // CHECK: tile.matmul %{{.*}}, %{{.*}} transpose_lhs transpose_rhs : (tensor<32x64xf32>, tensor<16x32xf32>) -> tensor<64x16xf32>
  %0 = tile.matmul %a, %b transpose_lhs transpose_rhs : (tensor<32x64xf32>, tensor<16x32xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// CHECK-LABEL: func @batch_broadcast
func.func @batch_broadcast(%a: tensor<8x1x64x32xf32>, %b: tensor<5x32x16xf32>) -> tensor<8x5x64x16xf32> {
  // CHECK: tile.matmul %{{.*}}, %{{.*}} : (tensor<8x1x64x32xf32>, tensor<5x32x16xf32>) -> tensor<8x5x64x16xf32>
  %0 = tile.matmul %a, %b : (tensor<8x1x64x32xf32>, tensor<5x32x16xf32>) -> tensor<8x5x64x16xf32>
  return %0 : tensor<8x5x64x16xf32>
}

// CHECK-LABEL: func @dynamic_batch_and_weights
func.func @dynamic_batch_and_weights(%x: tensor<?x128x768xf32>, %w: tensor<3072x768xf32>) -> tensor<?x128x3072xf32> {
  // CHECK: tile.matmul %{{.*}}, %{{.*}} transpose_rhs : (tensor<?x128x768xf32>, tensor<3072x768xf32>) -> tensor<?x128x3072xf32>
  %0 = tile.matmul %x, %w transpose_rhs : (tensor<?x128x768xf32>, tensor<3072x768xf32>) -> tensor<?x128x3072xf32>
  return %0 : tensor<?x128x3072xf32>
}

// Narrow integers of either signedness accumulate into i32.
// CHECK-LABEL: func @integer
func.func @integer(%a: tensor<4x8xui8>, %b: tensor<8x2xi8>, %c: tensor<4x8xi64>) {
  // CHECK: tile.matmul %{{.*}}, %{{.*}} : (tensor<4x8xui8>, tensor<8x2xi8>) -> tensor<4x2xi32>
  %0 = tile.matmul %a, %b : (tensor<4x8xui8>, tensor<8x2xi8>) -> tensor<4x2xi32>
  // CHECK: tile.matmul %{{.*}}, %{{.*}} transpose_rhs : (tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<4x4xi64>
  %1 = tile.matmul %c, %c transpose_rhs : (tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<4x4xi64>
  return
}
