// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="operand-type=tf32" -aicc-gpu-mma-matmul="operand-type=tf32" -cse | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="operand-type=tf32" | FileCheck %s --check-prefix=TILES
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles -aicc-gpu-mma-matmul | FileCheck %s --check-prefix=NONE
// RUN: not aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="operand-type=tf32 tile=128x128x64" -aicc-gpu-mma-matmul="operand-type=tf32" 2>&1 | FileCheck %s --check-prefix=BIG

// f32 operands on the tensor cores in tf32 (aicc --allow-tf32): the same
// kernel on f32 tiles. Each element is rounded to tf32 (cvt.rna, inline
// PTX) as it is read, 8 at a time (two 16-byte pieces); rows of A (k
// contiguous) are padded by 16 bytes and read by ldmatrix as 8x8 b16
// matrices (8 rows of 4 f32); B, contiguous along n, is kept as rows of k
// padded by 32 bytes, which ldmatrix cannot transpose at 32 bits: each
// lane reads its elements of the fragment one by one. m16n8k8 products,
// four per 32-deep slice and tile pair.

// CHECK-LABEL: func.func @along_n
// CHECK: %[[SA:.*]] = memref.alloca() : memref<64x36xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.alloca() : memref<32x72xf32, #gpu.address_space<workgroup>>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<128x64xf32>, vector<8xf32>
// CHECK: llvm.inline_asm "cvt.rna.tf32.f32 $0, $1;", "=r,f" %{{.*}} : (f32) -> i32
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK: scf.for
// CHECK: nvgpu.ldmatrix %[[SA]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<64x36xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// CHECK: memref.load %[[SB]][{{.*}}] : memref<32x72xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: linalg.generic

// TILES-LABEL: func.func @along_n
// TILES: aicc_gpu.tiles = #tile.encoding<tiles = [64x64x32, 32x32x32, 16x8x8], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 1, splits = 1, signature = "tf32:b1:m128:n96:k64:kr">>

// Without operand-type, f32 products stay off the tensor cores.
// NONE-LABEL: func.func @along_n
// NONE: linalg.generic
// NONE-NOT: nvgpu.mma.sync

// BIG: error: aicc-gpu-choose-tiles: the tile 128x128x64 cannot run tf32:b1:m128:n96:k64:kr: some of its K splits would get no slices, its cp.async stages need both operands read 8 halves at a time, or its tf32 tiles need more shared memory than they may have
func.func @along_n(%a: memref<128x64xf32>, %b: memref<64x96xf32>, %c: memref<128x96xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x64xf32>, memref<64x96xf32>) outs(%c : memref<128x96xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// B read along k (a Gemm's transposed weight): both tiles by ldmatrix,
// B's four matrices split into the fragments of two n8 tiles.

// CHECK-LABEL: func.func @along_k
// CHECK: %[[SB:.*]] = memref.alloca() : memref<128x36xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.ldmatrix %[[SB]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<128x36xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// CHECK: vector.extract %{{.*}}[2] : vector<1xf32> from vector<4x1xf32>
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
// CHECK-NOT: memref.load %[[SB]]

// 128x128 blocks are 32 deep in tf32 (64 for halves).
// TILES-LABEL: func.func @along_k
// TILES: tiles = [128x128x32, 64x32x32, 16x8x8]
// TILES-SAME: signature = "tf32:b1:m2048:n2048:k512:kk"
func.func @along_k(%a: memref<2048x512xf32>, %b: memref<2048x512xf32>, %c: memref<2048x2048xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2048x512xf32>, memref<2048x512xf32>) outs(%c : memref<2048x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
