// RUN: aicc-opt %s -split-input-file --aicc-cpu-pipeline | FileCheck %s
// RUN: aicc-opt %s -split-input-file --aicc-cpu-pipeline="opt-level=0" | FileCheck %s --check-prefix=O0

// tile IR to the LLVM dialect: one internal function with bare-pointer
// arguments (weights, inputs, outputs, arena, execution record) and the
// exported aicc_entry that calls it.

// CHECK-NOT: func.func
// CHECK-LABEL: llvm.func internal @main
// CHECK-SAME: (%{{.*}}: !llvm.ptr {aicc.weight = "fc.weight", aicc.weight_value = dense<5.000000e-01> : tensor<8x16xf32>},
// CHECK-SAME: %{{.*}}: !llvm.ptr {aicc.weight = "fc.bias", aicc.weight_value = dense<1.000000e+00> : tensor<16xf32>},
// CHECK-SAME: %{{.*}}: !llvm.ptr {onnx.name = "x"}, %{{.*}}: !llvm.ptr {onnx.name = "y"},
// CHECK-SAME: %{{.*}}: !llvm.ptr {aicc.arena}, %{{.*}}: !llvm.ptr {aicc.exec})
// CHECK-SAME: attributes {aicc.arena_size = {{[0-9]+}} : i64}
// The micro-kernel works on 16-lane rows (2 x AVX2 registers).
// CHECK: vector<16xf32>
// CHECK-NOT: tile.
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// CHECK-NOT: scf.
// CHECK-NOT: vector.
// CHECK-LABEL: llvm.func @aicc_entry
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[EXEC:.*]]: !llvm.ptr) attributes {aicc.buffer_count = 5 : i64}
// CHECK: llvm.call @main(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[EXEC]])

// Without optimization there is no vector code.
// O0-LABEL: llvm.func internal @main
// O0-NOT: vector<
// O0-LABEL: llvm.func @aicc_entry
func.func @main(%x: tensor<4x8xf32> {onnx.name = "x"}) -> (tensor<4x16xf32> {onnx.name = "y"}) {
  %w = tile.weight "fc.weight" = dense<0.5> : tensor<8x16xf32>
  %b = tile.weight "fc.bias" = dense<1.0> : tensor<16xf32>
  %m = tile.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %s = tile.binary add %m, %b : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %r = tile.unary relu %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Enough element-wise work for several threads: the loop becomes an
// internal task function that main hands to the runtime's parallel_for,
// loaded from the execution record.
// CHECK-LABEL: llvm.func internal @main
// CHECK-SAME: %[[EXEC:[^ ]*]]: !llvm.ptr {aicc.exec})
// CHECK: %[[TASK:.*]] = llvm.mlir.addressof @main_parallel_0_elementwise : !llvm.ptr
// CHECK: %[[PFOR:.*]] = llvm.load %[[EXEC]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call %[[PFOR]](%[[EXEC]], %[[TASK]], %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-LABEL: llvm.func internal @main_parallel_0_elementwise
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// Rows of 32 lanes, ReLU as compare and select.
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<32xf32>
// CHECK: llvm.fcmp "ugt" %[[V]], %{{.*}} : vector<32xf32>
// CHECK: llvm.store %{{.*}}, %{{.*}} : vector<32xf32>, !llvm.ptr
// CHECK-LABEL: llvm.func @aicc_entry
// CHECK-SAME: attributes {aicc.buffer_count = 3 : i64}

// O0-LABEL: llvm.func internal @main
// O0-NOT: parallel
// O0-LABEL: llvm.func @aicc_entry
func.func @main(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = tile.unary relu %x : tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
