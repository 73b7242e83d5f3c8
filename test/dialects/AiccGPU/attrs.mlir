// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// Every kernel configuration, in the encoding that carries it, and the
// launch annotations.

// CHECK-LABEL: func @contraction
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [128x128x64, 64x128x64, 64x128x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1, signature = "f16:b1:m4096:n3072:k768:kr">>
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [64x64x32, 32x32x32, 16x8x16], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 2, splits = 4, origin = forced>>
func.func @contraction() {
  func.return {aicc_gpu.tiles = #tile.encoding<tiles = [128x128x64, 64x128x64, 64x128x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1, signature = "f16:b1:m4096:n3072:k768:kr", origin = model>>}
}
func.func @contraction_forced() {
  func.return {aicc_gpu.tiles = #tile.encoding<tiles = [64x64x32, 32x32x32, 16x8x16], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 2, splits = 4, origin = forced>>}
}

// CHECK-LABEL: func @kernels
// CHECK: #aicc_gpu.attention<warps = 4, shared = 41472>
// CHECK: #aicc_gpu.rows<warps = 8, lanes = 32>
// CHECK: #aicc_gpu.mfma<waves_m = 2, waves_n = 1>
// CHECK: #aicc_gpu.elementwise<threads = 128, lanes = 8>
func.func @kernels() {
  func.return {a = #tile.encoding<tiles = [64x128x64, 16x128x64, 16x8x16], target = "cuda", config = #aicc_gpu.attention<warps = 4, shared = 41472>>,
               b = #tile.encoding<tiles = [8x768, 1x768], target = "cuda", config = #aicc_gpu.rows<warps = 8, lanes = 32>>,
               c = #tile.encoding<tiles = [64x32x2, 32x32x2, 32x32x2], target = "rocm", config = #aicc_gpu.mfma<waves_m = 2, waves_n = 1>>,
               d = #tile.encoding<tiles = [1024, 8], target = "cuda", config = #aicc_gpu.elementwise<threads = 128, lanes = 8>>}
}

// CHECK-LABEL: func @launch_annotations
// CHECK-SAME: aicc_gpu.bytes = 4096 : i64
// CHECK-SAME: aicc_gpu.contraction = "f16:b1:m64:n64:k64:kr"
// CHECK-SAME: aicc_gpu.flops = 524288 : i64
// CHECK-SAME: aicc_gpu.math = #aicc_gpu<math tensor16>
// CHECK-SAME: aicc_gpu.min_blocks_per_sm = 2 : i32
// CHECK-SAME: aicc_gpu.source = "MatMul#0"
// CHECK-SAME: aicc_gpu.tensor_map_box = array<i64: 64, 64>
// CHECK-SAME: aicc_gpu.tiling = "64x64x32x2"
func.func @launch_annotations() attributes {aicc_gpu.bytes = 4096 : i64, aicc_gpu.contraction = "f16:b1:m64:n64:k64:kr", aicc_gpu.flops = 524288 : i64, aicc_gpu.math = #aicc_gpu<math tensor16>, aicc_gpu.min_blocks_per_sm = 2 : i32, aicc_gpu.source = "MatMul#0", aicc_gpu.tensor_map_box = array<i64: 64, 64>, aicc_gpu.tiling = "64x64x32x2"} {
  return
}
