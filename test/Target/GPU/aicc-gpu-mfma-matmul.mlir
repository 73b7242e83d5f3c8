// RUN: aicc-opt %s -aicc-gpu-choose-tiles="target=rocm vendor=amd" -aicc-gpu-mfma-matmul | FileCheck %s
// RUN: aicc-opt %s -aicc-rocm-pipeline | FileCheck %s --check-prefix=ROCDL

// A matrix product 70x40 · 40x50 becomes one 64-lane wave per 32x32 tile
// (2 tiles across n, 3 down m), accumulating two k at a time with MFMA 32x32x2 from the
// accumulator's initial values; lanes past M, N or K read zeros and write
// nothing. Lowered, it is the ROCDL MFMA intrinsic.

// CHECK-LABEL: func.func @product
// CHECK-DAG: %[[GX:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[GY:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[LANES:.*]] = arith.constant 64 : index
// CHECK: gpu.launch blocks(%{{[^,]*}}, %{{[^,]*}}, %{{[^)]*}}) in (%{{[^ ]*}} = %[[GX]], %{{[^ ]*}} = %[[GY]], %{{.*}}) threads(%[[LANE:[^,]*]], %{{[^,]*}}, %{{[^)]*}}) in (%{{[^ ]*}} = %[[LANES]],
// CHECK: vector.insert
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<16xf32>)
// CHECK: scf.if
// CHECK: memref.load
// CHECK: amdgpu.mfma 32x32x2 %{{.*}} * %{{.*}} + %[[ACC]] blgp = none : f32, f32, vector<16xf32>
// CHECK: vector.extract
// CHECK: memref.store
// CHECK-NOT: linalg.generic

// ROCDL: rocdl.mfma.f32.32x32x2f32
func.func @product(%a: memref<70x40xf32>, %b: memref<40x50xf32>, %c: memref<70x50xf32>) {
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

// An element-wise op is left alone.
// CHECK-LABEL: func.func @elementwise
// CHECK: linalg.generic
// CHECK-NOT: amdgpu.mfma
func.func @elementwise(%a: memref<40x70xf32>, %c: memref<40x70xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<40x70xf32>) outs(%c : memref<40x70xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  return
}
