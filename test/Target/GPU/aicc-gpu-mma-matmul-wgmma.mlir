// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true operand-type=f16" -aicc-gpu-mma-matmul="wgmma=true tma=false operand-type=f16" -cse | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true tile=128x128x64x3" -aicc-gpu-mma-matmul="wgmma=true tma=false" -cse | FileCheck %s --check-prefix=TILE

// wgmma (sm_90a): a 4096x2048 . 2048x4096 product in 128x256 blocks of two
// warpgroups (256 threads). One shared buffer holds 4 stages of A (128 rows
// of 64 k) and B (64 rows of 256 n) plus 1 KiB to align them on 1024
// bytes and 64 for TMA's mbarriers. With tma=false (TMA's form is
// aicc-gpu-mma-matmul-tma.mlir), cp.async copies two slices ahead (one group each), and each slice
// waits for its copies, fences them for the async proxy, meets at a
// barrier, starts the copy of slice + 2 and issues 4 wgmma m64n256k16 (B
// n-major: layout row), keeping one slice's group in flight.
// CHECK-LABEL: func.func @row_major_b
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c16, {{.*}} = %c32, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256,
// CHECK: memref.alloca() : memref<197696xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view {{.*}} to memref<98304xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-12: nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-12: nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for {{.*}} = %c0 to %c32
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// The sums leave through the stages' memory, rows of 256 + 8 f32 (the
// padding puts the 8-byte stores of a half-warp, 4 rows of 4 pairs, on
// distinct banks): once every thread is past its last products, each
// stores its 64 accumulator pairs there; past a barrier, it reads 8
// consecutive sums of a row back per step (16 steps, consecutive threads
// consecutive vectors of a row) and stores them as one 16-byte vector.
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[SUMS:.*]] = memref.view {{.*}} to memref<33792xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-64: vector.store %{{.*}}, %[[SUMS]][%{{.*}}] {alignment = 8 : i64} : memref<33792xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NOT: vector.store
// CHECK: gpu.barrier
// CHECK-COUNT-16: vector.load %[[SUMS]][%{{.*}}] {alignment = 16 : i64} : memref<33792xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK-NOT: vector<2xf16>
// CHECK: vector.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : memref<4096x4096xf16>, vector<8xf16>
// TILE-LABEL: func.func @row_major_b
// TILE: memref.alloca() : memref<99392xi8, #gpu.address_space<workgroup>>
// TILE: nvvm.cp.async.wait.group 0
// TILE: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
func.func @row_major_b(%a: memref<4096x2048xf16>, %b: memref<2048x4096xf16>, %c: memref<4096x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%zero : f16) outs(%c : memref<4096x4096xf16>) {
  ^bb0(%z: f16, %w: f16):
    linalg.yield %z : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x2048xf16>, memref<2048x4096xf16>) outs(%c : memref<4096x4096xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %o, %p : f16
    linalg.yield %s : f16
  }
  return
}


// -----

// B stored n x k (Gemm transB): k-major like A (layout col). 512 columns:
// 128x256 and 128x128 blocks would leave multiprocessors idle, 128x64 not.
// CHECK-LABEL: func.func @k_major_b
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
func.func @k_major_b(%a: memref<4096x256xf16>, %b: memref<512x256xf16>, %c: memref<4096x512xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%zero : f16) outs(%c : memref<4096x512xf16>) {
  ^bb0(%z: f16, %w: f16):
    linalg.yield %z : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x256xf16>, memref<512x256xf16>) outs(%c : memref<4096x512xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %o, %p : f16
    linalg.yield %s : f16
  }
  return
}


// -----

