// RUN: aicc-opt %s -aicc-fuse-siblings -mlir-print-local-scope -split-input-file | FileCheck %s
// RUN: aicc-opt %s -aicc-fuse-siblings=max-operands=5 -mlir-print-local-scope -split-input-file | FileCheck %s --check-prefix=FEW

// Independent all-parallel generics of one iteration space become one
// generic with all their results, where the traffic model says so.

// Two small ops on unrelated inputs: one op, both bodies, both results.
// CHECK-LABEL: func.func @small_independent
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>)
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: ins(%[[X]], %[[Y]] : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK: %[[E:.*]] = math.exp %[[A]] : f32
// CHECK: %[[N:.*]] = arith.negf %[[B]] : f32
// CHECK: linalg.yield %[[E]], %[[N]] : f32, f32
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#0, %[[R]]#1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @small_independent(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// An input two ops read through the same map is read once; one read
// through another map (a transpose) is an input of its own.
// CHECK-LABEL: func.func @shared_input
// CHECK-SAME: (%[[X:.*]]: tensor<8x8xf32>)
// CHECK: %[[R:.*]]:3 = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME: ins(%[[X]], %[[X]] : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @shared_input(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %2 = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x8xf32>
  return %0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Three small ops: with max-operands=5 the third would make six tensors
// and starts a group of its own.
// FEW-LABEL: func.func @operand_limit
// FEW: linalg.generic
// FEW-SAME: ins(%{{[a-z0-9]+}}, %{{[a-z0-9]+}} : tensor<4xf32>, tensor<4xf32>) outs(%{{[0-9]+}}, %{{[0-9]+}} : tensor<4xf32>, tensor<4xf32>)
// FEW: linalg.generic
// FEW-SAME: ins(%{{[a-z0-9]+}} : tensor<4xf32>) outs
// CHECK-LABEL: func.func @operand_limit
// CHECK: %[[R:.*]]:3 = linalg.generic
// CHECK-NOT: linalg.generic
#v = affine_map<(d0) -> (d0)>
func.func @operand_limit(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%z : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The merged op stands where the last member stood: an op computed
// between the two (the second's input) stays before it.
// CHECK-LABEL: func.func @moved_to_last
// CHECK: %[[Y:.*]] = tensor.collapse_shape
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[Y]] :
// CHECK: return %[[R]]#0, %[[R]]#1
#v = affine_map<(d0) -> (d0)>
func.func @moved_to_last(%x: tensor<16xf32>, %y: tensor<4x4xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %0 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %c = tensor.collapse_shape %y [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  %1 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%c : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// Large ops that share nothing: one launch saved out of 2 x 128 MiB of
// traffic is under the 10% the model asks; kept apart. Two that read the
// same 64 MiB input save a fourth of it: merged.
// CHECK-LABEL: func.func @large
// CHECK-SAME: (%[[X:.*]]: tensor<4096x4096xf32>, %[[Y:.*]]: tensor<4096x4096xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]] : tensor<4096x4096xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[Y]] : tensor<4096x4096xf32>)
// CHECK-LABEL: func.func @large_shared
// CHECK-SAME: (%[[X:.*]]: tensor<4096x4096xf32>)
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: ins(%[[X]] : tensor<4096x4096xf32>)
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @large(%x: tensor<4096x4096xf32>, %y: tensor<4096x4096xf32>) -> (tensor<4096x4096xf32>, tensor<4096x4096xf32>) {
  %e = tensor.empty() : tensor<4096x4096xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4096x4096xf32>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4096x4096xf32>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %0, %1 : tensor<4096x4096xf32>, tensor<4096x4096xf32>
}
func.func @large_shared(%x: tensor<4096x4096xf32>) -> (tensor<4096x4096xf32>, tensor<4096x4096xf32>) {
  %e = tensor.empty() : tensor<4096x4096xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4096x4096xf32>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4096x4096xf32>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %0, %1 : tensor<4096x4096xf32>, tensor<4096x4096xf32>
}

// -----

// A reader of the first op's result before the second: merging would move
// the first's definition past its reader. Kept apart (the reader, a
// consumer, is vertical fusion's business).
// CHECK-LABEL: func.func @negative_reader_between
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: linalg.generic
#v = affine_map<(d0) -> (d0)>
func.func @negative_reader_between(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%0, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%1 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Different iteration spaces.
// CHECK-LABEL: func.func @negative_spaces
// CHECK-COUNT-2: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @negative_spaces(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %f = tensor.empty() : tensor<8x4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<8x4xf32>) outs(%f : tensor<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<8x4xf32>
}

// -----

// A contraction's reader (its epilogue on the GPUs), an op a reduction
// reads, a fill, and an op that reads what it writes stay as they are.
// CHECK-LABEL: func.func @negative_kernels_of_their_own
// CHECK: linalg.matmul
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @negative_kernels_of_their_own(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>, %z: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%x, %y : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%z : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %f = tensor.empty() : tensor<4xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%f : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  } -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<4x4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %0, %sum, %2, %m : tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// The normalization after a reduction (its row kernel's last step on the
// GPUs) is not merged with an independent op of its iteration space.
// CHECK-LABEL: func.func @negative_reads_reduction
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @negative_reads_reduction(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>, %init: tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #r, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A producer a reduction reads through a slice stays as it is.
// CHECK-LABEL: func.func @negative_reduction_through_slice
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @negative_reduction_through_slice(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>, %init: tensor<2xf32>) -> (tensor<2xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %s = tensor.extract_slice %0[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<2x4xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  return %sum, %1 : tensor<2xf32>, tensor<4x4xf32>
}
