// RUN: aicc-opt %s -tile-fold-qdq="float8=true" -split-input-file | FileCheck %s
// RUN: aicc-opt %s -tile-fold-qdq -split-input-file | FileCheck %s --check-prefix=OFF

// With float8, a product of two e4m3fn operands (the activation per
// tensor, the weights per column) multiplies the stored fp8 values, summed
// in f32, and scales the result once per column. Without it (targets with
// no fp8 matrix units) the product stays in float.
// CHECK-LABEL: func @fp8_per_column
// CHECK-SAME: (%[[A:.*]]: tensor<4x16xf8E4M3FN>, %[[W:.*]]: tensor<16x3xf8E4M3FN>)
// CHECK-DAG: %[[M:.*]] = tile.constant dense<[5.000000e-03, 0.00999999977, 1.500000e-02]> : tensor<3xf32>
// CHECK: %[[P:.*]] = tile.matmul %[[A]], %[[W]] : (tensor<4x16xf8E4M3FN>, tensor<16x3xf8E4M3FN>) -> tensor<4x3xf32>
// CHECK: %[[Y:.*]] = tile.binary mul %[[P]], %[[M]]
// CHECK: return %[[Y]]
// OFF-LABEL: func @fp8_per_column
// OFF: tile.matmul %{{.*}}, %{{.*}} : (tensor<4x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
func.func @fp8_per_column(%a: tensor<4x16xf8E4M3FN>, %w: tensor<16x3xf8E4M3FN>) -> tensor<4x3xf32> {
  %ad = tile.dequantize %a quant(#tile.quant<scales = dense<0.5> : tensor<f32>>) : tensor<4x16xf8E4M3FN> -> tensor<4x16xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<[0.01, 0.02, 0.03]> : tensor<3xf32>, axis = 1>) : tensor<16x3xf8E4M3FN> -> tensor<16x3xf32>
  %y = tile.matmul %ad, %wd : (tensor<4x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// Two fp8 types (e4m3fn by e5m2), or weights along rows: left in float.
// CHECK-LABEL: func @left_in_float
// CHECK-COUNT-2: tile.matmul %{{.*}}, %{{.*}} : (tensor<4x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
func.func @left_in_float(%a: tensor<4x16xf8E4M3FN>, %w: tensor<16x3xf8E5M2>, %v: tensor<16x3xf8E4M3FN>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %ad = tile.dequantize %a quant(#tile.quant<scales = dense<0.5> : tensor<f32>>) : tensor<4x16xf8E4M3FN> -> tensor<4x16xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<0.25> : tensor<f32>>) : tensor<16x3xf8E5M2> -> tensor<16x3xf32>
  %y = tile.matmul %ad, %wd : (tensor<4x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
  %vd = tile.dequantize %v quant(#tile.quant<scales = dense<[0.01, 0.02, 0.03, 0.04, 0.01, 0.02, 0.03, 0.04, 0.01, 0.02, 0.03, 0.04, 0.01, 0.02, 0.03, 0.04]> : tensor<16xf32>, axis = 0>) : tensor<16x3xf8E4M3FN> -> tensor<16x3xf32>
  %z = tile.matmul %ad, %vd : (tensor<4x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
  return %y, %z : tensor<4x3xf32>, tensor<4x3xf32>
}
