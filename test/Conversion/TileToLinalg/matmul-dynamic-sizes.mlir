// RUN: aicc-opt %s -split-input-file -convert-tile-to-linalg | FileCheck %s
//
// The result of a matmul with dynamic sizes takes m from the left-hand
// side and n from the right-hand side, whichever operand is transposed.

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
