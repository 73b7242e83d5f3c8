// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="attention=true" | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="attention=true archs=sm_86" | FileCheck %s --check-prefix=SM86
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="archs=sm_75" | FileCheck %s --check-prefix=SM75
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="target=rocm vendor=amd" | FileCheck %s --check-prefix=ROCM
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="attention=true" -aicc-gpu-flash-attention -aicc-gpu-warp-reductions -cse | FileCheck %s --check-prefix=KERNEL
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="attention=true archs=sm_86" -aicc-gpu-flash-attention | FileCheck %s --check-prefix=KERNEL86
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="target=rocm vendor=amd" -aicc-gpu-mfma-matmul -cse | FileCheck %s --check-prefix=MFMA
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="archs=sm_90,gfx942" 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="archs=tpu4" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="attention=true" -aicc-gpu-mma-matmul | FileCheck %s --check-prefix=NOFLASH

// The tilings of the kernels besides tensor-core contractions (those are
// in aicc-gpu-choose-tiles.mlir), from the limits of the architectures
// named: sm_80 and sm_90 by default (the tightest of each limit, the
// newest's 132 multiprocessors), sm_86 (99 KiB of shared memory a block,
// 72 multiprocessors), sm_75 (40), rocm's gfx90a and gfx942 (64-lane
// waves, 304 compute units). An architecture the table lacks takes its
// closest older one's (sm_NN) or gfx90a's (gfxN); other names, and
// architectures of two targets, are errors.

// MIXED: aicc-gpu-choose-tiles: no nvidia limits known for the architectures 'sm_90,gfx942'
// UNKNOWN: aicc-gpu-choose-tiles: no nvidia limits known for the architectures 'tpu4'

// Attention of 2 x 2 heads, 40 queries and keys, head dimension 16: one
// warp a block (12 blocks leave multiprocessors idle with more), Q's 16
// rows and the keys and values (padded to 48) in 5376 bytes of shared
// memory. The encoding goes on O's op; the chain's other ops (the scores'
// contraction, the row statistics) get none. aicc-gpu-flash-attention
// builds it: 32 threads a block.

