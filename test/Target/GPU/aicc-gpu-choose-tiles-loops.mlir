// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true" | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true archs=sm_86 block-size=1024" | FileCheck %s --check-prefix=SM86
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true archs=sm_75" | FileCheck %s --check-prefix=SM75
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true archs=sm_80,sm_86 block-size=1024" | FileCheck %s --check-prefix=MIXED
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true multiprocessors=1" | FileCheck %s --check-prefix=ONE
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true block-size=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true target=rocm vendor=amd" | FileCheck %s --check-prefix=ROCM
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true" -aicc-gpu-map-to-launches | FileCheck %s --check-prefix=LAUNCH
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-map-to-launches 2>&1 | FileCheck %s --check-prefix=RECORDED
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true vector-bytes=0" | FileCheck %s --check-prefix=SCALAR

// The element-wise kernels' tilings (aicc-gpu-choose-tiles with `loops`),
// recorded on the top-level loops aicc-gpu-map-to-launches turns into
// launches, from the limits of sm_80 and sm_90 (the default: 132
// multiprocessors, 2048 threads each), sm_86 (1536 threads a
// multiprocessor), sm_75 (40 multiprocessors, 1024 threads) and rocm
// (64-lane waves, 304 compute units). A thread takes the widest vector
// its rows allow (16 bytes); a block takes `block-size` threads (256),
// fewer where they would not pack a multiprocessor whole, halved while
// the blocks leave multiprocessors idle, and no more warps than the loop
// needs.

// 1024 x 4096 halves: 8 a thread, 524288 threads, 256 a block (2048
// blocks fill any GPU). sm_86 with block-size=1024: 1024 of its 1536
// threads would leave a third idle; 768 pack it twice. For sm_80 (2048)
// and sm_86 (1536) together, 512 pack both. map-to-launches takes the
// recorded 256 over its own block-size of 128.

// Alone, map-to-launches refuses a loop tile selection gave no tiling.
// RECORDED: error: aicc-gpu-map-to-launches: the loop has no element-wise tiling (aicc-gpu-choose-tiles with loops records one)
// CHECK-LABEL: func.func @wide
// CHECK: scf.parallel
// CHECK: } {aicc_gpu.tiles = #tile.encoding<tiles = [2048, 8], target = "cuda", config = #aicc_gpu.elementwise<threads = 256, lanes = 8>>}
// SM86-LABEL: func.func @wide
// SM86: config = #aicc_gpu.elementwise<threads = 768, lanes = 8>
// MIXED-LABEL: func.func @wide
// MIXED: config = #aicc_gpu.elementwise<threads = 512, lanes = 8>
// ZERO: aicc-gpu-choose-tiles: block-size must be positive
// SM75-LABEL: func.func @wide
// SM75: config = #aicc_gpu.elementwise<threads = 256, lanes = 8>
// ROCM-LABEL: func.func @wide
// ROCM: aicc_gpu.tiles = #tile.encoding<tiles = [2048, 8], target = "rocm", config = #aicc_gpu.elementwise<threads = 256, lanes = 8>>
// LAUNCH-LABEL: func.func @wide
// LAUNCH: gpu.launch blocks({{.*}}) in (%{{[^ ]*}} = %c2048{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in (%{{[^ ]*}} = %c256{{(_[0-9]+)?}},
// LAUNCH: vector.load %{{.*}} : memref<1024x4096xf16>, vector<8xf16>
func.func @wide(%in: memref<1024x4096xf16>, %out: memref<1024x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %c4096 = arith.constant 4096 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1024, %c4096) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<1024x4096xf16>
    %e = math.exp %v : f16
    memref.store %e, %out[%i, %j] : memref<1024x4096xf16>
    scf.reduce
  }
  return
}

// -----

// 64 x 1024 floats: 4 a thread, 16384 threads: 64 blocks of 256 would
// leave half of 132 multiprocessors idle; 256 blocks of 64 do not. sm_75's
// 40 take 64 blocks of 256; rocm's 304 compute units get blocks of one
// 64-lane wave.

// CHECK-LABEL: func.func @spread
// CHECK: config = #aicc_gpu.elementwise<threads = 64, lanes = 4>
// SM75-LABEL: func.func @spread
// SM75: config = #aicc_gpu.elementwise<threads = 256, lanes = 4>
// ROCM-LABEL: func.func @spread
// ROCM: config = #aicc_gpu.elementwise<threads = 64, lanes = 4>
// LAUNCH-LABEL: func.func @spread
// LAUNCH: gpu.launch blocks({{.*}}) in (%{{[^ ]*}} = %c256{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in (%{{[^ ]*}} = %c64{{(_[0-9]+)?}},
// LAUNCH: vector.load %{{.*}} : memref<64x1024xf32>, vector<4xf32>
func.func @spread(%in: memref<64x1024xf32>, %out: memref<64x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c1024) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<64x1024xf32>
    %e = math.exp %v : f32
    memref.store %e, %out[%i, %j] : memref<64x1024xf32>
    scf.reduce
  }
  return
}

