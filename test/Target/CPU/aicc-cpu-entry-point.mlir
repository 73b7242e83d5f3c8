// RUN: aicc-opt %s -aicc-cpu-entry-point | FileCheck %s
// RUN: aicc-opt %s -aicc-cpu-entry-point=entry=other | FileCheck %s --check-prefix=OTHER

// aicc_entry(buffers, exec) loads one pointer per buffer argument of the
// compiled function and calls it with the execution record last; every
// other definition becomes internal.

// CHECK: llvm.mlir.global internal constant @table(dense<1.000000e+00> : tensor<4xf32>)
// CHECK-LABEL: llvm.func internal @main
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-LABEL: llvm.func internal @other
// Declarations stay external.
// CHECK: llvm.func @sinf(f32) -> f32
// CHECK-LABEL: llvm.func @aicc_entry
// CHECK-SAME: (%[[BUFFERS:.*]]: !llvm.ptr, %[[EXEC:.*]]: !llvm.ptr) attributes {aicc.buffer_count = 2 : i64}
// CHECK: %[[S0:.*]] = llvm.getelementptr %[[BUFFERS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[B0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[S1:.*]] = llvm.getelementptr %[[BUFFERS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[B1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @main(%[[B0]], %[[B1]], %[[EXEC]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: llvm.return

// OTHER-LABEL: llvm.func @aicc_entry
// OTHER-SAME: attributes {aicc.buffer_count = 0 : i64}
// OTHER-NOT: llvm.getelementptr
// OTHER: llvm.call @other(%{{.*}}) : (!llvm.ptr) -> ()

llvm.mlir.global external constant @table(dense<1.0> : tensor<4xf32>) : !llvm.array<4 x f32>

llvm.func @main(%x: !llvm.ptr, %y: !llvm.ptr, %exec: !llvm.ptr) {
  llvm.return
}

llvm.func @other(%exec: !llvm.ptr) {
  llvm.return
}

llvm.func @sinf(f32) -> f32
