// RUN: aicc-opt %s -split-input-file -convert-tile-to-linalg | FileCheck %s
// XFAIL: *
//
// Known bug (reproducer): reductions and arg-reductions build their
// accumulator with emptyTensor(..., /*like=*/{}), so a dynamic kept
// dimension gets the size 0 (tensor.empty(%c0)) instead of the input's.
// Remove the XFAIL line once reduceTensor and argBest size the accumulator
// from the input.

// CHECK-LABEL: func.func @sum_dynamic_rows
// CHECK-SAME: (%[[X:.*]]: tensor<?x8xf32>)
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x8xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?xf32>
func.func @sum_dynamic_rows(%x: tensor<?x8xf32>) -> tensor<?xf32> {
  %0 = tile.reduce sum %x axes = [1] : tensor<?x8xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @argmax_dynamic_rows
// CHECK-SAME: (%[[X:.*]]: tensor<?x8xf32>)
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x8xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?xf32>
func.func @argmax_dynamic_rows(%x: tensor<?x8xf32>) -> tensor<?xi64> {
  %0 = tile.arg_reduce max %x axis = 1 : tensor<?x8xf32> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
