// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @all_fields
// CHECK-SAME: tensor<1024x512x256xf16, #tile.encoding<tiles = [128x64x32, 64x32x32, 16x8x16], order = [2, 1, 0], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 3, splits = 1>>>
func.func @all_fields(%x: tensor<1024x512x256xf16, #tile.encoding<tiles = [128x64x32, 64x32x32, 16x8x16], order = [2, 1, 0], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 3, splits = 1>>>) {
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
// CHECK-LABEL: func @target_and_config
// CHECK-SAME: tensor<256xf16, #tile.encoding<tiles = [1024, 8], target = "cuda", config = #aicc_gpu.elementwise<threads = 128, lanes = 8>>>
func.func @target_and_config(%x: tensor<256xf16, #tile.encoding<config = #aicc_gpu.elementwise<threads = 128, lanes = 8>, target = "cuda", tiles = [1024, 8]>>) {
  return
}

// Tiles larger than a dimension are allowed: the lowering masks them.
// CHECK-LABEL: func @oversized_tile
// CHECK-SAME: tensor<3x5xf32, #tile.encoding<tiles = [16x16], target = "cpu">>
func.func @oversized_tile(%x: tensor<3x5xf32, #tile.encoding<tiles = [16x16], target = "cpu">>) {
  return
}
