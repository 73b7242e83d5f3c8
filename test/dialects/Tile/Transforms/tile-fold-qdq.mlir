// RUN: aicc-opt %s -tile-fold-qdq -split-input-file | FileCheck %s

// Symmetric per-column weights, an asymmetric activation: the product of
// the stored values, minus the activation's zero point times the weights'
// column sums, scaled per column.
// CHECK-LABEL: func @matmul_per_column
// CHECK-SAME: (%[[A:.*]]: tensor<4x16xui8>, %[[W:.*]]: tensor<16x3xi8>)
// CHECK-DAG: %[[M:.*]] = tile.constant dense<[5.000000e-03, 0.00999999977, 1.500000e-02]> : tensor<3xf32>
// CHECK-DAG: %[[ZA:.*]] = tile.constant dense<128> : tensor<i32>
// CHECK: %[[P:.*]] = tile.matmul %[[A]], %[[W]] : (tensor<4x16xui8>, tensor<16x3xi8>) -> tensor<4x3xi32>
// CHECK: %[[WW:.*]] = tile.cast %[[W]] : tensor<16x3xi8> -> tensor<16x3xi32>
// CHECK: %[[CS:.*]] = tile.reduce sum %[[WW]] axes = [0] : tensor<16x3xi32> -> tensor<3xi32>
// CHECK: %[[CSR:.*]] = tile.reshape %[[CS]] : tensor<3xi32> -> tensor<1x3xi32>
// CHECK: %[[T:.*]] = tile.binary mul %[[CSR]], %[[ZA]]
// CHECK: %[[ACC:.*]] = tile.binary sub %[[P]], %[[T]]
// CHECK: %[[F:.*]] = tile.cast %[[ACC]] : tensor<4x3xi32> -> tensor<4x3xf32>
// CHECK: %[[Y:.*]] = tile.binary mul %[[F]], %[[M]]
// CHECK: return %[[Y]]
func.func @matmul_per_column(%a: tensor<4x16xui8>, %w: tensor<16x3xi8>) -> tensor<4x3xf32> {
  %ad = tile.dequantize %a quant(#tile.quant<scales = dense<0.5> : tensor<f32>, zero_points = dense<128> : tensor<ui8>>) : tensor<4x16xui8> -> tensor<4x16xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<[0.01, 0.02, 0.03]> : tensor<3xf32>, axis = 1>) : tensor<16x3xi8> -> tensor<16x3xf32>
  %y = tile.matmul %ad, %wd : (tensor<4x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// Asymmetric weights (Gemm's transposed layout): the activation's row sums
// times the weights' zero points, and the constant K * za * zw. The signed
// activation is first shifted to unsigned (+128, its zero point -2 becoming
// 126): unsigned by signed bytes is the CPUs' dot-product form.
// CHECK-LABEL: func @matmul_asymmetric_weights
// CHECK-SAME: (%[[A:.*]]: tensor<2x8xi8>, %[[W:.*]]: tensor<4x8xi8>)
// CHECK-DAG: %[[K:.*]] = tile.constant dense<3024> : tensor<i32>
// CHECK-DAG: %[[ZA:.*]] = tile.constant dense<126> : tensor<i32>
// CHECK-DAG: %[[ZW:.*]] = tile.constant dense<3> : tensor<i32>
// CHECK-DAG: %[[C128:.*]] = tile.constant dense<128> : tensor<i32>
// CHECK: %[[AI:.*]] = tile.cast %[[A]] : tensor<2x8xi8> -> tensor<2x8xi32>
// CHECK: %[[AS:.*]] = tile.binary add %[[AI]], %[[C128]]
// CHECK: %[[AU:.*]] = tile.cast %[[AS]] : tensor<2x8xi32> -> tensor<2x8xui8>
// CHECK: %[[P:.*]] = tile.matmul %[[AU]], %[[W]] transpose_rhs : (tensor<2x8xui8>, tensor<4x8xi8>) -> tensor<2x4xi32>
// CHECK: %[[AW:.*]] = tile.cast %[[AU]] : tensor<2x8xui8> -> tensor<2x8xi32>
// CHECK: %[[RS:.*]] = tile.reduce sum %[[AW]] axes = [1] keep_dims : tensor<2x8xi32> -> tensor<2x1xi32>
// CHECK: %[[T1:.*]] = tile.binary mul %[[RS]], %[[ZW]]
// CHECK: %[[ACC1:.*]] = tile.binary sub %[[P]], %[[T1]]
// CHECK: %[[CS:.*]] = tile.reduce sum %{{.*}} axes = [1] : tensor<4x8xi32> -> tensor<4xi32>
// CHECK: %[[CSR:.*]] = tile.reshape %[[CS]] : tensor<4xi32> -> tensor<1x4xi32>
// CHECK: %[[T2:.*]] = tile.binary mul %[[CSR]], %[[ZA]]
// CHECK: %[[ACC2:.*]] = tile.binary sub %[[ACC1]], %[[T2]]
// CHECK: %[[ACC3:.*]] = tile.binary add %[[ACC2]], %[[K]]
// CHECK: tile.cast %[[ACC3]] : tensor<2x4xi32> -> tensor<2x4xf32>
func.func @matmul_asymmetric_weights(%a: tensor<2x8xi8>, %w: tensor<4x8xi8>) -> tensor<2x4xf32> {
  %ad = tile.dequantize %a quant(#tile.quant<scales = dense<0.1> : tensor<f32>, zero_points = dense<-2> : tensor<i8>>) : tensor<2x8xi8> -> tensor<2x8xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<0.2> : tensor<f32>, zero_points = dense<3> : tensor<i8>>) : tensor<4x8xi8> -> tensor<4x8xf32>
  %y = tile.matmul %ad, %wd transpose_rhs : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// A padded convolution of an asymmetric input: the stored input is padded
// with its zero point, and the zero point times each filter's sum comes off.
// CHECK-LABEL: func @conv_padded
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x5x5xui8>, %[[W:.*]]: tensor<3x2x3x3xi8>, %[[B:.*]]: tensor<3xf32>)
// CHECK-DAG: %[[M:.*]] = tile.constant dense<{{\[\[\[}}0.0100000007]], {{\[\[}}0.0200000014]], {{\[\[}}0.0300000012]]]> : tensor<3x1x1xf32>
// CHECK-DAG: %[[ZX:.*]] = tile.constant dense<7> : tensor<i32>
// CHECK: %[[P:.*]] = tile.pad constant %[[X]] padding = [0, 0, 1, 1, 0, 0, 1, 1] value = 7 : ui8 : tensor<1x2x5x5xui8> -> tensor<1x2x7x7xui8>
// CHECK: %[[C:.*]] = tile.conv %[[P]], %[[W]] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : (tensor<1x2x7x7xui8>, tensor<3x2x3x3xi8>) -> tensor<1x3x5x5xi32>
// CHECK: %[[S:.*]] = tile.reduce sum %{{.*}} axes = [1, 2, 3] : tensor<3x2x3x3xi32> -> tensor<3xi32>
// CHECK: %[[SR:.*]] = tile.reshape %[[S]] : tensor<3xi32> -> tensor<3x1x1xi32>
// CHECK: %[[T:.*]] = tile.binary mul %[[SR]], %[[ZX]]
// CHECK: %[[ACC:.*]] = tile.binary sub %[[C]], %[[T]]
// CHECK: %[[F:.*]] = tile.cast %[[ACC]] : tensor<1x3x5x5xi32> -> tensor<1x3x5x5xf32>
// CHECK: %[[Y:.*]] = tile.binary mul %[[F]], %[[M]]
// CHECK: %[[BR:.*]] = tile.reshape %[[B]] : tensor<3xf32> -> tensor<3x1x1xf32>
// CHECK: tile.binary add %[[Y]], %[[BR]]
func.func @conv_padded(%x: tensor<1x2x5x5xui8>, %w: tensor<3x2x3x3xi8>, %b: tensor<3xf32>) -> tensor<1x3x5x5xf32> {
  %xd = tile.dequantize %x quant(#tile.quant<scales = dense<0.1> : tensor<f32>, zero_points = dense<7> : tensor<ui8>>) : tensor<1x2x5x5xui8> -> tensor<1x2x5x5xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<[0.1, 0.2, 0.3]> : tensor<3xf32>, zero_points = dense<0> : tensor<3xi8>>) : tensor<3x2x3x3xi8> -> tensor<3x2x3x3xf32>
  %y = tile.conv %xd, %wd, %b strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// -----

// Blocked (4-bit) weights have no integer product here: the float form stays.
// CHECK-LABEL: func @negative_blocked_weights
// CHECK: tile.dequantize
// CHECK: tile.dequantize
// CHECK: tile.matmul %{{.*}}, %{{.*}} : (tensor<2x64xf32>, tensor<64x4xf32>) -> tensor<2x4xf32>
func.func @negative_blocked_weights(%a: tensor<2x64xi8>, %w: tensor<64x4xi4>) -> tensor<2x4xf32> {
  %ad = tile.dequantize %a quant(#tile.quant<scales = dense<0.1> : tensor<f32>>) : tensor<2x64xi8> -> tensor<2x64xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<0.5> : tensor<2x4xf32>, axis = 0, block_size = 32>) : tensor<64x4xi4> -> tensor<64x4xf32>
  %y = tile.matmul %ad, %wd : (tensor<2x64xf32>, tensor<64x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// Asymmetric convolution filters keep the float form.
// CHECK-LABEL: func @negative_asymmetric_filter
// CHECK: tile.conv %{{.*}}, %{{.*}} strides = [1] dilations = [1] padding = [0, 0] : (tensor<1x2x8xf32>, tensor<3x2x3xf32>) -> tensor<1x3x6xf32>
func.func @negative_asymmetric_filter(%x: tensor<1x2x8xi8>, %w: tensor<3x2x3xi8>) -> tensor<1x3x6xf32> {
  %xd = tile.dequantize %x quant(#tile.quant<scales = dense<0.1> : tensor<f32>>) : tensor<1x2x8xi8> -> tensor<1x2x8xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<0.1> : tensor<f32>, zero_points = dense<1> : tensor<i8>>) : tensor<3x2x3xi8> -> tensor<3x2x3xf32>
  %y = tile.conv %xd, %wd strides = [1] dilations = [1] padding = [0, 0] : (tensor<1x2x8xf32>, tensor<3x2x3xf32>) -> tensor<1x3x6xf32>
  return %y : tensor<1x3x6xf32>
}

// -----

// Weights quantized per row (along the depth) cannot leave the sum.
// CHECK-LABEL: func @negative_per_depth
// CHECK: tile.matmul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @negative_per_depth(%a: tensor<2x3xi8>, %w: tensor<3x4xi8>) -> tensor<2x4xf32> {
  %ad = tile.dequantize %a quant(#tile.quant<scales = dense<0.1> : tensor<f32>>) : tensor<2x3xi8> -> tensor<2x3xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<[0.1, 0.2, 0.3]> : tensor<3xf32>, axis = 0>) : tensor<3x4xi8> -> tensor<3x4xf32>
  %y = tile.matmul %ad, %wd : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// Weights known at compile time: their column sums are computed here.
// Columns of [[1, -2], [3, 4]] sum to [4, 2]; times the zero point 10.
// CHECK-LABEL: func @matmul_constant_weights
// CHECK-DAG: %[[T:.*]] = tile.constant dense<[40, 20]> : tensor<2xi32>
// CHECK-DAG: %[[W:.*]] = tile.weight "w" = dense<{{\[\[}}1, -2], [3, 4]]> : tensor<2x2xi8>
// CHECK: %[[P:.*]] = tile.matmul %{{.*}}, %[[W]] : (tensor<1x2xui8>, tensor<2x2xi8>) -> tensor<1x2xi32>
// CHECK-NOT: tile.reduce
// CHECK: tile.binary sub %[[P]], %[[T]]
func.func @matmul_constant_weights(%a: tensor<1x2xui8>) -> tensor<1x2xf32> {
  %w = tile.weight "w" = dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>
  %ad = tile.dequantize %a quant(#tile.quant<scales = dense<0.5> : tensor<f32>, zero_points = dense<10> : tensor<ui8>>) : tensor<1x2xui8> -> tensor<1x2xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<0.25> : tensor<f32>>) : tensor<2x2xi8> -> tensor<2x2xf32>
  %y = tile.matmul %ad, %wd : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

// A reshape between the dequantized activation and the product moves the
// stored values; the product then folds.
// CHECK-LABEL: func @reshape_between
// CHECK-SAME: (%[[A:.*]]: tensor<2x2x4xi8>, %[[W:.*]]: tensor<8x3xi8>)
// CHECK: %[[R:.*]] = tile.reshape %[[A]] : tensor<2x2x4xi8> -> tensor<2x8xi8>
// CHECK: %[[U:.*]] = tile.cast %{{.*}} : tensor<2x8xi32> -> tensor<2x8xui8>
// CHECK: tile.matmul %[[U]], %[[W]] : (tensor<2x8xui8>, tensor<8x3xi8>) -> tensor<2x3xi32>
// CHECK-NOT: tile.dequantize
func.func @reshape_between(%a: tensor<2x2x4xi8>, %w: tensor<8x3xi8>) -> tensor<2x3xf32> {
  %ad = tile.dequantize %a quant(#tile.quant<scales = dense<0.1> : tensor<f32>>) : tensor<2x2x4xi8> -> tensor<2x2x4xf32>
  %r = tile.reshape %ad : tensor<2x2x4xf32> -> tensor<2x8xf32>
  %wd = tile.dequantize %w quant(#tile.quant<scales = dense<0.2> : tensor<f32>>) : tensor<8x3xi8> -> tensor<8x3xf32>
  %y = tile.matmul %r, %wd : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Quantizing a dequantized value with the same scheme gives it back; with
// another scheme it does not.
// CHECK-LABEL: func @round_trip
// CHECK-SAME: (%[[Q:.*]]: tensor<2x3xui8>)
// CHECK: %[[T:.*]] = tile.transpose %[[Q]] permutation = [1, 0] : tensor<2x3xui8> -> tensor<3x2xui8>
// CHECK: %[[D:.*]] = tile.dequantize %[[T]]
// CHECK: %[[OTHER:.*]] = tile.quantize %[[D]]
// CHECK: return %[[T]], %[[OTHER]]
func.func @round_trip(%q: tensor<2x3xui8>) -> (tensor<3x2xui8>, tensor<3x2xui8>) {
  %d = tile.dequantize %q quant(#tile.quant<scales = dense<0.5> : tensor<f32>, zero_points = dense<3> : tensor<ui8>>) : tensor<2x3xui8> -> tensor<2x3xf32>
  %t = tile.transpose %d permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %same = tile.quantize %t quant(#tile.quant<scales = dense<0.5> : tensor<f32>, zero_points = dense<3> : tensor<ui8>>) : tensor<3x2xf32> -> tensor<3x2xui8>
  %other = tile.quantize %t quant(#tile.quant<scales = dense<0.25> : tensor<f32>, zero_points = dense<3> : tensor<ui8>>) : tensor<3x2xf32> -> tensor<3x2xui8>
  return %same, %other : tensor<3x2xui8>, tensor<3x2xui8>
}
