// RUN: aicc-opt %s -split-input-file -tile-lower-quant="int4-product-rows=16" | FileCheck %s
// RUN: aicc-opt %s -split-input-file -tile-lower-quant | FileCheck %s --check-prefix=OFF

// A product of one row by a dequantized weight of 4-bit values in blocks
// along k keeps the weight packed: [N, K/2] bytes, k = 2j in the low four
// bits and 2j + 1 in the high four; the scales and zero points per column
// and group ([N, K/group]).
// Values (k by n): (0 1) (2 3) (4 5) (6 15): column 0 packs 0x20 0x64,
// column 1 0x31 0xF5. Scales [[0.5 0.25] [2 1]] (group by n) become
// 0.5 2 ; 0.25 1, zero points [[1 2] [3 4]] become 1 3 ; 2 4.

// CHECK-LABEL: func @one_row
// CHECK-DAG: %[[P:.*]] = tile.weight "w_int4" = dense_resource<w_int4> : tensor<2x2xui8>
// CHECK-DAG: %[[S:.*]] = tile.weight "w_int4_scales" = dense_resource<w_int4_scales> : tensor<2x2xf32>
// CHECK-DAG: %[[Z:.*]] = tile.weight "w_int4_zero_points" = dense_resource<w_int4_zero_points> : tensor<2x2xui8>
// CHECK: %[[Y:.*]] = tile.matmul_int4 %arg0, %[[P]], %[[S]], %[[Z]] group_size 2 : (tensor<1x4xf32>, tensor<2x2xui8>, tensor<2x2xf32>, tensor<2x2xui8>) -> tensor<1x2xf32>
// CHECK: return %[[Y]]
// CHECK: w_int4: "0x{{[0-9A-F]+}}206431F5"
// CHECK: w_int4_scales: "0x{{[0-9A-F]+}}0000003F000000400000803E0000803F"
// CHECK: w_int4_zero_points: "0x{{[0-9A-F]+}}01030204"

// OFF-LABEL: func @one_row
// OFF-NOT: tile.matmul_int4
// OFF: tile.weight "w_dequantized"
// OFF: tile.matmul
func.func @one_row(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %w = tile.weight "w" = dense_resource<w> : tensor<4x2xui8>
  %d = tile.dequantize %w quant(#tile.quant<scales = dense<[[0.5, 0.25], [2.0, 1.0]]> : tensor<2x2xf32>, zero_points = dense<[[1, 2], [3, 4]]> : tensor<2x2xui8>, axis = 0, block_size = 2>) : tensor<4x2xui8> -> tensor<4x2xf32>
  %y = tile.matmul %x, %d : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x01000000000102030405060F"
    }
  }
#-}

// -----

// Signed values from -8 to 7 (a transposed [N, K] weight, k along its
// dimension 1): stored less the lowest, -8, with the zero point moved by
// as much (0 -> 8). Column 0 is -8 -7 7 6: 0x10 0xEF; column 1 is
// 0 1 2 3: 0x98 0xBA.

// CHECK-LABEL: func @signed_transposed
// CHECK: %[[Y:.*]] = tile.matmul_int4 %arg0, %{{.*}}, %{{.*}}, %{{.*}} group_size 4 : (tensor<1x4xf32>, tensor<2x2xui8>
// CHECK: w_int4: "0x{{[0-9A-F]+}}10EF98BA"
// CHECK: w_int4_zero_points: "0x{{[0-9A-F]+}}0808"
func.func @signed_transposed(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %w = tile.weight "w" = dense_resource<w> : tensor<2x4xi8>
  %d = tile.dequantize %w quant(#tile.quant<scales = dense<[[0.5], [0.25]]> : tensor<2x1xf32>, zero_points = dense<0> : tensor<2x1xi8>, axis = 1, block_size = 4>) : tensor<2x4xi8> -> tensor<2x4xf32>
  %y = tile.matmul %x, %d transpose_rhs : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x01000000F8F9070600010203"
    }
  }
#-}

// -----

// Left to the float weight: a product of 16 rows (the tensor cores' work),
// and values that span more than 16 integers.

// CHECK-LABEL: func @left
// CHECK-NOT: tile.matmul_int4
// CHECK: return
func.func @left(%x: tensor<16x4xf32>, %x1: tensor<1x4xf32>) -> (tensor<16x2xf32>, tensor<1x2xf32>) {
  %w = tile.weight "w" = dense_resource<w> : tensor<4x2xui8>
  %d = tile.dequantize %w quant(#tile.quant<scales = dense<0.5> : tensor<2x2xf32>, axis = 0, block_size = 2>) : tensor<4x2xui8> -> tensor<4x2xf32>
  %y = tile.matmul %x, %d : (tensor<16x4xf32>, tensor<4x2xf32>) -> tensor<16x2xf32>
  %wide = tile.weight "wide" = dense_resource<wide> : tensor<4x2xui8>
  %dw = tile.dequantize %wide quant(#tile.quant<scales = dense<0.5> : tensor<2x2xf32>, axis = 0, block_size = 2>) : tensor<4x2xui8> -> tensor<4x2xf32>
  %y1 = tile.matmul %x1, %dw : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  return %y, %y1 : tensor<16x2xf32>, tensor<1x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x010000000001020304050607",
      wide: "0x010000000001020304050614"
    }
  }
#-}
