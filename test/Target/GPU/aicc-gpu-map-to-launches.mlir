// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="loops=true block-size=128 vector-bytes=0 multiprocessors=1" -aicc-gpu-map-to-launches -verify-diagnostics | FileCheck %s

// A parallel loop nest of 5x100 iterations becomes one launch of
// ceil(500 / 128) = 4 blocks of 128 threads; each thread recovers (i, j)
// from its number and threads past 500 do nothing. The launch records
// the FLOPs of its iterations for the profile: 500 exponentials.

// CHECK-LABEL: func.func @parallel
// CHECK-DAG: %[[GRID:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[BLOCK:.*]] = arith.constant 128 : index
// CHECK: gpu.launch blocks(%[[BX:[^,]*]], %{{[^,]*}}, %{{[^)]*}}) in (%{{[^ ]*}} = %[[GRID]], %{{.*}}) threads(%[[TX:[^,]*]], %{{[^,]*}}, %{{[^)]*}}) in (%{{[^ ]*}} = %[[BLOCK]],
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK: %[[ID:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK: %[[TOTAL:.*]] = arith.constant 500 : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ID]], %[[TOTAL]] : index
// CHECK: scf.if %[[IN]]
// CHECK: %[[J:.*]] = arith.remui %[[ID]], %{{.*}} : index
// CHECK: %[[I:.*]] = arith.divui %[[ID]], %{{.*}} : index
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}]
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK-NEXT: } {aicc_gpu.flops = 500 : i64}
// CHECK-NOT: scf.parallel
func.func @parallel(%in: memref<5x100xf32>, %out: memref<5x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c5, %c100) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<5x100xf32>
    %e = math.exp %v : f32
    memref.store %e, %out[%i, %j] : memref<5x100xf32>
    scf.reduce
  }
  return
}

// -----

// A sequential loop runs as one thread; a scalar read of its result moves
// into the kernel that uses it, with the arithmetic on it.

// CHECK-LABEL: func.func @serial_and_scalar
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: gpu.terminator
// (8 trips of one addition.)
// CHECK-NEXT: } {aicc_gpu.flops = 8 : i64}
// CHECK-NOT: memref.load
// CHECK: gpu.launch
// CHECK: %[[S:.*]] = memref.load %{{.*}}[] : memref<f32>
// CHECK: %[[T:.*]] = arith.mulf %[[S]], %[[S]] : f32
// CHECK: scf.if
// CHECK: arith.addf %{{.*}}, %[[T]] : f32
func.func @serial_and_scalar(%in: memref<8xf32>, %out: memref<8xf32>,
                             %acc: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %in[%i] : memref<8xf32>
    %a = memref.load %acc[] : memref<f32>
    %s = arith.addf %a, %v : f32
    memref.store %s, %acc[] : memref<f32>
  }
  %sum = memref.load %acc[] : memref<f32>
  %sq = arith.mulf %sum, %sum : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %in[%i] : memref<8xf32>
    %r = arith.addf %v, %sq : f32
    memref.store %r, %out[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

func.func @host_value(%in: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{computes a value the host would need}}
  %v = memref.load %in[%c0] : memref<8xf32>
  // expected-note @below {{used by func.return}}
  return %v : f32
}
