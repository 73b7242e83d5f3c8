// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true" | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true operand-type=f16" | FileCheck %s --check-prefix=F32
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true candidate=1" | FileCheck %s --check-prefix=CAND
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true choices=f16:b1:m4096:n3072:k768:kr=128x256x64x4,f16:b1:m128:n128:k4096:kr=64x64x32x1/4" | FileCheck %s --check-prefix=TUNED
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="choices=f16:b1:m4096:n3072:k768:kr=128x256x64x4" 2>&1 | FileCheck %s --check-prefix=UNFIT
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true tile=64x64x32x2" | FileCheck %s --check-prefix=FORCED
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true choices=f16:b1:m4096:n3072:k768:kr=128x256x64x4" -aicc-gpu-mma-matmul="wgmma=true" -cse | FileCheck %s --check-prefix=KERNEL
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="choices=nonsense" 2>&1 | FileCheck %s --check-prefix=BADCHOICE

// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="tile=128x128x20" 2>&1 | FileCheck %s --check-prefix=BADTILE
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="operand-type=f8" 2>&1 | FileCheck %s --check-prefix=BADTYPE

// A forced split of K = 768 (24 slices of 32) into 16: 2 slices a split
// fill only 12 splits.
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="tile=64x64x32/16" 2>&1 | FileCheck %s --check-prefix=EMPTYSPLIT
// EMPTYSPLIT: aicc-gpu-choose-tiles: the tile 64x64x32/16 cannot run f16:b1:m4096:n3072:k768:kr: some of its K splits would get no slices

// BADCHOICE: aicc-gpu-choose-tiles: choice 'nonsense' is not SIGNATURE=TILING
// BADTILE: aicc-gpu-choose-tiles: tile '128x128x20' is not BMxBNxBK[xSTAGES][/SPLITS] with whole warp tiles
// BADTYPE: aicc-gpu-choose-tiles: operand-type must be f16, bf16 or tf32, not 'f8'

// A large f16 product (BERT-base's QKV projection at batch 32): A read
// along k, B along n. The model: 128x128 blocks of two warpgroups, 64-deep
// slices in 3 stages (K is short: two blocks a multiprocessor).

