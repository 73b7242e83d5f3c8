// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles -aicc-gpu-mma-matmul -cse | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="operand-type=bf16" -aicc-gpu-mma-matmul="operand-type=bf16" -cse | FileCheck %s --check-prefix=BF16
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="operand-type=f16" -aicc-gpu-mma-matmul="operand-type=f16" -cse | FileCheck %s --check-prefix=F16
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-mma-matmul="operand-type=f8" 2>&1 | FileCheck %s --check-prefix=BADTYPE
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="tile=64x64x32x2" -aicc-gpu-mma-matmul -cse | FileCheck %s --check-prefix=STAGED
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="tile=64x64x32x3" -aicc-gpu-mma-matmul -cse 2>%t.err | FileCheck %s --check-prefix=ASYNC
// RUN: FileCheck %s --check-prefix=ASYNCREFUSED < %t.err
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="tile=128x128x20" -aicc-gpu-mma-matmul 2>&1 | FileCheck %s --check-prefix=BADTILE
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="tile=128x256x64x2" -aicc-gpu-mma-matmul 2>&1 | FileCheck %s --check-prefix=BADTILE
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="tile=128x128x64x3" -aicc-gpu-mma-matmul 2>&1 | FileCheck %s --check-prefix=BADTILE

// BADTYPE: aicc-gpu-mma-matmul: operand-type must be f16, bf16 or tf32, not 'f8'
// BADTILE: aicc-gpu-choose-tiles: tile '{{.*}}' is not BMxBNxBK[xSTAGES][/SPLITS] with whole warp tiles, BK a multiple of 16, 1 or 2 stages in at most 48 KiB of shared memory or 3 to 8 cp.async stages in at most 96 KiB

// cp.async stages (tile=64x64x32x3) only where both operands are read 8
// halves at a time: @product's B (50 columns) is not.
// ASYNCREFUSED: error: aicc-gpu-choose-tiles: the tile 64x64x32x3 cannot run f16:b1:m70:n50:k40:ks: some of its K splits would get no slices, its cp.async stages need both operands read 8 halves at a time

// A product of f16 operands, 70x40 · 40x50, into f32: 64x64 blocks of four
// warps (1 across n, 2 down m), slices of A and B staged in padded shared
// buffers, fragments by ldmatrix, m16n8k16 tensor-core products; edges past
// M (70) and K (40) read zeros, and only rows and columns inside the output
// are written, added to what it held. A's rows (k, 40 of them) are read 8
// halves at a time; B's (n, 50) are not a multiple of 8: one at a time.

