// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @all_fields
// CHECK-SAME: tensor<1024x512xf16, #tile.encoding<tiles = [128x64, 64x32, 16x8], order = [1, 0], target = "cuda", hints = {stages = 3 : i64}>>
func.func @all_fields(%x: tensor<1024x512xf16, #tile.encoding<tiles = [128x64, 64x32, 16x8], order = [1, 0], target = "cuda", hints = {stages = 3 : i64}>>) {
  return
}

// CHECK-LABEL: func @tiles_only
// CHECK-SAME: tensor<?x64xf32, #tile.encoding<tiles = [8x64]>>
func.func @tiles_only(%x: tensor<?x64xf32, #tile.encoding<tiles = [8x64]>>) {
  return
}

// CHECK-LABEL: func @order_only
// CHECK-SAME: tensor<2x3x4xf32, #tile.encoding<order = [2, 0, 1]>>
func.func @order_only(%x: tensor<2x3x4xf32, #tile.encoding<order = [2, 0, 1]>>) {
  return
}

// Fields may be written in any order; they print in declaration order.
// CHECK-LABEL: func @target_and_hints
// CHECK-SAME: tensor<16xi8, #tile.encoding<target = "systolic", hints = {array = 16 : i64}>>
func.func @target_and_hints(%x: tensor<16xi8, #tile.encoding<hints = {array = 16 : i64}, target = "systolic">>) {
  return
}

// Tiles larger than a dimension are allowed: the lowering masks them.
// CHECK-LABEL: func @oversized_tile
// CHECK-SAME: tensor<3x5xf32, #tile.encoding<tiles = [16x16], target = "cpu">>
func.func @oversized_tile(%x: tensor<3x5xf32, #tile.encoding<tiles = [16x16], target = "cpu">>) {
  return
}
