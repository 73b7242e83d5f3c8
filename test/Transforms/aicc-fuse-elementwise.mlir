// RUN: aicc-opt %s -aicc-fuse-elementwise -mlir-print-local-scope | FileCheck %s
// RUN: aicc-opt %s -aicc-fuse-elementwise=into-reductions=true -mlir-print-local-scope | FileCheck %s --check-prefix=GPU

// All-parallel generics fuse into all-parallel consumers; contractions and
// reductions keep their operands as they are.

// Bias then ReLU: one generic whose body does both.
// CHECK-LABEL: func.func @bias_relu
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME: ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK: %[[S:.*]] = arith.addf
// CHECK: %[[M:.*]] = arith.maximumf %[[S]], %{{.*}} : f32
// CHECK: linalg.yield %[[M]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %s = arith.maximumf %a, %z : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// A contraction is not fused into its bias (the micro-kernel needs it alone),
// nor, with into-reductions, is anything fused into a contraction.
// GPU-LABEL: func.func @negative_matmul_then_bias
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%arg0, %arg1 :
// CHECK-LABEL: func.func @negative_matmul_then_bias
// CHECK: %[[MM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[MM]], %{{.*}} : tensor<4x16xf32>, tensor<16xf32>)
// CHECK-NOT: arith.mulf
// CHECK: return
func.func @negative_matmul_then_bias(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// An element-wise producer is not fused into a reduction either (CPU);
// with into-reductions (GPU) the square is computed inside the sum.
// GPU-LABEL: func.func @negative_square_then_sum
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%arg0 : tensor<4x8xf32>)
// GPU: arith.mulf
// GPU: arith.addf
// GPU-NOT: linalg.generic
// GPU: return
// CHECK-LABEL: func.func @negative_square_then_sum
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[SQ]] : tensor<4x8xf32>)
// CHECK-NOT: arith.mulf
// CHECK: return
func.func @negative_square_then_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Reshapes between element-wise ops are not moved: two generics remain.
// CHECK-LABEL: func.func @negative_reshape_between
// CHECK: %[[A:.*]] = linalg.generic
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[A]]
// CHECK: linalg.generic {{.*}} ins(%[[F]] : tensor<32xf32>)
func.func @negative_reshape_between(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %f = tensor.collapse_shape %0 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e1 = tensor.empty() : tensor<32xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%f : tensor<32xf32>) outs(%e1 : tensor<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %1 : tensor<32xf32>
}

// Powers by a constant 2 become a multiplication (LayerNorm's Pow(x, 2)).
// CHECK-LABEL: func.func @square
// CHECK: linalg.generic
// CHECK-NOT: math.powf
// CHECK: %[[SQ:.*]] = arith.mulf %[[V:.*]], %[[V]] : f32
// CHECK: linalg.yield %[[SQ]] : f32
func.func @square(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %two = arith.constant 2.0 : f32
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = math.powf %a, %two : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// A producer with a second user fuses only when it is cheap to compute
// again: a one-input ReLU fuses into its scaling consumer (and stays for
// the reduction), a three-input sum of products does not.
// CHECK-LABEL: func.func @shared_producers
// CHECK: %[[RELU:.*]] = linalg.generic
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[RELU]] :
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK: arith.mulf
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[SUM]] :
// CHECK: linalg.generic {{.*}} ins(%[[SUM]],
// CHECK-NOT: arith.addf
// CHECK: arith.mulf
// CHECK: linalg.yield
#col = affine_map<(d0, d1) -> (d0)>
func.func @shared_producers(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %z: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %c = arith.constant 0.0 : f32
  %acc0 = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%c : f32) outs(%acc0 : tensor<4xf32>) -> tensor<4xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]} ins(%relu : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %s0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%relu, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y, %z : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %d: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %n = arith.mulf %b, %d : f32
    %s = arith.addf %m, %n : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]} ins(%sum : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%sum, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r0, %s0, %r1, %s1 : tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>
}

