// RUN: aicc-opt %s -tile-lower-quant -split-input-file | FileCheck %s

// Quantize: divide, round half to even, add the zero point, saturate into
// [0, 255], convert. Dequantize: subtract the zero point, scale.
// CHECK-LABEL: func @per_tensor
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-DAG: %[[S:.*]] = tile.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[Z:.*]] = tile.constant dense<3.000000e+00> : tensor<f32>
// CHECK-DAG: %[[LO:.*]] = tile.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[HI:.*]] = tile.constant dense<2.550000e+02> : tensor<f32>
// CHECK: %[[D:.*]] = tile.binary div %[[X]], %[[S]]
// CHECK: %[[R:.*]] = tile.unary round %[[D]]
// CHECK: %[[A:.*]] = tile.binary add %[[R]], %[[Z]]
// CHECK: %[[MAX:.*]] = tile.binary max %[[A]], %[[LO]]
// CHECK: %[[MIN:.*]] = tile.binary min %[[MAX]], %[[HI]]
// CHECK: %[[Q:.*]] = tile.cast %[[MIN]] : tensor<4xf32> -> tensor<4xui8>
// CHECK: %[[QF:.*]] = tile.cast %[[Q]] : tensor<4xui8> -> tensor<4xf32>
// CHECK: %[[C:.*]] = tile.binary sub %[[QF]], %[[Z]]
// CHECK: %[[Y:.*]] = tile.binary mul %[[C]], %[[S]]
// CHECK: return %[[Y]]
// CHECK-NOT: tile.quantize
func.func @per_tensor(%x: tensor<4xf32>) -> tensor<4xf32> {
  %q = tile.quantize %x quant(#tile.quant<scales = dense<0.5> : tensor<f32>, zero_points = dense<3> : tensor<ui8>>) : tensor<4xf32> -> tensor<4xui8>
  %d = tile.dequantize %q quant(#tile.quant<scales = dense<0.5> : tensor<f32>, zero_points = dense<3> : tensor<ui8>>) : tensor<4xui8> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// Per-axis scales broadcast along their axis.
// CHECK-LABEL: func @per_axis
// CHECK: %[[S:.*]] = tile.constant dense<{{\[\[}}1.000000e-01], [2.000000e-01]]> : tensor<2x1xf32>
// CHECK: tile.binary mul %{{.*}}, %[[S]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
func.func @per_axis(%w: tensor<2x3xi8>) -> tensor<2x3xf32> {
  %d = tile.dequantize %w quant(#tile.quant<scales = dense<[0.1, 0.2]> : tensor<2xf32>, axis = 0>) : tensor<2x3xi8> -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// -----

// Blocks of 2 along a dimension of 3: each scale repeats twice and the
// repetition is cut to the tensor's size.
// CHECK-LABEL: func @per_block
// CHECK: %[[S:.*]] = tile.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 2.000000e+00]]> : tensor<1x3xf32>
// CHECK: tile.binary mul %{{.*}}, %[[S]] : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
func.func @per_block(%w: tensor<1x3xi4>) -> tensor<1x3xf32> {
  %d = tile.dequantize %w quant(#tile.quant<scales = dense<[[1.0, 2.0]]> : tensor<1x2xf32>, axis = 1, block_size = 2>) : tensor<1x3xi4> -> tensor<1x3xf32>
  return %d : tensor<1x3xf32>
}

// -----

// Dequantized constants fold to float constants.
// CHECK-LABEL: func @constant
// CHECK-NEXT: %[[C:.*]] = tile.constant dense<[-1.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @constant() -> tensor<2xf32> {
  %q = tile.constant dense<[-2, 1]> : tensor<2xi8>
  %d = tile.dequantize %q quant(#tile.quant<scales = dense<0.5> : tensor<f32>>) : tensor<2xi8> -> tensor<2xf32>
  return %d : tensor<2xf32>
}

// -----

// A dequantized weight becomes a float weight at compile time: per column
// (axis 1) with zero points, the int8 values [[1, -2], [3, 4]] give
// [[(1-1)*0.5, (-2+1)*2], [(3-1)*0.5, (4+1)*2]] = [[0, -2], [1, 10]].
// CHECK-LABEL: func @weight
// CHECK: %[[W:.*]] = tile.weight "w_dequantized" = dense_resource<w_dequantized> : tensor<2x2xf32>
// CHECK-NOT: tile.dequantize
// CHECK: return %[[W]]
// CHECK: w_dequantized: "0x0800000000000000000000C00000803F00002041"
func.func @weight() -> tensor<2x2xf32> {
  %w = tile.weight "w" = dense_resource<w> : tensor<2x2xi8>
  %d = tile.dequantize %w quant(#tile.quant<scales = dense<[0.5, 2.0]> : tensor<2xf32>, zero_points = dense<[1, -1]> : tensor<2xi8>, axis = 1>) : tensor<2x2xi8> -> tensor<2x2xf32>
  return %d : tensor<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x0400000001FE0304"
    }
  }
#-}

// -----

// An i32 product of widened 8-bit operands (MatMulInteger, ConvInteger
// without zero points) runs on the 8-bit operands; a weight the importer
// widened to an i32 constant is narrowed back (signed where its values fit
// s8, unsigned where they fit u8).
// CHECK-LABEL: func @narrow_products
// CHECK-DAG: %[[W:.*]] = tile.constant dense<{{\[\[}}-128, 127], [3, 4]]> : tensor<2x2xi8>
// CHECK-DAG: %[[U:.*]] = tile.constant dense<{{\[\[}}0, 255], [3, 4]]> : tensor<2x2xui8>
// CHECK: tile.matmul %arg0, %arg1 : (tensor<4x2xui8>, tensor<2x3xi8>) -> tensor<4x3xi32>
// CHECK: tile.matmul %arg0, %[[W]] : (tensor<4x2xui8>, tensor<2x2xi8>) -> tensor<4x2xi32>
// CHECK: tile.matmul %arg0, %[[U]] : (tensor<4x2xui8>, tensor<2x2xui8>) -> tensor<4x2xi32>
// CHECK: tile.conv %arg2, %arg3 {{.*}}: (tensor<1x2x5x5xui8>, tensor<4x2x3x3xi8>) -> tensor<1x4x5x5xi32>
// Left: an operand that does not fit 8 bits, one widened from 16 bits.
// CHECK: tile.matmul %{{.*}}, %{{.*}} : (tensor<4x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
// CHECK: tile.matmul %{{.*}}, %{{.*}} : (tensor<4x2xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
func.func @narrow_products(%a: tensor<4x2xui8>, %b: tensor<2x3xi8>, %x: tensor<1x2x5x5xui8>, %f: tensor<4x2x3x3xi8>, %h: tensor<2x3xi16>) -> (tensor<4x3xi32>, tensor<4x2xi32>, tensor<4x2xi32>, tensor<1x4x5x5xi32>, tensor<4x2xi32>, tensor<4x3xi32>) {
  %aw = tile.cast %a : tensor<4x2xui8> -> tensor<4x2xi32>
  %bw = tile.cast %b : tensor<2x3xi8> -> tensor<2x3xi32>
  %p = tile.matmul %aw, %bw : (tensor<4x2xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  %sw = tile.constant dense<[[-128, 127], [3, 4]]> : tensor<2x2xi32>
  %q = tile.matmul %aw, %sw : (tensor<4x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
  %uw = tile.constant dense<[[0, 255], [3, 4]]> : tensor<2x2xi32>
  %r = tile.matmul %aw, %uw : (tensor<4x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
  %xw = tile.cast %x : tensor<1x2x5x5xui8> -> tensor<1x2x5x5xi32>
  %fw = tile.cast %f : tensor<4x2x3x3xi8> -> tensor<4x2x3x3xi32>
  %c = tile.conv %xw, %fw strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] : (tensor<1x2x5x5xi32>, tensor<4x2x3x3xi32>) -> tensor<1x4x5x5xi32>
  %big = tile.constant dense<[[-129, 127], [3, 4]]> : tensor<2x2xi32>
  %s = tile.matmul %aw, %big : (tensor<4x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
  %hw = tile.cast %h : tensor<2x3xi16> -> tensor<2x3xi32>
  %t = tile.matmul %aw, %hw : (tensor<4x2xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  return %p, %q, %r, %c, %s, %t : tensor<4x3xi32>, tensor<4x2xi32>, tensor<4x2xi32>, tensor<1x4x5x5xi32>, tensor<4x2xi32>, tensor<4x3xi32>
}
