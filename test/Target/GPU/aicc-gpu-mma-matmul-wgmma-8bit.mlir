// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true" -aicc-gpu-mma-matmul="wgmma=true tma=false" -cse | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true" -aicc-gpu-mma-matmul="wgmma=true tma=true" -cse | FileCheck %s --check-prefix=TMA
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles -aicc-gpu-mma-matmul -cse | FileCheck %s --check-prefix=NOWGMMA

// 8-bit integer products on wgmma (sm_90a): m64nBNk32 with i32 sums, u8
// or s8 as the body extends each operand, from 128-byte slices of 128 k;
// fp8 products likewise with f32 sums (last cases).
// Both operands are k-contiguous. With tma=false each thread copies
// 16-byte pieces of 16 elements by cp.async; with TMA one thread copies
// the slices' boxes (128 k by the block's rows).

// CHECK-LABEL: func.func @u8_by_s8
// CHECK: gpu.launch
// CHECK: nvgpu.device_async_copy %arg0[{{.*}}], %{{.*}}[{{.*}}], 16 {bypassL1} : memref<4096x2048xi8> to memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %{{.*}}[{{.*}}], 16 {bypassL1} : memref<4096x2048xi8> to memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 32>, D[<s32>, <one>], A[<u8>, <one>, <row>], B[<s8>, <one>, <col>]
// CHECK: aicc_gpu.contraction = "i8:b1:m4096:n4096:k2048:kk"{{.*}}aicc_gpu.tiling = "128x256x128x4"

// TMA-LABEL: func.func @u8_by_s8
// TMA-NOT: nvgpu.device_async_copy
// TMA: nvvm.cp.async.bulk.tensor.shared.cluster.global
// TMA: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 32>, D[<s32>, <one>], A[<u8>, <one>, <row>], B[<s8>, <one>, <col>]
func.func @u8_by_s8(%a: memref<4096x2048xi8>, %b: memref<4096x2048xi8>, %c: memref<4096x4096xi32>) {
  %zero = arith.constant 0 : i32
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<4096x4096xi32>) {
  ^bb0(%out: i32):
    linalg.yield %zero : i32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4096x2048xi8>, memref<4096x2048xi8>) outs(%c : memref<4096x4096xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extui %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// -----

// Rows of 2056 bytes: neither TMA (strides of whole 16 bytes) nor 16-byte
// pieces can read them, so mma.sync takes the product, 128x128 blocks
// read 8 bytes at a time.

// CHECK-LABEL: func.func @rows_of_8_bytes
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 32>
// CHECK: aicc_gpu.tiling = "128x128x64x1"
// TMA-LABEL: func.func @rows_of_8_bytes
// TMA: aicc_gpu.tiling = "128x128x64x1"
func.func @rows_of_8_bytes(%a: memref<4096x2056xi8>, %b: memref<4096x2056xi8>, %c: memref<4096x4096xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4096x2056xi8>, memref<4096x2056xi8>) outs(%c : memref<4096x4096xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extsi %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// -----

// fp8 (e4m3fn) products into f32: the same kernel, m64nBNk32 e4m3 by e4m3
// with f32 sums.
// CHECK-LABEL: func.func @e4m3
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK: aicc_gpu.contraction = "f8E4M3FN:b1:m4096:n4096:k2048:kk"{{.*}}aicc_gpu.tiling = "128x256x128x4"
// TMA-LABEL: func.func @e4m3
// TMA: nvvm.cp.async.bulk.tensor.shared.cluster.global
// TMA: nvvm.wgmma.mma_async {{.*}} A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
func.func @e4m3(%a: memref<4096x2048xf8E4M3FN>, %b: memref<4096x2048xf8E4M3FN>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4096x2048xf8E4M3FN>, memref<4096x2048xf8E4M3FN>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %acc: f32):
    %0 = arith.extf %x : f8E4M3FN to f32
    %1 = arith.extf %y : f8E4M3FN to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// fp8 operands without wgmma (or rows not of whole 16-byte pieces) are
// left to the generic kernels: the tensor cores' mma.sync takes no fp8 on
// the architectures aicc builds for by default.
// NOWGMMA-LABEL: func.func @e4m3_mma_sync
// NOWGMMA-NOT: nvvm.mma.sync
// NOWGMMA: linalg.generic
func.func @e4m3_mma_sync(%a: memref<256x512xf8E4M3FN>, %b: memref<256x512xf8E4M3FN>, %c: memref<256x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<256x512xf8E4M3FN>, memref<256x512xf8E4M3FN>) outs(%c : memref<256x256xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %acc: f32):
    %0 = arith.extf %x : f8E4M3FN to f32
    %1 = arith.extf %y : f8E4M3FN to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// e4m3fnuz (and e5m2fnuz) have no tensor-core instruction: even with
// wgmma the product stays for the generic kernels.
// CHECK-LABEL: func.func @e4m3fnuz
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: linalg.generic
func.func @e4m3fnuz(%a: memref<4096x2048xf8E4M3FNUZ>, %b: memref<4096x2048xf8E4M3FNUZ>, %c: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4096x2048xf8E4M3FNUZ>, memref<4096x2048xf8E4M3FNUZ>) outs(%c : memref<4096x4096xf32>) {
  ^bb0(%x: f8E4M3FNUZ, %y: f8E4M3FNUZ, %acc: f32):
    %0 = arith.extf %x : f8E4M3FNUZ to f32
    %1 = arith.extf %y : f8E4M3FNUZ to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
