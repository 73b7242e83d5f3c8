// RUN: aicc-opt %s | aicc-opt | FileCheck %s

// CHECK-LABEL: func @round_trip
// CHECK: tile.matmul_int4 %arg0, %arg1, %arg2, %arg3 group_size 128 : (tensor<2x3x4096xf16>, tensor<64x2048xui8>, tensor<64x32xf16>, tensor<64x32xui8>) -> tensor<2x3x64xf16>
func.func @round_trip(%x: tensor<2x3x4096xf16>, %q: tensor<64x2048xui8>, %s: tensor<64x32xf16>, %z: tensor<64x32xui8>) -> tensor<2x3x64xf16> {
  %y = tile.matmul_int4 %x, %q, %s, %z group_size 128 : (tensor<2x3x4096xf16>, tensor<64x2048xui8>, tensor<64x32xf16>, tensor<64x32xui8>) -> tensor<2x3x64xf16>
  return %y : tensor<2x3x64xf16>
}