// CHECK-LABEL: func.func @attention
// CHECK-NOT: aicc_gpu.tiles
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [16x48x16, 16x48x16, 16x8x16], target = "cuda", config = #aicc_gpu.attention<warps = 1, shared = 5376>>
// CHECK-NOT: aicc_gpu.tiles
// SM86-LABEL: func.func @attention
// SM86: #aicc_gpu.attention<warps = 1, shared = 5376>
// KERNEL-LABEL: func.func @attention
// KERNEL: gpu.launch blocks({{.*}}) in ({{.*}} = %c3, {{.*}} = %c4, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32,
// KERNEL-NOT: linalg.generic
// Without the attention kernel after it, the chain stays as it is: the
// tensor-core pass builds what tile selection recorded, and O's encoding
// is another kernel's, the scores' product has none.
// NOFLASH-LABEL: func.func @attention(
// NOFLASH-NOT: gpu.launch
// NOFLASH: return
func.func @attention(%q: memref<2x40x2x16xf16>, %k: memref<2x40x2x16xf16>, %v: memref<2x40x2x16xf16>, %mask: memref<2x1x40x40xf32>, %y: memref<2x40x2x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %s = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x40x2x16xf16>, memref<2x40x2x16xf16>) outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%a: f16, %b: f16, %out: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  %sum = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  %max = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%max : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %lowest : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>) outs(%max : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.maximumf %out, %2 : f32
    linalg.yield %3 : f32
  }
  %max4 = memref.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask, %max4 : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>, memref<2x2x40x1xf32>) outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  }
  %sum4 = memref.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask, %max4, %sum4 : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>, memref<2x2x40x1xf32>, memref<2x2x40x1xf32>) outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %sm: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.divf %4, %sm : f32
    linalg.yield %5 : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%o : memref<2x2x40x16xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%s, %v : memref<2x2x40x40xf32>, memref<2x40x2x16xf16>) outs(%o : memref<2x2x40x16xf32>) {
  ^bb0(%a: f32, %b: f16, %out: f32):
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %a, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : memref<2x2x40x16xf32>) outs(%y : memref<2x40x2x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// 256 keys of head dimension 128: a thread keeps 128 + 64 f32
// accumulators (all of the 192 of its 255 registers it may), and a block
// of one warp needs 143616 bytes of shared memory. sm_80 and sm_90 have
// them; sm_86 does not: no attention tiling, the scores' contraction gets
// its tensor-core tiling and the row statistics theirs (512 rows: 4 warps
// a block fill 72 multiprocessors), and no attention kernel is built.

// CHECK-LABEL: func.func @attention_long
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [16x256x128, 16x256x128, 16x8x16], target = "cuda", config = #aicc_gpu.attention<warps = 1, shared = 143616>>
// SM86-LABEL: func.func @attention_long
// SM86-NOT: #aicc_gpu.attention
// SM86: engine = mma_sync
// SM86: aicc_gpu.tiles = #tile.encoding<tiles = [4x256, 1x256], target = "cuda", config = #aicc_gpu.rows<warps = 4, lanes = 32>>
// SM86: aicc_gpu.tiles = #tile.encoding<tiles = [4x256, 1x256], target = "cuda", config = #aicc_gpu.rows<warps = 4, lanes = 32>>
// SM86-NOT: #aicc_gpu.attention
// KERNEL-LABEL: func.func @attention_long
// KERNEL: gpu.launch blocks({{.*}}) in ({{.*}} = %c16, {{.*}} = %c2, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32,
// KERNEL86-LABEL: func.func @attention_long
// KERNEL86-NOT: gpu.launch
// NOFLASH-LABEL: func.func @attention_long
func.func @attention_long(%q: memref<1x256x2x128xf16>, %k: memref<1x256x2x128xf16>, %v: memref<1x256x2x128xf16>, %mask: memref<1x1x256x256xf32>, %y: memref<1x256x2x128xf16>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %s = memref.alloc() {alignment = 64 : i64} : memref<1x2x256x256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s : memref<1x2x256x256xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<1x256x2x128xf16>, memref<1x256x2x128xf16>) outs(%s : memref<1x2x256x256xf32>) {
  ^bb0(%a: f16, %b: f16, %out: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  %sum = memref.alloc() {alignment = 64 : i64} : memref<1x2x256xf32>
  %max = memref.alloc() {alignment = 64 : i64} : memref<1x2x256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%max : memref<1x2x256xf32>) {
  ^bb0(%out: f32):
    linalg.yield %lowest : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask : memref<1x2x256x256xf32>, memref<1x1x256x256xf32>) outs(%max : memref<1x2x256xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.maximumf %out, %2 : f32
    linalg.yield %3 : f32
  }
  %max4 = memref.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 256, 1] : memref<1x2x256xf32> into memref<1x2x256x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%sum : memref<1x2x256xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask, %max4 : memref<1x2x256x256xf32>, memref<1x1x256x256xf32>, memref<1x2x256x1xf32>) outs(%sum : memref<1x2x256xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  }
  %sum4 = memref.expand_shape %sum [[0], [1], [2, 3]] output_shape [1, 2, 256, 1] : memref<1x2x256xf32> into memref<1x2x256x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask, %max4, %sum4 : memref<1x2x256x256xf32>, memref<1x1x256x256xf32>, memref<1x2x256x1xf32>, memref<1x2x256x1xf32>) outs(%s : memref<1x2x256x256xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %sm: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.divf %4, %sm : f32
    linalg.yield %5 : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<1x2x256x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%o : memref<1x2x256x128xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%s, %v : memref<1x2x256x256xf32>, memref<1x256x2x128xf16>) outs(%o : memref<1x2x256x128xf32>) {
  ^bb0(%a: f32, %b: f16, %out: f32):
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %a, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : memref<1x2x256x128xf32>) outs(%y : memref<1x256x2x128xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// Head dimension 144 (a multiple of 16): 128 + 72 accumulators a thread,
// past its 192: no attention tiling on any GPU.

// CHECK-LABEL: func.func @attention_wide_heads
// CHECK-NOT: #aicc_gpu.attention
func.func @attention_wide_heads(%q: memref<1x256x2x144xf16>, %k: memref<1x256x2x144xf16>, %v: memref<1x256x2x144xf16>, %mask: memref<1x1x256x256xf32>, %y: memref<1x256x2x144xf16>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %s = memref.alloc() {alignment = 64 : i64} : memref<1x2x256x256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s : memref<1x2x256x256xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<1x256x2x144xf16>, memref<1x256x2x144xf16>) outs(%s : memref<1x2x256x256xf32>) {
  ^bb0(%a: f16, %b: f16, %out: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  %sum = memref.alloc() {alignment = 64 : i64} : memref<1x2x256xf32>
  %max = memref.alloc() {alignment = 64 : i64} : memref<1x2x256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%max : memref<1x2x256xf32>) {
  ^bb0(%out: f32):
    linalg.yield %lowest : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask : memref<1x2x256x256xf32>, memref<1x1x256x256xf32>) outs(%max : memref<1x2x256xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.maximumf %out, %2 : f32
    linalg.yield %3 : f32
  }
  %max4 = memref.expand_shape %max [[0], [1], [2, 3]] output_shape [1, 2, 256, 1] : memref<1x2x256xf32> into memref<1x2x256x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%sum : memref<1x2x256xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask, %max4 : memref<1x2x256x256xf32>, memref<1x1x256x256xf32>, memref<1x2x256x1xf32>) outs(%sum : memref<1x2x256xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  }
  %sum4 = memref.expand_shape %sum [[0], [1], [2, 3]] output_shape [1, 2, 256, 1] : memref<1x2x256xf32> into memref<1x2x256x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask, %max4, %sum4 : memref<1x2x256x256xf32>, memref<1x1x256x256xf32>, memref<1x2x256x1xf32>, memref<1x2x256x1xf32>) outs(%s : memref<1x2x256x256xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %sm: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.divf %4, %sm : f32
    linalg.yield %5 : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<1x2x256x144xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%o : memref<1x2x256x144xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%s, %v : memref<1x2x256x256xf32>, memref<1x256x2x144xf16>) outs(%o : memref<1x2x256x144xf32>) {
  ^bb0(%a: f32, %b: f16, %out: f32):
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %a, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : memref<1x2x256x144xf32>) outs(%y : memref<1x256x2x144xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// Row kernels, a warp a row: 8 warps a block while the blocks fill the
// multiprocessors, fewer where they would not. 128 rows: one warp a block
// on 132 multiprocessors, two on sm_75's 40, two on rocm (the row
// kernel's warps have 32 lanes: two fill a 64-lane wave); 4096 rows:
// eight everywhere. aicc-gpu-warp-reductions builds them.

// CHECK-LABEL: func.func @rows_few
// CHECK: linalg.generic
// CHECK-NOT: aicc_gpu.tiles
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [1x768, 1x768], target = "cuda", config = #aicc_gpu.rows<warps = 1, lanes = 32>>
// SM75-LABEL: func.func @rows_few
// SM75: config = #aicc_gpu.rows<warps = 2, lanes = 32>
// ROCM-LABEL: func.func @rows_few
// ROCM: aicc_gpu.tiles = #tile.encoding<tiles = [2x768, 1x768], target = "rocm", config = #aicc_gpu.rows<warps = 2, lanes = 32>>
// KERNEL-LABEL: func.func @rows_few
// KERNEL: gpu.launch blocks({{.*}}) in ({{.*}} = %c128, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32,
func.func @rows_few(%x: memref<128x768xf16>, %acc: memref<128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%acc : memref<128xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x768xf16>) outs(%acc : memref<128xf32>) {
  ^bb0(%a: f16, %o: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.addf %o, %e : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// CHECK-LABEL: func.func @rows_many
// CHECK: config = #aicc_gpu.rows<warps = 8, lanes = 32>
// SM75-LABEL: func.func @rows_many
// SM75: config = #aicc_gpu.rows<warps = 8, lanes = 32>
// ROCM-LABEL: func.func @rows_many
// ROCM: config = #aicc_gpu.rows<warps = 8, lanes = 32>
// KERNEL-LABEL: func.func @rows_many
// KERNEL: gpu.launch blocks({{.*}}) in ({{.*}} = %c512, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256,
func.func @rows_many(%x: memref<4096x768xf16>, %acc: memref<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%acc : memref<4096xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4096x768xf16>) outs(%acc : memref<4096xf32>) {
  ^bb0(%a: f16, %o: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.addf %o, %e : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// rocm's MFMA products: 2 x 2 waves a block (64 x 64 outputs) where the
// blocks still fill the 304 compute units, else one wave. Without tensor
// cores for f32, cuda runs a small one as a row kernel (3500 outputs, a
// warp each).

// CHECK-LABEL: func.func @product_small
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [8x40, 1x40], target = "cuda", config = #aicc_gpu.rows<warps = 8, lanes = 32>>
// ROCM-LABEL: func.func @product_small
// ROCM: aicc_gpu.tiles = #tile.encoding<tiles = [32x32x2, 32x32x2, 32x32x2], target = "rocm", config = #aicc_gpu.mfma<waves_m = 1, waves_n = 1>>
// MFMA-LABEL: func.func @product_small
// MFMA: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c3, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c64,
func.func @product_small(%a: memref<70x40xf32>, %b: memref<40x50xf32>, %c: memref<70x50xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<70x40xf32>, memref<40x50xf32>) outs(%c : memref<70x50xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// ROCM-LABEL: func.func @product_large
// ROCM: aicc_gpu.tiles = #tile.encoding<tiles = [64x64x2, 32x32x2, 32x32x2], target = "rocm", config = #aicc_gpu.mfma<waves_m = 2, waves_n = 2>>
// A block of 256 threads: wave w takes the 32 x 32 tile (w / 2, w % 2) of
// the block's 64 x 64.
// MFMA-LABEL: func.func @product_large
// MFMA: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{[^)]*}}) in ({{.*}} = %c64, {{.*}} = %c64, {{.*}} = %c1) threads(%[[T:[^,]*]], {{.*}}) in ({{.*}} = %c256,
// MFMA-DAG: %[[WAVE:.*]] = arith.divui %[[T]], %c64
// MFMA-DAG: %[[LANE:.*]] = arith.remui %[[T]], %c64
// MFMA-DAG: %[[WN:.*]] = arith.remui %[[WAVE]], %c2
// MFMA-DAG: %[[WM:.*]] = arith.divui %[[WAVE]], %c2
// MFMA: amdgpu.mfma 32x32x2
func.func @product_large(%a: memref<4096x64xf32>, %b: memref<64x4096xf32>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x64xf32>, memref<64x4096xf32>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
