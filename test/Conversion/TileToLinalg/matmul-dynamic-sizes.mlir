// RUN: aicc-opt %s -split-input-file -convert-tile-to-linalg | FileCheck %s
// XFAIL: *
//
// Known bug (reproducer): the result of a matmul with a dynamic `n` takes
// its size from whichever operand has a dynamic dimension at the same
// position counted from the right (emptyTensor's numpy-style lookup), which
// for a matmul is the contracted `k` of the left-hand side, or nothing at
// all when the right-hand side is transposed (size 0). Remove the XFAIL
// line once ConvertMatmul sizes its result from m and n.

// Q x K^T with a dynamic sequence length: n is the rows of the rhs.
// CHECK-LABEL: func.func @transposed_rhs_dynamic_n
// CHECK-SAME: (%[[Q:.*]]: tensor<?x64xf32>, %[[K:.*]]: tensor<?x64xf32>)
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[Q]], %{{.*}} : tensor<?x64xf32>
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[K]], %{{.*}} : tensor<?x64xf32>
// CHECK: tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
func.func @transposed_rhs_dynamic_n(%q: tensor<?x64xf32>, %k: tensor<?x64xf32>) -> tensor<?x?xf32> {
  %0 = tile.matmul %q, %k transpose_rhs : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Dynamic k and n: n is dimension 1 of the rhs, not the lhs's k.
// CHECK-LABEL: func.func @dynamic_k_and_n
// CHECK-SAME: (%[[A:.*]]: tensor<4x?xf32>, %[[B:.*]]: tensor<?x?xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<?x?xf32>
// CHECK: tensor.empty(%[[N]]) : tensor<4x?xf32>
func.func @dynamic_k_and_n(%a: tensor<4x?xf32>, %b: tensor<?x?xf32>) -> tensor<4x?xf32> {
  %0 = tile.matmul %a, %b : (tensor<4x?xf32>, tensor<?x?xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}