// CHECK-LABEL: func.func @product
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[THREADS:.*]] = arith.constant 128 : index
// CHECK: gpu.launch blocks(%{{[^,]*}}, %{{[^,]*}}, %{{[^)]*}}) in (%{{[^ ]*}} = %[[ONE]], %{{[^ ]*}} = %[[TWO]], %{{[^ ]*}} = %[[ONE]]) threads(%{{[^,]*}}, %{{[^,]*}}, %{{[^)]*}}) in (%{{[^ ]*}} = %[[THREADS]],
// CHECK: %[[SA:.*]] = memref.alloca() : memref<64x40xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.alloca() : memref<64x40xf16, #gpu.address_space<workgroup>>
// CHECK: scf.if
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<70x40xf16>, vector<8xf16>
// CHECK: scf.if
// CHECK: memref.load %{{.*}} : memref<40x50xf16>
// CHECK: scf.for {{.*}} -> (vector<2x2xf32>,
// CHECK: vector.store %{{.*}}, %[[SA]][{{.*}}] {alignment = 16 : i64} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: memref.store %{{.*}}, %[[SB]]
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[SA]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %[[SB]]
// CHECK: vector.extract %{{.*}}[0] : vector<2xf16> from vector<4x2xf16>
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK: vector.extract
// CHECK: scf.if
// Columns 2 (lane % 4) and the next as one 2-element access.
// CHECK: vector.load %{{.*}} : memref<70x50xf32>, vector<2xf32>
// CHECK: arith.addf
// CHECK: vector.store %{{.*}} : memref<70x50xf32>, vector<2xf32>
// CHECK-NOT: linalg.generic
func.func @product(%a: memref<70x40xf16>, %b: memref<40x50xf16>, %c: memref<70x50xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<70x40xf16>, memref<40x50xf16>) outs(%c : memref<70x50xf32>) {
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

// f32 operands use the tensor cores only when an operand type is named;
// they are converted as they are read.

// CHECK-LABEL: func.func @negative_f32_product
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// F16-LABEL: func.func @negative_f32_product
// F16: vector.load %{{.*}} : memref<64x32xf32>, vector<8xf32>
// F16: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// F16: nvgpu.mma.sync{{.*}}(vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>)
// BF16-LABEL: func.func @negative_f32_product
// BF16: memref.alloca() : memref<64x40xbf16, #gpu.address_space<workgroup>>
// BF16: arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// BF16: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// BF16: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @negative_f32_product(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batched product with exact tiles: the batch runs along the grid's z,
// and nothing is bounds-checked. B (k x n, n contiguous) is read 8 columns
// at a time into a tile of k rows, whose fragments ldmatrix reads
// transposed.

// With two stages (tile=64x64x32x2) each operand has two shared buffers:
// the next slice goes into the other one while the tensor cores read this
// one, and one barrier per slice separates them.

// With three cp.async stages (tile=64x64x32x3) the copies go straight
// from global to shared memory, two slices ahead: the first two before the
// loop, one group each; per slice, a wait for all but the newest group
// (the current slice's copies done), one barrier, the copies of slice
// i + 2 into its buffers ((i + 2) % 3: those of slice i - 1; none past the
// last slice), then the products of slice i from buffers i % 3. (K = 64:
// two slices, as many as are copied ahead.)

// ASYNC-LABEL: func.func @batched
// ASYNC: %[[SA:.*]] = memref.alloca() : memref<3x64x40xf16, #gpu.address_space<workgroup>>
// ASYNC: %[[SB:.*]] = memref.alloca() : memref<3x32x72xf16, #gpu.address_space<workgroup>>
// ASYNC-COUNT-2: nvgpu.device_async_copy %arg0[{{.*}}], %[[SA]][{{.*}}], 8 {bypassL1}
// ASYNC-COUNT-2: nvgpu.device_async_copy %arg1[{{.*}}], %[[SB]][{{.*}}], 8 {bypassL1}
// ASYNC: nvvm.cp.async.commit.group
// ASYNC: scf.if
// ASYNC: nvvm.cp.async.commit.group
// ASYNC-NOT: vector.store
// ASYNC: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// ASYNC-NEXT: nvvm.cp.async.wait.group 1
// ASYNC-NEXT: gpu.barrier
// ASYNC: %[[NEXT:.*]] = arith.addi %[[I]], %c2
// ASYNC: %[[ANY:.*]] = arith.cmpi ult, %[[NEXT]], %c2
// ASYNC-NEXT: scf.if %[[ANY]]
// ASYNC: %[[TO:.*]] = arith.remui %[[NEXT]], %{{.*}} : index
// ASYNC: nvgpu.device_async_copy %arg0[{{.*}}], %[[SA]][%[[TO]], {{.*}}]
// ASYNC: nvgpu.device_async_copy %arg1[{{.*}}], %[[SB]][%[[TO]], {{.*}}]
// ASYNC: nvvm.cp.async.commit.group
// ASYNC-NEXT: %[[C3:.*]] = arith.constant 3 : index
// ASYNC-NEXT: %[[AT:.*]] = arith.remui %[[I]], %[[C3]] : index
// ASYNC-NOT: gpu.barrier
// ASYNC: nvgpu.ldmatrix %[[SA]][%[[AT]],
// ASYNC-NOT: gpu.barrier
// ASYNC: nvgpu.mma.sync
// ASYNC-NOT: gpu.barrier
// ASYNC: scf.yield
// ASYNC-NEXT: }
// ASYNC-NEXT: nvvm.cp.async.wait.group 0

// STAGED-LABEL: func.func @batched
// STAGED: %[[SA:.*]] = memref.alloca() : memref<2x64x40xf16, #gpu.address_space<workgroup>>
// STAGED: %[[SB:.*]] = memref.alloca() : memref<2x32x72xf16, #gpu.address_space<workgroup>>
// STAGED: vector.store %{{.*}}, %[[SA]][%{{.*}}, %{{.*}}, %{{.*}}]
// STAGED: gpu.barrier
// STAGED: scf.for
// STAGED-NOT: gpu.barrier
// STAGED: vector.load
// STAGED-NOT: gpu.barrier
// STAGED: nvgpu.ldmatrix %[[SA]][%{{.*}}, %{{.*}}, %{{.*}}]
// STAGED-NOT: gpu.barrier
// STAGED: nvgpu.mma.sync
// STAGED-NOT: gpu.barrier
// STAGED: vector.store %{{.*}}, %[[SB]]
// STAGED: gpu.barrier
// STAGED-NEXT: scf.yield

// CHECK-LABEL: func.func @batched
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[BATCH:.*]] = arith.constant 12 : index
// CHECK: gpu.launch blocks(%{{[^,]*}}, %{{[^,]*}}, %{{[^)]*}}) in (%{{[^ ]*}} = %[[ONE]], %{{[^ ]*}} = %[[ONE]], %{{[^ ]*}} = %[[BATCH]])
// CHECK: %[[SA:.*]] = memref.alloca() : memref<64x40xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.alloca() : memref<32x72xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: scf.if
// CHECK: vector.load %{{.*}} : memref<12x64x64xf16>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %[[SB]]
// CHECK: nvgpu.ldmatrix %[[SA]][{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %[[SB]][{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK: nvgpu.mma.sync
// CHECK-NOT: scf.if
// CHECK: gpu.terminator
func.func @batched(%a: memref<12x64x64xf16>, %b: memref<12x64x64xf16>, %c: memref<12x64x64xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<12x64x64xf16>, memref<12x64x64xf16>) outs(%c : memref<12x64x64xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %o, %p : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// A direct convolution (N C H W, 3x3, 4 -> 16 channels) is an implicit
// GEMM: M = 2 * 6 * 6 output pixels, N = 16 channels, K = 4 * 3 * 3 taps,
// each recovered from its flat index; the input's rows are walked along
// the pixels, its fastest dimension.

// CHECK-LABEL: func.func @convolution
// CHECK: gpu.launch
// CHECK: arith.remui
// CHECK: arith.divui
// CHECK: memref.load %{{.*}} : memref<2x4x8x8xf16>
// CHECK: nvgpu.mma.sync
// CHECK: memref.store %{{.*}} : memref<2x16x6x6xf32>
func.func @convolution(%x: memref<2x4x8x8xf16>, %w: memref<16x4x3x3xf16>, %y: memref<2x16x6x6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, f, h, w, c, kh, kw) -> (n, c, h + kh, w + kw)>,
                                   affine_map<(n, f, h, w, c, kh, kw) -> (f, c, kh, kw)>,
                                   affine_map<(n, f, h, w, c, kh, kw) -> (n, f, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<2x4x8x8xf16>, memref<16x4x3x3xf16>) outs(%y : memref<2x16x6x6xf32>) {
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

// A 1x1 convolution (the importer's grouped form: one group, unit filter
// loops) is a product of the filter and the image's pixels: the filter is
// viewed as [g, f, 1, 1, c] and read along c (A, 16 bytes at a time), the
// image as [n, g, c, h * w] and read along the pixels (B); the unit loops
// stay in the maps. The pixels are the columns: sums stored two at a time.

// CHECK-LABEL: func.func @convolution_1x1
// CHECK-DAG: %[[IMAGE:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 1, 64, 256], strides: [16384, 16384, 256, 1]
// CHECK-DAG: %[[FILTER:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [1, 128, 1, 1, 64], strides: [8192, 64, 1, 1, 1]
// CHECK: gpu.launch
// CHECK: vector.load %[[FILTER]][%c0, %{{.*}}, %c0, %c0, %{{.*}}] {alignment = 16 : i64} : memref<1x128x1x1x64xf16, strided<[8192, 64, 1, 1, 1]>>, vector<8xf16>
// CHECK: vector.load %[[IMAGE]][%{{.*}}, %c0, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<2x1x64x256xf16, strided<[16384, 16384, 256, 1]>>, vector<8xf16>
// CHECK: nvgpu.mma.sync
// CHECK: vector.store %{{.*}} : memref<2x1x128x16x16xf32>, vector<2xf32>
func.func @convolution_1x1(%x: memref<2x1x64x16x16xf16>, %w: memref<1x128x64x1x1xf16>, %y: memref<2x1x128x16x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, h, w, c, kh, kw) -> (n, g, c, h + kh, w + kw)>,
                                   affine_map<(n, g, f, h, w, c, kh, kw) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, h, w, c, kh, kw) -> (n, g, f, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<2x1x64x16x16xf16>, memref<1x128x64x1x1xf16>) outs(%y : memref<2x1x128x16x16xf32>) {
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

// Strided, the image's pixels are not contiguous: the filter is still A,
// read along c, the image element by element.

// CHECK-LABEL: func.func @convolution_1x1_strided
// CHECK: %[[FILTER:.*]] = memref.reinterpret_cast %{{.*}} sizes: [1, 128, 1, 1, 64]
// CHECK-NOT: memref.reinterpret_cast
// CHECK: gpu.launch
// CHECK: vector.load %[[FILTER]]
// CHECK: memref.load %{{.*}} : memref<2x1x64x32x32xf16>
// CHECK: nvgpu.mma.sync
func.func @convolution_1x1_strided(%x: memref<2x1x64x32x32xf16>, %w: memref<1x128x64x1x1xf16>, %y: memref<2x1x128x16x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, h, w, c, kh, kw) -> (n, g, c, h * 2 + kh, w * 2 + kw)>,
                                   affine_map<(n, g, f, h, w, c, kh, kw) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, h, w, c, kh, kw) -> (n, g, f, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<2x1x64x32x32xf16>, memref<1x128x64x1x1xf16>) outs(%y : memref<2x1x128x16x16xf32>) {
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

// A matrix-vector product is memory-bound: it stays on the CUDA cores.

// CHECK-LABEL: func.func @negative_matrix_vector
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @negative_matrix_vector(%a: memref<1x64xf16>, %b: memref<64x64xf16>, %c: memref<1x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<1x64xf16>, memref<64x64xf16>) outs(%c : memref<1x64xf32>) {
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

// Not a contraction (a max-reduction): untouched.

// CHECK-LABEL: func.func @negative_max
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @negative_max(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.maximumf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A view whose rows start 4 halves (8 bytes) off a 16-byte boundary, and a
// B whose columns are not its contiguous dimension's alone (n twice): both
// read one element at a time.

// CHECK-LABEL: func.func @unaligned_views
// CHECK: gpu.launch
// CHECK-NOT: vector.load
// CHECK: memref.load %{{.*}} : memref<64x32xf16, strided<[40, 1], offset: 4>>
// CHECK-NOT: vector.load
// CHECK: nvgpu.mma.sync
func.func @unaligned_views(%a: memref<64x32xf16, strided<[40, 1], offset: 4>>, %b: memref<64x96xf16>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d1, d1 + d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf16, strided<[40, 1], offset: 4>>, memref<64x96xf16>) outs(%c : memref<64x64xf32>) {
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

// The zero fill right before a product is dropped: the product stores its
// sums instead of adding them to the output. A grid of 128x128 blocks that
// fills the 132 multiprocessors, both operands read 16 bytes at a time:
// slices 64 deep.

// CHECK-LABEL: func.func @zero_fill_absorbed
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch
// CHECK: memref.alloca() : memref<128x72xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<64x136xf16, #gpu.address_space<workgroup>>
// CHECK: scf.yield
// CHECK-NOT: memref.load
// CHECK: vector.store %{{.*}} : memref<2048x1536xf16>, vector<2xf16>
// CHECK: gpu.terminator
func.func @zero_fill_absorbed(%a: memref<2048x256xf16>, %b: memref<256x1536xf16>, %c: memref<2048x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%zero : f16) outs(%c : memref<2048x1536xf16>) {
  ^bb0(%z: f16, %o: f16):
    linalg.yield %z : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2048x256xf16>, memref<256x1536xf16>) outs(%c : memref<2048x1536xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %o, %p : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// A fill of another value stays, and the product adds to it.

// CHECK-LABEL: func.func @nonzero_fill_kept
// CHECK: linalg.generic
// CHECK: gpu.launch
// CHECK: scf.yield
// CHECK: vector.load %{{.*}} : memref<64x64xf32>, vector<2xf32>
// CHECK: arith.addf
// CHECK: vector.store %{{.*}} : memref<64x64xf32>, vector<2xf32>
func.func @nonzero_fill_kept(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%one : f32) outs(%c : memref<64x64xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>) {
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

// A 128x3072 . 3072x768 product has 24 tiles of 64x64 for 132
// multiprocessors: K's 96 slices are split 11 ways (9 each, the last 6),
// grid z counting the splits; each split stores into its plane of an f32
// workspace, and an element-wise sum of the 11 planes writes the output,
// whose zero fill is absorbed.
// CHECK-LABEL: func.func @split_k
// CHECK: %[[WS:.*]] = memref.alloc() : memref<11x128x768xf32>
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c12, %{{.*}} = %c2, %{{.*}} = %c11)
// CHECK: arith.minui %c9
// CHECK: memref.store %{{.*}}, %[[WS]][
// CHECK: gpu.terminator
// CHECK: memref.subview %[[WS]][0, 0, 0] [1, 128, 768]
// CHECK: memref.subview %[[WS]][10, 0, 0] [1, 128, 768]
// CHECK: linalg.generic {{.*}} outs(%arg2 : memref<128x768xf32>)
// CHECK-COUNT-10: arith.addf
// CHECK: linalg.yield
func.func @split_k(%a: memref<128x3072xf16>, %w: memref<3072x768xf16>, %c: memref<128x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<128x768xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<128x3072xf16>, memref<3072x768xf16>) outs(%c : memref<128x768xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The bias and ReLU after a product that only they read run in the
// product's kernel: each sum gets the bias of its column, the maximum and
// the cast, and goes to the op's output; the f32 buffer and its fill go.
// The two columns' biases are read with one load.
// CHECK-LABEL: func.func @epilogue
// CHECK-NOT: memref.alloc()
// CHECK: gpu.launch
// CHECK: %[[BIASES:.*]] = vector.load %arg2[%[[COL:.*]]] {alignment = 4 : i64} : memref<1024xf16>, vector<2xf16>
// CHECK: %[[BIAS:.*]] = vector.extract %[[BIASES]][0]
// CHECK: %[[BIAS2:.*]] = vector.extract %[[BIASES]][1]
// CHECK: %[[B:.*]] = arith.extf %[[BIAS]]
// CHECK: %[[T:.*]] = arith.addf %{{.*}}, %[[B]]
// CHECK: %[[R:.*]] = arith.maximumf %[[T]]
// CHECK: %[[H:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK: arith.extf %[[BIAS2]]
// CHECK: %[[H2:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[V:.*]] = vector.from_elements %[[H]], %[[H2]] : vector<2xf16>
// CHECK: vector.store %[[V]], %arg3[%{{.*}}, %[[COL]]] {{.*}} : memref<1024x1024xf16>, vector<2xf16>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @epilogue(%a: memref<1024x512xf16>, %w: memref<512x1024xf16>, %bias: memref<1024xf16>, %y: memref<1024x1024xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1024x1024xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<1024x1024xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<1024x512xf16>, memref<512x1024xf16>) outs(%c : memref<1024x1024xf32>) {
  ^bb0(%x: f16, %v: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ve = arith.extf %v : f16 to f32
    %m = arith.mulf %xe, %ve : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<1024x1024xf32>, memref<1024xf16>) outs(%y : memref<1024x1024xf16>) {
  ^bb0(%s: f32, %b: f16, %o: f16):
    %be = arith.extf %b : f16 to f32
    %t = arith.addf %s, %be : f32
    %r = arith.maximumf %t, %zero : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  }
  return
}

// -----

// Attention's head merge: the batched product P x V ([b, h, s, d]) read by
// a transpose to [b, s, h, d] with a cast. The transpose is the product's
// epilogue: each sum goes to its place in the [b, s, h, d] output, two
// columns (d) per store, and neither the f32 buffer nor the copy remains.
// CHECK-LABEL: func.func @epilogue_head_merge
// CHECK-NOT: memref.alloc()
// CHECK: gpu.launch
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[H2:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[V:.*]] = vector.from_elements %[[H]], %[[H2]] : vector<2xf16>
// CHECK: vector.store %[[V]], %arg2[%[[B:.*]], %[[S:.*]], %[[HEAD:.*]], %[[D:.*]]] {{.*}} : memref<2x128x12x64xf16>, vector<2xf16>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @epilogue_head_merge(%p: memref<2x12x128x128xf16>, %v: memref<2x12x128x64xf16>, %y: memref<2x128x12x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x12x128x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<2x12x128x64xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : memref<2x12x128x128xf16>, memref<2x12x128x64xf16>) outs(%c : memref<2x12x128x64xf32>) {
  ^bb0(%x: f16, %w: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %we = arith.extf %w : f16 to f32
    %m = arith.mulf %xe, %we : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<2x12x128x64xf32>) outs(%y : memref<2x128x12x64xf16>) {
  ^bb0(%s: f32, %o: f16):
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  }
  return
}

// -----

// The product's buffer is also copied out after its cast: no epilogue,
// the sums are stored and the cast stays a separate op.
// CHECK-LABEL: func.func @negative_epilogue_shared
// CHECK: %[[C:.*]] = memref.alloc() : memref<1024x1024xf32>
// CHECK: gpu.launch
// CHECK: vector.store %{{.*}}, %[[C]][
// CHECK: gpu.terminator
// CHECK: linalg.generic {{.*}} ins(%[[C]] : memref<1024x1024xf32>)
// CHECK: memref.copy %[[C]], %arg3
func.func @negative_epilogue_shared(%a: memref<1024x512xf16>, %w: memref<512x1024xf16>, %y: memref<1024x1024xf16>, %z: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1024x1024xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<1024x1024xf32>) {
  ^bb0(%q: f32, %o: f32):
    linalg.yield %q : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<1024x512xf16>, memref<512x1024xf16>) outs(%c : memref<1024x1024xf32>) {
  ^bb0(%x: f16, %v: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ve = arith.extf %v : f16 to f32
    %m = arith.mulf %xe, %ve : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<1024x1024xf32>) outs(%y : memref<1024x1024xf16>) {
  ^bb0(%s: f32, %o: f16):
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  }
  memref.copy %c, %z : memref<1024x1024xf32> to memref<1024x1024xf32>
  return
}

// -----

// The product's buffer reshaped to 1x128x768 before its bias, whose
// output is allocated in between: the allocation moves before the
// product, the kernel's partial sums go to planes of the bias op's shape
// (each sum's row-major position kept: the unit dimension's index is 0,
// the others pass through, no divisions), and the split-K sum computes the
// bias.
// CHECK-LABEL: func.func @epilogue_through_reshape
// CHECK: %[[R:.*]] = memref.alloc() : memref<1x128x768xf16>
// CHECK: %[[WS:.*]] = memref.alloc() : memref<6x1x128x768xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[WS]][%{{[^,]*}}, %c0, %{{[^,]*}}, %{{[^,]*}}]
// CHECK: gpu.terminator
// CHECK-NOT: memref.expand_shape
// CHECK: linalg.generic {{.*}} outs(%[[R]] : memref<1x128x768xf16>)
// CHECK-COUNT-6: arith.addf
// CHECK: arith.truncf
// CHECK: memref.copy %[[R]], %arg3
func.func @epilogue_through_reshape(%a: memref<128x768xf16>, %w: memref<768x768xf16>, %bias: memref<768xf16>, %y: memref<1x128x768xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<128x768xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<128x768xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<128x768xf16>, memref<768x768xf16>) outs(%c : memref<128x768xf32>) {
  ^bb0(%x: f16, %v: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ve = arith.extf %v : f16 to f32
    %m = arith.mulf %xe, %ve : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  %e = memref.expand_shape %c [[0, 1], [2]] output_shape [1, 128, 768] : memref<128x768xf32> into memref<1x128x768xf32>
  %r = memref.alloc() : memref<1x128x768xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %bias : memref<1x128x768xf32>, memref<768xf16>) outs(%r : memref<1x128x768xf16>) {
  ^bb0(%s: f32, %b: f16, %o: f16):
    %be = arith.extf %b : f16 to f32
    %t = arith.addf %s, %be : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  }
  memref.copy %r, %y : memref<1x128x768xf16> to memref<1x128x768xf16>
  return
}

// -----

// Two products share one buffer and one reshape of it (bufferization
// does this to a layer's query and key projections): each reads the
// buffer's contents from its own fill to its epilogue, so both epilogues
// fuse into their split-K sums; the reshape stays for neither.
// CHECK-LABEL: func.func @epilogue_shared_buffer_and_reshape
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: linalg.generic {{.*}} outs(%arg2 : memref<1x128x768xf16>)
// CHECK: arith.truncf
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: linalg.generic {{.*}} outs(%arg3 : memref<1x128x768xf16>)
// CHECK: arith.truncf
// CHECK-NOT: linalg.generic
func.func @epilogue_shared_buffer_and_reshape(%a: memref<128x768xf16>, %w: memref<768x768xf16>, %q: memref<1x128x768xf16>, %k: memref<1x128x768xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<128x768xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<128x768xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<128x768xf16>, memref<768x768xf16>) outs(%c : memref<128x768xf32>) {
  ^bb0(%x: f16, %v: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ve = arith.extf %v : f16 to f32
    %m = arith.mulf %xe, %ve : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  %e = memref.expand_shape %c [[0, 1], [2]] output_shape [1, 128, 768] : memref<128x768xf32> into memref<1x128x768xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : memref<1x128x768xf32>) outs(%q : memref<1x128x768xf16>) {
  ^bb0(%s: f32, %o: f16):
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<128x768xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<128x768xf16>, memref<768x768xf16>) outs(%c : memref<128x768xf32>) {
  ^bb0(%x: f16, %v: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ve = arith.extf %v : f16 to f32
    %m = arith.mulf %xe, %ve : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : memref<1x128x768xf32>) outs(%k : memref<1x128x768xf16>) {
  ^bb0(%s: f32, %o: f16):
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  }
  return
}

// -----

// The bias op writes into the product's operand A (bufferization reuses
// the buffer): with K split it runs in the sum kernel, after the product
// kernel has read A, and is fused there.
// CHECK-LABEL: func.func @epilogue_over_operand_split
// CHECK: %[[A:.*]] = memref.alloc() : memref<128x768xf16>
// CHECK: %[[WS:.*]] = memref.alloc() : memref<6x128x768xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[WS]][
// CHECK: gpu.terminator
// CHECK: linalg.generic {{.*}} outs(%[[A]] : memref<128x768xf16>)
// CHECK-COUNT-5: arith.addf
// CHECK: arith.extf
// CHECK: arith.addf
// CHECK: arith.truncf
func.func @epilogue_over_operand_split(%w: memref<768x768xf16>, %bias: memref<768xf16>) -> memref<128x768xf16> {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<128x768xf16>
  %c = memref.alloc() : memref<128x768xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<128x768xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<128x768xf16>, memref<768x768xf16>) outs(%c : memref<128x768xf32>) {
  ^bb0(%x: f16, %v: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ve = arith.extf %v : f16 to f32
    %m = arith.mulf %xe, %ve : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<128x768xf32>, memref<768xf16>) outs(%a : memref<128x768xf16>) {
  ^bb0(%s: f32, %b: f16, %o: f16):
    %be = arith.extf %b : f16 to f32
    %t = arith.addf %s, %be : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  }
  return %a : memref<128x768xf16>
}

// -----

// The same without a split (256 tiles): in the product's kernel it would
// overwrite A while other blocks read it, so it stays a separate op.
// CHECK-LABEL: func.func @negative_epilogue_over_operand
// CHECK: %[[A:.*]] = memref.alloc() : memref<1024x1024xf16>
// CHECK: %[[C:.*]] = memref.alloc() : memref<1024x1024xf32>
// CHECK: gpu.launch
// CHECK: vector.store %{{.*}}, %[[C]][
// CHECK: gpu.terminator
// CHECK: linalg.generic {{.*}} ins(%[[C]], %arg1 : {{.*}}) outs(%[[A]] :
func.func @negative_epilogue_over_operand(%w: memref<1024x1024xf16>, %bias: memref<1024xf16>) -> memref<1024x1024xf16> {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<1024x1024xf16>
  %c = memref.alloc() : memref<1024x1024xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<1024x1024xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<1024x1024xf16>, memref<1024x1024xf16>) outs(%c : memref<1024x1024xf32>) {
  ^bb0(%x: f16, %v: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ve = arith.extf %v : f16 to f32
    %m = arith.mulf %xe, %ve : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<1024x1024xf32>, memref<1024xf16>) outs(%a : memref<1024x1024xf16>) {
  ^bb0(%s: f32, %b: f16, %o: f16):
    %be = arith.extf %b : f16 to f32
    %t = arith.addf %s, %be : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  }
  return %a : memref<1024x1024xf16>
}
