// RUN: aicc-opt %s -aicc-prepare-interface | FileCheck %s

// Tensor arguments of public functions are read-only for bufferization;
// each returned tensor is a distinct value computed in the function.

// A computed result is returned as is; non-tensor arguments get no
// attribute.
// CHECK-LABEL: func.func @computed
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {bufferization.writable = false}, %{{.*}}: memref<4xf32>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-NOT: linalg.copy
// CHECK: return %[[R]] : tensor<4xf32>
func.func @computed(%x: tensor<4xf32>, %w: memref<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Arguments (static or dynamic), constants, empty tensors and repeated
// results are copied into new tensors; the first use of a value is kept.
// CHECK-LABEL: func.func @copies
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[Y:.*]]: tensor<?xf32> {bufferization.writable = false})
// CHECK: %[[CST:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: %[[E0:.*]] = bufferization.alloc_tensor() : tensor<4xf32>
// CHECK: %[[C0:.*]] = linalg.copy ins(%[[X]] : tensor<4xf32>) outs(%[[E0]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[Y]], %{{.*}} : tensor<?xf32>
// CHECK: %[[E1:.*]] = bufferization.alloc_tensor(%[[D]]) : tensor<?xf32>
// CHECK: %[[C1:.*]] = linalg.copy ins(%[[Y]] : tensor<?xf32>) outs(%[[E1]] : tensor<?xf32>)
// CHECK: %[[C2:.*]] = linalg.copy ins(%[[CST]] : tensor<2xf32>)
// CHECK: %[[C3:.*]] = linalg.copy ins(%[[X]] : tensor<4xf32>)
// CHECK: %[[C4:.*]] = linalg.copy ins(%[[EMPTY]] : tensor<4xf32>)
// CHECK: %[[C5:.*]] = linalg.copy ins(%[[R]] : tensor<4xf32>)
// CHECK: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[R]], %[[C5]] :
func.func @copies(%x: tensor<4xf32>, %y: tensor<?xf32>) -> (tensor<4xf32>, tensor<?xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %x, %y, %c, %x, %e, %r, %r : tensor<4xf32>, tensor<?xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Private functions are not the runtime's interface: untouched.
// CHECK-LABEL: func.func private @negative_private
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: bufferization.writable
// CHECK-NEXT: return %[[X]] : tensor<4xf32>
func.func private @negative_private(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
