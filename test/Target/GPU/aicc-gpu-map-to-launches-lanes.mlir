// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true block-size=128 multiprocessors=1" -aicc-gpu-map-to-launches | FileCheck %s

// An f16 element-wise loop over contiguous rows: each thread takes 8
// consecutive elements of the innermost loop (16 bytes), reads them with
// one aligned vector load, computes each, and stores them with one vector
// store. 4 x 64 elements are 32 threads.

// CHECK-LABEL: func.func @rows_f16
// CHECK: %[[THREADS:.*]] = arith.constant 32 : index
// CHECK: gpu.launch blocks({{.*}}) threads(%{{[^,]*}}, %{{[^,]*}}, %{{[^)]*}}) in (%{{[^ ]*}} = %[[THREADS]],
// CHECK: arith.cmpi ult
// CHECK: %[[COL:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: arith.divui
// CHECK: %[[J:.*]] = arith.muli %[[COL]], %{{.*}} : index
// CHECK: %[[V:.*]] = vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4x64xf16>, vector<8xf16>
// CHECK-COUNT-8: vector.extract %[[V]]
// CHECK-COUNT-8: math.exp %{{.*}} : f16
// CHECK: %[[OUT:.*]] = vector.from_elements
// CHECK: vector.store %[[OUT]], %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4x64xf16>, vector<8xf16>
// CHECK-NOT: memref.load
// CHECK-NOT: memref.store
// CHECK: gpu.terminator
func.func @rows_f16(%in: memref<4x64xf16>, %out: memref<4x64xf16>) {
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

// A value per row (indexed by the outer loop only) is read and converted
// once per thread; a bias along the row is a vector load like the input;
// f32 rows take 4 elements (16 bytes) per thread.

// CHECK-LABEL: func.func @row_and_column_operands
// CHECK: gpu.launch
// CHECK-COUNT-1: memref.load %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4x64xf32>, vector<4xf32>
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>
// CHECK-COUNT-4: arith.addf
// CHECK-COUNT-4: arith.mulf
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4x64xf32>, vector<4xf32>
// CHECK-NOT: memref.load
// CHECK: gpu.terminator
func.func @row_and_column_operands(%in: memref<4x64xf32>, %row: memref<4xf32>,
                                   %bias: memref<64xf32>,
                                   %out: memref<4x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c64) step (%c1, %c1) {
    %r = memref.load %row[%i] : memref<4xf32>
    %v = memref.load %in[%i, %j] : memref<4x64xf32>
    %b = memref.load %bias[%j] : memref<64xf32>
    %s = arith.addf %v, %b : f32
    %p = arith.mulf %s, %r : f32
    memref.store %p, %out[%i, %j] : memref<4x64xf32>
    scf.reduce
  }
  return
}

// -----

// A transposed read cannot be one vector: it stays one load per element
// (with the element's own index), while the store along the row is a
// vector.

// CHECK-LABEL: func.func @transposed_read
// CHECK: gpu.launch
// CHECK-NOT: vector.load
// CHECK-COUNT-8: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x4xf16>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<4x64xf16>, vector<8xf16>
func.func @transposed_read(%in: memref<64x4xf16>, %out: memref<4x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c64) step (%c1, %c1) {
    %v = memref.load %in[%j, %i] : memref<64x4xf16>
    memref.store %v, %out[%i, %j] : memref<4x64xf16>
    scf.reduce
  }
  return
}

// -----

// Rows of 12 f16 elements: 8 does not divide 12, 4 does (8 bytes, aligned
// to 8).

// CHECK-LABEL: func.func @four_lanes
// CHECK: vector.load %{{.*}} {alignment = 8 : i64} : memref<3x12xf16>, vector<4xf16>
// CHECK: vector.store %{{.*}} {alignment = 8 : i64} : memref<3x12xf16>, vector<4xf16>
func.func @four_lanes(%in: memref<3x12xf16>, %out: memref<3x12xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c12) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<3x12xf16>
    %n = arith.negf %v : f16
    memref.store %n, %out[%i, %j] : memref<3x12xf16>
    scf.reduce
  }
  return
}

// -----

// Refused: rows of odd length; a store into a view whose offset (3) is
// not a multiple of the lanes; booleans (no whole bytes). One element per
// thread, as without vectors.

// CHECK-LABEL: func.func @refused
// CHECK-NOT: vector.
// CHECK: return
func.func @refused(%in: memref<4x7xf16>, %out: memref<4x7xf16>,
                   %flat: memref<67xf16>, %mask: memref<4x64xi1>,
                   %bits: memref<4x64xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c7) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<4x7xf16>
    memref.store %v, %out[%i, %j] : memref<4x7xf16>
    scf.reduce
  }
  %view = memref.subview %flat[3] [64] [1]
      : memref<67xf16> to memref<64xf16, strided<[1], offset: 3>>
  scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
    %v = memref.load %in[%c0, %c0] : memref<4x7xf16>
    memref.store %v, %view[%j] : memref<64xf16, strided<[1], offset: 3>>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c64) step (%c1, %c1) {
    %m = memref.load %mask[%i, %j] : memref<4x64xi1>
    memref.store %m, %bits[%i, %j] : memref<4x64xi1>
    scf.reduce
  }
  return
}

// -----

// Refused as well: a body with its own buffer (the lanes would share one
// allocation), and a body with an atomic update that ignores the
// innermost loop (run once, it would count one iteration for 8).

// CHECK-LABEL: func.func @refused_effects
// CHECK-NOT: vector.
// CHECK: return
func.func @refused_effects(%in: memref<4x64xf16>, %out: memref<4x64xf16>,
                           %count: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c64) step (%c1, %c1) {
    %t = memref.alloca() : memref<f16>
    %v = memref.load %in[%i, %j] : memref<4x64xf16>
    memref.store %v, %t[] : memref<f16>
    %w = memref.load %t[] : memref<f16>
    memref.store %w, %out[%i, %j] : memref<4x64xf16>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c64) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<4x64xf16>
    memref.store %v, %out[%i, %j] : memref<4x64xf16>
    %n = memref.atomic_rmw addf %one, %count[%i] : (f32, memref<4xf32>) -> f32
    scf.reduce
  }
  return
}
