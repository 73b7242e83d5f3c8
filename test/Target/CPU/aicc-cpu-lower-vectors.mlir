// RUN: aicc-opt %s -aicc-cpu-lower-vectors | FileCheck %s

// A micro-kernel step on buffers: the accumulator's loop-invariant read and
// write leave the loop (it becomes an iter_arg), and the contraction of a
// 4 x 1 column by a 1 x 8 row becomes one FMA per row of 8 lanes.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x8xf32>, %[[C:.*]]: memref<4x8xf32>)
// CHECK: %[[INIT:.*]] = vector.transfer_read %[[C]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, true]} : memref<4x8xf32>, vector<4x8xf32>
// CHECK: %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<4x8xf32>)
// CHECK-NOT: vector.transfer_write
// CHECK-NOT: vector.contract
// CHECK: %[[COL:.*]] = vector.transfer_read %[[A]][%{{.*}}, %[[K]]]{{.*}} : memref<4x8xf32>, vector<4x1xf32>
// CHECK: %[[ROW2:.*]] = vector.transfer_read %[[B]][%[[K]], %{{.*}}]{{.*}} : memref<8x8xf32>, vector<1x8xf32>
// CHECK: %[[ROW:.*]] = vector.extract %[[ROW2]][0] : vector<8xf32> from vector<1x8xf32>
// CHECK: %[[A0:.*]] = vector.extract %[[COL]][0, 0] : f32 from vector<4x1xf32>
// CHECK: %[[S0:.*]] = vector.broadcast %[[A0]] : f32 to vector<8xf32>
// CHECK: %[[C0:.*]] = vector.extract %[[ACC]][0] : vector<8xf32> from vector<4x8xf32>
// CHECK: vector.fma %[[S0]], %[[ROW]], %[[C0]] : vector<8xf32>
// CHECK: vector.fma %{{.*}}, %[[ROW]], %{{.*}} : vector<8xf32>
// CHECK: vector.fma %{{.*}}, %[[ROW]], %{{.*}} : vector<8xf32>
// CHECK: %[[F3:.*]] = vector.fma %{{.*}}, %[[ROW]], %{{.*}} : vector<8xf32>
// CHECK: %[[NEXT:.*]] = vector.insert %[[F3]], %{{.*}} [3] : vector<8xf32> into vector<4x8xf32>
// CHECK: scf.yield %[[NEXT]] : vector<4x8xf32>
// CHECK: vector.transfer_write %[[R]], %[[C]][%{{.*}}, %{{.*}}] {in_bounds = [true, true]} : vector<4x8xf32>, memref<4x8xf32>
// CHECK-NEXT: return
func.func @kernel(%a: memref<4x8xf32>, %b: memref<8x8xf32>, %c: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c8 step %c1 {
    %acc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x8xf32>, vector<4x8xf32>
    %col = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<4x8xf32>, vector<4x1xf32>
    %row = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32>, vector<1x8xf32>
    %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %col, %row, %acc : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, memref<4x8xf32>
  }
  return
}

// A transposing read becomes a plain read and an element-wise transpose.
// CHECK-LABEL: func.func @transposed_read
// CHECK: %[[V:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true, true]} : memref<8x4xf32>, vector<8x4xf32>
// CHECK-NOT: permutation_map
// CHECK-NOT: vector.transpose
// CHECK: vector.extract %[[V]][0, 1] : f32 from vector<8x4xf32>
// CHECK: return
func.func @transposed_read(%a: memref<8x4xf32>) -> vector<4x8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x4xf32>, vector<4x8xf32>
  return %v : vector<4x8xf32>
}

// vector.mask around a read becomes a masked transfer.
// CHECK-LABEL: func.func @masked_read
// CHECK: %[[M:.*]] = vector.create_mask %{{.*}} : vector<8xi1>
// CHECK-NOT: vector.mask
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}}, %[[M]] : memref<?xf32>, vector<8xf32>
func.func @masked_read(%a: memref<?xf32>, %n: index) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %m = vector.create_mask %n : vector<8xi1>
  %v = vector.mask %m { vector.transfer_read %a[%c0], %pad : memref<?xf32>, vector<8xf32> } : vector<8xi1> -> vector<8xf32>
  return %v : vector<8xf32>
}

// Row sums: the reduced dimension is moved outward and accumulated with
// 1-D adds (inner-parallel multi-reduction).
// CHECK-LABEL: func.func @row_sums
// CHECK-NOT: vector.multi_reduction
// CHECK-COUNT-8: arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT: arith.addf
// CHECK: return
func.func @row_sums(%v: vector<4x8xf32>) -> vector<4xf32> {
  %z = arith.constant dense<0.0> : vector<4xf32>
  %r = vector.multi_reduction <add>, %v, %z [1] : vector<4x8xf32> to vector<4xf32>
  return %r : vector<4xf32>
}
