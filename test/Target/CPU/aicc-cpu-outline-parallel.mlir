// RUN: aicc-opt %s -aicc-cpu-outline-parallel | FileCheck %s

// Outermost scf.forall loops of public functions become private task
// functions over a range of linearized iterations, called through the
// runtime's parallel_for (the first field of the execution record, a new
// trailing argument). Captures travel in a stack struct.

// CHECK-LABEL: func.func @two_d
// CHECK-SAME: (%[[X:.*]]: memref<8x16xf32>, %[[OUT:.*]]: memref<8x16xf32>, %[[EXEC:.*]]: !llvm.ptr {aicc.exec})
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[CTX:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>)>
// CHECK: %[[DX:.*]] = builtin.unrealized_conversion_cast %[[X]] : memref<8x16xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK: llvm.store %[[DX]], %[[F0]]
// CHECK: %[[DO:.*]] = builtin.unrealized_conversion_cast %[[OUT]]
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: llvm.store %[[DO]], %[[F1]]
// The task is named after the loop's aicc.task_name.
// CHECK: %[[TASK:.*]] = constant @two_d_parallel_0_elementwise : (!llvm.ptr, i64, i64) -> ()
// CHECK: %[[TASKPTR:.*]] = builtin.unrealized_conversion_cast %[[TASK]] : (!llvm.ptr, i64, i64) -> () to !llvm.ptr
// CHECK: %[[PFOR:.*]] = llvm.load %[[EXEC]] : !llvm.ptr -> !llvm.ptr
// 2 x 2 iterations.
// CHECK: %[[N:.*]] = arith.index_cast %[[C4:.*]] : index to i64
// CHECK: llvm.call %[[PFOR]](%[[EXEC]], %[[TASKPTR]], %[[CTX]], %[[N]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NOT: scf.forall
// CHECK: return
func.func @two_d(%x: memref<8x16xf32>, %out: memref<8x16xf32>) {
  %c1 = arith.constant 1.0 : f32
  scf.forall (%i, %j) = (0, 0) to (8, 16) step (4, 8) {
    %sx = memref.subview %x[%i, %j] [4, 8] [1, 1] : memref<8x16xf32> to memref<4x8xf32, strided<[16, 1], offset: ?>>
    %so = memref.subview %out[%i, %j] [4, 8] [1, 1] : memref<8x16xf32> to memref<4x8xf32, strided<[16, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sx : memref<4x8xf32, strided<[16, 1], offset: ?>>) outs(%so : memref<4x8xf32, strided<[16, 1], offset: ?>>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %c1 : f32
      linalg.yield %s : f32
    }
  } {aicc.task_name = "elementwise"}
  return
}

// A nested forall runs sequentially inside the task; an index capture
// travels as i64.
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[N:.*]]: index, %{{.*}}: memref<4x4xf32>, %{{.*}}: !llvm.ptr {aicc.exec})
// CHECK: builtin.unrealized_conversion_cast %[[N]] : index to i64
// CHECK: constant @nested_parallel_0 : (!llvm.ptr, i64, i64) -> ()
// CHECK-NOT: scf.forall
// CHECK: return
func.func @nested(%n: index, %out: memref<4x4xf32>) {
  %z = arith.constant 0.0 : f32
  scf.forall (%i) in (4) {
    scf.forall (%j) in (%n) {
      memref.store %z, %out[%i, %j] : memref<4x4xf32>
    }
  }
  return
}

// Every public function gets the execution record.
// CHECK-LABEL: func.func @no_loops
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %{{.*}}: !llvm.ptr {aicc.exec})
func.func @no_loops(%x: memref<4xf32>) {
  return
}

// Private functions get no record; their loops run sequentially.
// CHECK-LABEL: func.func private @private_loop
// CHECK-SAME: (%[[OUT:.*]]: memref<4xf32>) {
// CHECK-NOT: scf.forall
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[I]]]
func.func private @private_loop(%out: memref<4xf32>) {
  %z = arith.constant 0.0 : f32
  scf.forall (%i) in (4) {
    memref.store %z, %out[%i] : memref<4xf32>
  }
  return
}

// The task: captures loaded from the struct, constants rematerialized, then
// a loop over [begin, end) that recovers (i, j) from the linear index.
// CHECK-LABEL: func.func private @two_d_parallel_0_elementwise
// CHECK-SAME: (%[[CTX:.*]]: !llvm.ptr, %[[BEGIN:.*]]: i64, %[[END:.*]]: i64)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[G0:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK: %[[L0:.*]] = llvm.load %[[G0]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %[[L0]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<8x16xf32>
// CHECK: %[[G1:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: %[[OUT:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<8x16xf32>
// CHECK: %[[B:.*]] = arith.index_cast %[[BEGIN]] : i64 to index
// CHECK: %[[E:.*]] = arith.index_cast %[[END]] : i64 to index
// CHECK: scf.for %[[IV:.*]] = %[[B]] to %[[E]] step %{{.*}} {
// CHECK: %[[JPOS:.*]] = arith.remsi %[[IV]], %{{.*}} : index
// CHECK: %[[IPOS:.*]] = arith.divsi %[[IV]], %{{.*}} : index
// CHECK: %[[JS:.*]] = arith.muli %[[JPOS]], %{{.*}} : index
// CHECK: %[[J:.*]] = arith.addi %[[JS]], %{{.*}} : index
// CHECK: %[[IS:.*]] = arith.muli %[[IPOS]], %{{.*}} : index
// CHECK: %[[I:.*]] = arith.addi %[[IS]], %{{.*}} : index
// CHECK: memref.subview %[[X]][%[[I]], %[[J]]] [4, 8] [1, 1]
// CHECK: memref.subview %[[OUT]][%[[I]], %[[J]]] [4, 8] [1, 1]
// CHECK: linalg.generic
// CHECK: arith.addf %{{.*}}, %[[ONE]] : f32

// CHECK-LABEL: func.func private @nested_parallel_0
// CHECK: %[[N:.*]] = builtin.unrealized_conversion_cast %{{.*}} : i64 to index
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step
// CHECK: memref.store