// A constant pad becomes a filled buffer, made before the source's
// producer, with the source inserted at the low padding: the producer can
// then write into the buffer in place.
// CHECK-LABEL: func.func @pad_as_filled_buffer
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x8x8xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x4x8x8xf32>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: arith.maximumf
// CHECK: tensor.insert_slice %[[R]] into %[[F]][0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1]
// CHECK-NOT: tensor.pad
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @pad_as_filled_buffer(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x8x8xf32> {
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  return %p : tensor<1x4x8x8xf32>
}

// A softmax's scaled scores, read by its max, by its sum and by the
// normalization: with into-reductions (GPU) each reduction gets its own
// copy of the scale and the normalization fuses it as usual, so no kernel
// is left for the scale alone. The CPU keeps it (one loop writes it once).
// GPU-LABEL: func.func @scale_read_by_two_reductions
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%arg0 : tensor<4x8xf32>)
// GPU: arith.mulf
// GPU: arith.maximumf
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%arg0, %{{.*}} : tensor<4x8xf32>, tensor<4xf32>)
// GPU: arith.mulf
// GPU: math.exp
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%arg0, %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
// GPU: arith.mulf
// GPU-NOT: linalg.generic
// GPU: return
// CHECK-LABEL: func.func @scale_read_by_two_reductions
// CHECK: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%arg0 : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[S]] : tensor<4x8xf32>)
#rows = affine_map<(d0, d1) -> (d0)>
func.func @scale_read_by_two_reductions(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant 0.125 : f32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %mfill = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x8xf32>) outs(%mfill : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %sfill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #rows, #rows], iterator_types = ["parallel", "reduction"]} ins(%s, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%sfill : tensor<4xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %r = arith.addf %o, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #rows, #rows, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %max, %sum : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %mx: f32, %sm: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %r = arith.divf %x2, %sm : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// A sum of two whole tensors read by three ops (a pre-norm residual
// stream's partial sum, read by the next sum and by its normalization) is
// written once and read by each: recomputed, every copy would read both
// tensors. Each reader fuses what else it reads.
// CHECK-LABEL: func.func @residual_sum_read_three_times
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK-COUNT-3: linalg.generic {{.*}} ins(%[[S]]{{.*}} : tensor<4x8xf32>{{.*}})
// GPU-LABEL: func.func @residual_sum_read_three_times
// GPU: %[[S:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>)
// GPU-COUNT-3: linalg.generic {{.*}} ins(%[[S]]{{.*}} : tensor<4x8xf32>{{.*}})
func.func @residual_sum_read_three_times(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %z: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %next = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %z : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %squared = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %negated = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %next, %squared, %negated : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// The same sum read by two ops: by the traffic model (kept: 2 inputs read,
// 1 result written, 2 reads of it; recomputed: 2 x 2 inputs read) it is
// recomputed in both readers, and its own op goes.
// CHECK-LABEL: func.func @residual_sum_read_twice
// CHECK: %[[NEXT:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1, %arg2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: %[[SQUARED:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.mulf
// CHECK: return %[[NEXT]], %[[SQUARED]]
func.func @residual_sum_read_twice(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %z: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %next = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %z : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %squared = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %next, %squared : tensor<4x8xf32>, tensor<4x8xf32>
}

// tile-fuse's groups: ops of two groups stay two kernels; ops of one group
// fuse, and the fused op keeps the group (the kernel passes after read
// it); an op from no group (the exponential) fuses into the group before
// it.
// CHECK-LABEL: func.func @groups
// CHECK: %[[A:.*]] = linalg.generic
// CHECK-SAME: tile.group = 1
// CHECK: arith.addf
// CHECK: %[[B:.*]] = linalg.generic
// CHECK-SAME: ins(%[[A]] : tensor<4x8xf32>)
// CHECK-SAME: tile.group = 2
// CHECK: arith.mulf
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK-NOT: linalg.generic
// CHECK: return %[[B]]
func.func @groups(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tile.group = 1 : i64} {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tile.group = 2 : i64} {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tile.group = 2 : i64} {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %s = arith.maximumf %a, %z : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}