// Edges in m, n and k: a copy past one reads nothing and zero-fills its 16
// bytes (source elements 0), from indices clamped to 0. K of at most 1024:
// 128x128 blocks in 3 stages (two per multiprocessor), copies one slice
// ahead.
// CHECK-LABEL: func.func @edges
// CHECK: arith.select
// CHECK: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1} : memref<4100x520xf16>
// CHECK: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1} : memref<520x1000xf16>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// Staged stores past the last row (4100) or column (1000) are skipped.
// CHECK: vector.load {{.*}} : memref<17408xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %c4100 : index
// CHECK: %[[BOTH:.*]] = arith.andi %[[ROW]], %{{.*}} : i1
// CHECK: scf.if %[[BOTH]] {
// CHECK: vector.store {{.*}} : memref<4100x1000xf16>, vector<8xf16>
// The work recorded for the profile: 2 x 4100 x 1000 x 520 FLOPs, the
// product's and not its padding's, on tensor cores.
// CHECK: } {aicc_gpu.contraction = "f16:b1:m4100:n1000:k520:kr", aicc_gpu.flops = 4264000000 : i64, aicc_gpu.math = #aicc_gpu<math tensor16>, aicc_gpu.min_blocks_per_sm = 2 : i32, aicc_gpu.tiling = "128x128x64x3"}
func.func @edges(%a: memref<4100x520xf16>, %b: memref<520x1000xf16>, %c: memref<4100x1000xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%zero : f16) outs(%c : memref<4100x1000xf16>) {
  ^bb0(%z: f16, %w: f16):
    linalg.yield %z : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4100x520xf16>, memref<520x1000xf16>) outs(%c : memref<4100x1000xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %o, %p : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// Past 1024 in K, 128x256 blocks in 4 stages with the same edges, one
// block per multiprocessor.
// CHECK-LABEL: func.func @edges_wide
// CHECK-NOT: aicc_gpu.min_blocks_per_sm
// CHECK: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1} : memref<8196x1040xf16>
// CHECK: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1} : memref<1040x1000xf16>
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
func.func @edges_wide(%a: memref<8196x1040xf16>, %b: memref<1040x1000xf16>, %c: memref<8196x1000xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%zero : f16) outs(%c : memref<8196x1000xf16>) {
  ^bb0(%z: f16, %w: f16):
    linalg.yield %z : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8196x1040xf16>, memref<1040x1000xf16>) outs(%c : memref<8196x1000xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %o, %p : f16
    linalg.yield %s : f16
  }
  return
}


// -----

// A batch-1 projection: 128 rows and K up to 1024 take 128x64 wgmma blocks
// in 4 stages, though 12 blocks leave most multiprocessors idle.
// CHECK-LABEL: func.func @small
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c12, {{.*}} = %c1, {{.*}} = %c1)
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: aicc_gpu.tiling = "128x64x64x4"
func.func @small(%a: memref<128x768xf16>, %b: memref<768x768xf16>, %c: memref<128x768xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%zero : f16) outs(%c : memref<128x768xf16>) {
  ^bb0(%z: f16, %w: f16):
    linalg.yield %z : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x768xf16>, memref<768x768xf16>) outs(%c : memref<128x768xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %o, %p : f16
    linalg.yield %s : f16
  }
  return
}


// -----

// f32 operands multiplied in f16 are converted as they are read: cp.async
// cannot, so mma.sync.
// CHECK-LABEL: func.func @f32_operands
// CHECK-NOT: nvvm.wgmma
// CHECK: nvgpu.mma.sync
func.func @f32_operands(%a: memref<4096x512xf32>, %b: memref<512x4096xf32>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%z: f32, %w: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x512xf32>, memref<512x4096xf32>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A 1x1 convolution large enough for wgmma: the filter, viewed as
// [g, f, 1, 1, c], is A along k; the image's pixels, one dimension of a
// view, are B's rows; both copied 16 bytes at a time. M is 256 filters:
// blocks of 128 x 64 (few rows of blocks).
// CHECK-LABEL: func.func @convolution_1x1_wgmma
// CHECK-DAG: %[[IMAGE:.*]] = memref.reinterpret_cast %{{.*}} sizes: [8, 1, 256, 4096]
// CHECK-DAG: %[[FILTER:.*]] = memref.reinterpret_cast %{{.*}} sizes: [1, 256, 1, 1, 256]
// CHECK: nvgpu.device_async_copy %[[FILTER]]{{.*}}, 8 {bypassL1}
// CHECK: nvgpu.device_async_copy %[[IMAGE]]{{.*}}, 8 {bypassL1}
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
func.func @convolution_1x1_wgmma(%x: memref<8x1x256x64x64xf16>, %w: memref<1x256x256x1x1xf16>, %y: memref<8x1x256x64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, h, w, c, kh, kw) -> (n, g, c, h + kh, w + kw)>,
                                   affine_map<(n, g, f, h, w, c, kh, kw) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, h, w, c, kh, kw) -> (n, g, f, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<8x1x256x64x64xf16>, memref<1x256x256x1x1xf16>) outs(%y : memref<8x1x256x64x64xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
