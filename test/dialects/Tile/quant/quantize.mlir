// RUN: aicc-opt %s | aicc-opt | FileCheck %s

// CHECK-LABEL: func @per_tensor
// CHECK: tile.quantize %{{.*}} quant(#tile.quant<scales = dense<5.000000e-02> : tensor<f32>, zero_points = dense<128> : tensor<ui8>>) : tensor<4x8xf32> -> tensor<4x8xui8>
// CHECK: tile.dequantize %{{.*}} quant(#tile.quant<scales = dense<5.000000e-02> : tensor<f32>, zero_points = dense<128> : tensor<ui8>>) : tensor<4x8xui8> -> tensor<4x8xf32>
func.func @per_tensor(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %q = tile.quantize %x quant(#tile.quant<scales = dense<0.05> : tensor<f32>, zero_points = dense<128> : tensor<ui8>>) : tensor<4x8xf32> -> tensor<4x8xui8>
  %d = tile.dequantize %q quant(#tile.quant<scales = dense<0.05> : tensor<f32>, zero_points = dense<128> : tensor<ui8>>) : tensor<4x8xui8> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// CHECK-LABEL: func @per_axis
// CHECK: quant(#tile.quant<scales = dense<[1.000000e-01, 2.000000e-01]> : tensor<2xf32>, axis = 1>)
func.func @per_axis(%w: tensor<16x2xi8>) -> tensor<16x2xf16> {
  %d = tile.dequantize %w quant(#tile.quant<scales = dense<[0.1, 0.2]> : tensor<2xf32>, axis = 1>) : tensor<16x2xi8> -> tensor<16x2xf16>
  return %d : tensor<16x2xf16>
}

// Blocks of 32 along the last dimension: ceil(80 / 32) = 3 scales per row.
// CHECK-LABEL: func @per_block
// CHECK: quant(#tile.quant<scales = dense<{{.*}}> : tensor<2x3xf32>, zero_points = dense<8> : tensor<2x3xui4>, axis = 1, block_size = 32>)
func.func @per_block(%w: tensor<2x80xui4>) -> tensor<2x80xf32> {
  %d = tile.dequantize %w quant(#tile.quant<scales = dense<0.5> : tensor<2x3xf32>, zero_points = dense<8> : tensor<2x3xui4>, axis = 1, block_size = 32>) : tensor<2x80xui4> -> tensor<2x80xf32>
  return %d : tensor<2x80xf32>
}

// CHECK-LABEL: func @fp8
// CHECK: tile.quantize %{{.*}} : tensor<8xf32> -> tensor<8xf8E4M3FN>
// CHECK: tile.dequantize %{{.*}} : tensor<8xf8E4M3FN> -> tensor<8xf32>
func.func @fp8(%x: tensor<8xf32>) -> tensor<8xf32> {
  %q = tile.quantize %x quant(#tile.quant<scales = dense<2.0> : tensor<f32>>) : tensor<8xf32> -> tensor<8xf8E4M3FN>
  %d = tile.dequantize %q quant(#tile.quant<scales = dense<2.0> : tensor<f32>>) : tensor<8xf8E4M3FN> -> tensor<8xf32>
  return %d : tensor<8xf32>
}

// int32 biases dequantize too.
// CHECK-LABEL: func @int32_bias
// CHECK: tile.dequantize %{{.*}} : tensor<4xi32> -> tensor<4xf32>
func.func @int32_bias(%b: tensor<4xi32>) -> tensor<4xf32> {
  %d = tile.dequantize %b quant(#tile.quant<scales = dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>>) : tensor<4xi32> -> tensor<4xf32>
  return %d : tensor<4xf32>
}