// -----

// 4 x 64 halves are 32 threads: one warp (a whole 64-lane wave on rocm).
// On a GPU of one multiprocessor the blocks are not halved, but still
// take no more warps than the loop needs: one.

// CHECK-LABEL: func.func @tiny
// CHECK: aicc_gpu.tiles = #tile.encoding<tiles = [256, 8], target = "cuda", config = #aicc_gpu.elementwise<threads = 32, lanes = 8>>
// ROCM-LABEL: func.func @tiny
// ROCM: config = #aicc_gpu.elementwise<threads = 64, lanes = 8>
// ONE-LABEL: func.func @tiny
// ONE: config = #aicc_gpu.elementwise<threads = 32, lanes = 8>
func.func @tiny(%in: memref<4x64xf16>, %out: memref<4x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c64) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<4x64xf16>
    %e = math.exp %v : f16
    memref.store %e, %out[%i, %j] : memref<4x64xf16>
    scf.reduce
  }
  return
}

// -----

// A transpose stores along columns: one element a thread; 4096 threads,
// halved to blocks of one warp while 128 blocks are fewer than 132
// multiprocessors.

// CHECK-LABEL: func.func @column
// CHECK: config = #aicc_gpu.elementwise<threads = 32, lanes = 1>
// LAUNCH-LABEL: func.func @column
// LAUNCH: gpu.launch blocks({{.*}}) in (%{{[^ ]*}} = %c128{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in (%{{[^ ]*}} = %c32{{(_[0-9]+)?}},
func.func @column(%in: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c64) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<64x64xf32>
    memref.store %v, %out[%j, %i] : memref<64x64xf32>
    scf.reduce
  }
  return
}

// -----

// No tiling for what map-to-launches does not run as an element-wise
// kernel: a loop of unknown trip count, one with results (the host would
// hold them; it and the rest run as one thread), one nested in a
// sequential loop, and loops after one with results.

// CHECK-LABEL: func.func @not_elementwise
// CHECK-NOT: aicc_gpu.tiles
// CHECK: return
func.func @not_elementwise(%in: memref<?xf32>, %out: memref<?xf32>,
                           %small: memref<8xf32>, %total: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %in[%i] : memref<?xf32>
    memref.store %v, %out[%i] : memref<?xf32>
    scf.reduce
  }
  %sum = scf.parallel (%i) = (%c0) to (%c8) step (%c1) init (%zero) -> f32 {
    %v = memref.load %small[%i] : memref<8xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  scf.for %k = %c0 to %c8 step %c1 {
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %small[%i] : memref<8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %small[%i] : memref<8xf32>
      scf.reduce
    }
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %small[%i] : memref<8xf32>
    memref.store %v, %small[%i] : memref<8xf32>
    scf.reduce
  }
  memref.store %sum, %total[] : memref<f32>
  return
}

// -----

// map-to-launches alone builds a recorded tiling as it is (64 threads of
// 4 halves, though 8 would fit); one the loop cannot take (16 halves a
// thread, past the widest row vector of 8 elements) is an error: it
// decides nothing. (One a launch could not have, of threads that are not
// whole warps, does not verify: test/dialects/AiccGPU/invalid.mlir.)
// With vector-bytes=0 tile selection takes one element a thread.

// RECORDED-LABEL: func.func @recorded
// RECORDED: gpu.launch blocks({{.*}}) in (%{{[^ ]*}} = %c256{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in (%{{[^ ]*}} = %c64{{(_[0-9]+)?}},
// RECORDED: vector.load %{{.*}} : memref<64x1024xf16>, vector<4xf16>
// SCALAR-LABEL: func.func @recorded
// SCALAR: config = #aicc_gpu.elementwise<threads = 256, lanes = 1>
func.func @recorded(%in: memref<64x1024xf16>, %out: memref<64x1024xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c1024) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<64x1024xf16>
    memref.store %v, %out[%i, %j] : memref<64x1024xf16>
    scf.reduce
  } {aicc_gpu.tiles = #tile.encoding<tiles = [256, 4], target = "cuda", config = #aicc_gpu.elementwise<threads = 64, lanes = 4>>}
  return
}

// -----

// RECORDED: error: aicc-gpu-map-to-launches: the loop cannot take 64 threads of 16 lanes
func.func @recorded_too_wide(%in: memref<64x1024xf16>,
                             %out: memref<64x1024xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c1024) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<64x1024xf16>
    memref.store %v, %out[%i, %j] : memref<64x1024xf16>
    scf.reduce
  } {aicc_gpu.tiles = #tile.encoding<tiles = [1024, 16], target = "cuda", config = #aicc_gpu.elementwise<threads = 64, lanes = 16>>}
  return
}