// CHECK-LABEL: func.func @large
// CHECK: linalg.generic
// CHECK-SAME: aicc_gpu.tiles = #tile.encoding<tiles = [128x128x64, 64x128x64, 64x128x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1, signature = "f16:b1:m4096:n3072:k768:kr">>
// The autotuner's second candidate: 128x64 blocks.
// CAND-LABEL: func.func @large
// CAND: aicc_gpu.tiles = #tile.encoding<tiles = [128x64x64, 64x64x64, 64x64x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1, signature = "f16:b1:m4096:n3072:k768:kr", origin = candidate>>
// A tuned entry for its signature wins over the model.
// TUNED-LABEL: func.func @large
// TUNED: aicc_gpu.tiles = #tile.encoding<tiles = [128x256x64, 64x256x64, 64x256x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 4, splits = 1, signature = "f16:b1:m4096:n3072:k768:kr", origin = tuned>>
// Without wgmma (sm_80 and sm_90 cubins) the tuned wgmma tiling cannot
// run: a warning, and the mma.sync model's 128x128 blocks of 8 warps.
// UNFIT: warning: aicc-gpu-choose-tiles: the tuned tiling 128x256x64x4 of f16:b1:m4096:n3072:k768:kr is not one this contraction can run; using the model's
// UNFIT-LABEL: func.func @large
// UNFIT: aicc_gpu.tiles = #tile.encoding<tiles = [128x128x64, 64x32x64, 16x8x16], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 1, splits = 1, signature = "f16:b1:m4096:n3072:k768:kr">>
// --mma-tile names an mma.sync tiling: every contraction takes it.
// FORCED-LABEL: func.func @large
// FORCED: aicc_gpu.tiles = #tile.encoding<tiles = [64x64x32, 32x32x32, 16x8x16], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 2, splits = 1, signature = "f16:b1:m4096:n3072:k768:kr", origin = forced>>
// aicc-gpu-mma-matmul builds the kernel the encoding names: 12 x 32
// blocks of 128 x 256, 4 stages of (128 + 256) x 64 halves, the 1 KiB
// for alignment and 64 bytes of mbarriers in shared memory, one block a
// multiprocessor.
// KERNEL-LABEL: func.func @large
// KERNEL-DAG: %[[C12:.*]] = arith.constant 12 : index
// KERNEL-DAG: %[[C32:.*]] = arith.constant 32 : index
// KERNEL: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C12]], {{.*}} = %[[C32]],
// KERNEL: memref.alloca() : memref<197696xi8, #gpu.address_space<workgroup>>
// KERNEL: nvvm.wgmma.mma_async
// KERNEL: gpu.terminator
// KERNEL-NEXT: } {aicc_gpu.contraction = "f16:b1:m4096:n3072:k768:kr"
// KERNEL-NOT: linalg.generic
// KERNEL: return
func.func @large(%a: memref<4096x768xf16>, %b: memref<768x3072xf16>, %c: memref<4096x3072xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x768xf16>, memref<768x3072xf16>) outs(%c : memref<4096x3072xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product of one 128x128 output tile over K = 4096 (a batch-1 layer):
// 64x64 blocks leave most multiprocessors idle, so K is split over 16
// blocks per tile (8 slices each), on mma.sync (too few blocks for wgmma).

// CHECK-LABEL: func.func @long_k
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [64x64x32, 32x32x32, 16x8x16], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 1, splits = 16, signature = "f16:b1:m128:n128:k4096:kr">>
// The second candidate: wgmma after all, 128x64 blocks (the autotuner
// measures wgmma first, then the mma.sync blocks, since the model keeps
// mma.sync here).
// CAND-LABEL: func.func @long_k
// CAND: aicc_gpu.tiles = #tile.encoding<tiles = [128x64x64, 64x64x64, 64x64x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1, signature = "f16:b1:m128:n128:k4096:kr", origin = candidate>>
// TUNED-LABEL: func.func @long_k
// TUNED: aicc_gpu.tiles = #tile.encoding<tiles = [64x64x32, 32x32x32, 16x8x16], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 1, splits = 4, signature = "f16:b1:m128:n128:k4096:kr", origin = tuned>>
func.func @long_k(%a: memref<128x4096xf16>, %b: memref<4096x128xf16>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x4096xf16>, memref<4096x128xf16>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A matrix-vector product (one column) stays on the CUDA cores: no
// tensor-core tiling, a row kernel's (a warp per output, one a block: 64
// blocks leave multiprocessors idle).

// CHECK-LABEL: func.func @thin
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [1x64, 1x64], target = "cuda", config = #aicc_gpu.rows<warps = 1, lanes = 32>>
func.func @thin(%a: memref<64x64xf16>, %b: memref<64x1xf16>, %c: memref<64x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xf16>, memref<64x1xf16>) outs(%c : memref<64x1xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A stored f32 (converted to f16 as it is read: --precision=fp16 leaves
// some operands f32): its signature says so, and wgmma, which reads
// operands as cp.async copied them, cannot take it.

// CHECK-LABEL: func.func @f32_operand
// CHECK-NOT: aicc_gpu.tiles
// F32-LABEL: func.func @f32_operand
// F32: aicc_gpu.tiles = #tile.encoding<tiles = [128x128x64, 64x32x64, 16x8x16], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 1, splits = 1, signature = "f16:b1:m4096:n3072:k768:kr:af32">>
func.func @f32_operand(%a: memref<4096x768xf32>, %b: memref<768x3072xf16>, %c: memref<4096x3072xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x768xf32>, memref<768x3072xf16>) outs(%c : memref<4096x3072xf32>) {
  ^bb0(%x: f32, %y: f16, %o: f32):
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %x, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Blocks whose last wave is nearly empty are rebalanced: ViT-B/16's
// products of 6304 rows and 768 columns at batch 32. With K = 768, the
// model's 128x128 blocks in 3 stages (300 blocks, two a multiprocessor:
// 1.14 waves) become 128x64 blocks in 4 stages (600, two a
// multiprocessor: 2.27 waves), two resident blocks preferred for a short
// K; with K = 3072, 128x256 blocks (150, one a multiprocessor: 1.14
// waves) would become 128x128 blocks in 4 stages (300, one: 2.27 waves),
// the widest of the fuller ones, but 128x192 blocks load the busiest
// multiprocessor with as many outputs (two of 128x192 against three of
// 128x128) in wider blocks, and K is long: 128x192 in 4 stages.

// CHECK-LABEL: func.func @last_wave_short_k
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [128x64x64, 64x64x64, 64x64x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 4, splits = 1, signature = "f16:b1:m6304:n768:k768:kk">>
// CHECK-LABEL: func.func @last_wave_long_k
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [128x192x64, 64x192x64, 64x192x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 4, splits = 1, signature = "f16:b1:m6304:n768:k3072:kr">>
// 64 columns: rebalanced among the blocks that waste none of them (300
// blocks of 128x64 in 4 stages, 1.14 waves, become 3 stages: three a
// multiprocessor, 0.76 full), not 128x256 ones that would waste three
// quarters.
// CHECK-LABEL: func.func @last_wave_narrow
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [128x64x64, 64x64x64, 64x64x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1, signature = "f16:b1:m38400:n64:k2048:kk">>
func.func @last_wave_short_k(%a: memref<6304x768xf16>, %b: memref<768x768xf16>, %c: memref<6304x768xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<6304x768xf16>, memref<768x768xf16>) outs(%c : memref<6304x768xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @last_wave_long_k(%a: memref<6304x3072xf16>, %b: memref<3072x768xf16>, %c: memref<6304x768xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<6304x3072xf16>, memref<3072x768xf16>) outs(%c : memref<6304x768xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @last_wave_narrow(%a: memref<38400x2048xf16>, %b: memref<64x2048xf16>, %c: memref<38400x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<38400x2048xf16>, memref<64x2048xf16>) outs(%c : memref<38400x64xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Convolutions (here 1x1 on channels-last images: m loops n, h, w) with a
// short K: 128x64 blocks in 3 stages where they make four waves or more
// (25088 x 1024 x 256: 3136 blocks), else 128x128 in 3 stages up to
// K = 1152 (6272 x 512 x 1024); 4 stages otherwise.

// CHECK-LABEL: func.func @convolution_short_k
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [128x64x64, 64x64x64, 64x64x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1, signature = "f16:b1:m25088:n1024:k256:kk">>
// CHECK-LABEL: func.func @convolution_mid_k
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [128x128x64, 64x128x64, 64x128x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1, signature = "f16:b1:m6272:n512:k1024:kk">>
func.func @convolution_short_k(%x: memref<32x28x28x256xf16>, %w: memref<1024x256xf16>, %y: memref<32x28x28x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, f, c) -> (n, h, w, c)>,
                                   affine_map<(n, h, w, f, c) -> (f, c)>,
                                   affine_map<(n, h, w, f, c) -> (n, h, w, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<32x28x28x256xf16>, memref<1024x256xf16>) outs(%y : memref<32x28x28x1024xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @convolution_mid_k(%x: memref<32x14x14x1024xf16>, %w: memref<512x1024xf16>, %y: memref<32x14x14x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, f, c) -> (n, h, w, c)>,
                                   affine_map<(n, h, w, f, c) -> (f, c)>,
                                   affine_map<(n, h, w, f, c) -> (n, h, w, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<32x14x14x1024xf16>, memref<512x1024xf16>) outs(%y : memref<32x14x14x512xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// One round of blocks that loads the multiprocessors unevenly: BERT-base's
// 4096 x 768 products at batch 32 in the model's 128x128 blocks are 192,
// two on 60 of the 132 multiprocessors (32768 outputs each); 128 blocks of
// 128x192 put one on each (24576). A product whose N is not a multiple
// of 192 keeps the model's tiling.

// CHECK-LABEL: func.func @uneven_round
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [128x192x64, 64x192x64, 64x192x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 4, splits = 1, signature = "f16:b1:m4096:n768:k3072:kr">>
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [128x128x64, 64x128x64, 64x128x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1, signature = "f16:b1:m4096:n640:k3072:kr">>
func.func @uneven_round(%a: memref<4096x3072xf16>, %b: memref<3072x768xf16>, %c: memref<4096x768xf32>, %b2: memref<3072x640xf16>, %c2: memref<4096x640xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x3072xf16>, memref<3072x768xf16>) outs(%c : memref<4096x768xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b2 : memref<4096x3072xf16>, memref<3072x640xf16>) outs(%c2 : memref<4096x640xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
