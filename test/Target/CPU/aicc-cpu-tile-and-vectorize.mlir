// RUN: aicc-opt %s -aicc-cpu-tile-and-vectorize="tile-m=8 tile-n=16 register-m=4 register-n=8 lanes=8" -mlir-print-local-scope | FileCheck %s
// RUN: aicc-opt %s -aicc-cpu-tile-and-vectorize -mlir-print-local-scope | FileCheck %s --check-prefix=DEFAULT

// Contractions: thread tiles (scf.forall, named after the problem), then
// register tiles (scf.for, columns outer), then single reduction steps
// whose vector.contract of a column by a row accumulates in an iter_arg.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<8x32xf32>)
// The fill became the accumulator's initial value.
// CHECK-NOT: linalg.fill
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4x8xf32>
// CHECK: %[[R:.*]] = scf.forall (%[[TM:.*]], %[[TN:.*]]) = (0, 0) to (16, 32) step (8, 16) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<16x32xf32>)
// CHECK: %[[TA:.*]] = tensor.extract_slice %[[A]][%[[TM]], 0] [8, 8] [1, 1]
// CHECK: %[[TB:.*]] = tensor.extract_slice %[[B]][0, %[[TN]]] [8, 16] [1, 1]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C8:.*]] iter_args
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C8]] step %[[C4:.*]] iter_args
// CHECK: %[[RA:.*]] = tensor.extract_slice %[[TA]][%[[I]], 0] [4, 8] [1, 1]
// CHECK: %[[RB:.*]] = tensor.extract_slice %[[TB]][0, %[[J]]] [8, 8] [1, 1]
// CHECK: %[[ACC:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[SUM:.*]] = %[[ZERO]]) -> (vector<4x8xf32>)
// CHECK: tensor.extract_slice %[[RA]][0, %[[K]]] [4, 1] [1, 1]
// CHECK: tensor.extract_slice %[[RB]][%[[K]], 0] [1, 8] [1, 1]
// CHECK: %[[COL:.*]] = vector.transfer_read %{{.*}} : tensor<4x1xf32>, vector<4x1xf32>
// CHECK: %[[ROW:.*]] = vector.transfer_read %{{.*}} : tensor<1x8xf32>, vector<1x8xf32>
// CHECK: %[[NEXT:.*]] = vector.contract
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>
// CHECK-SAME: %[[COL]], %[[ROW]], %[[SUM]] : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
// CHECK: scf.yield %[[NEXT]] : vector<4x8xf32>
// The accumulator is written once, after the reduction loop.
// CHECK: vector.transfer_write %[[ACC]], %{{.*}} : vector<4x8xf32>, tensor<4x8xf32>
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[TM]], %[[TN]]] [8, 16] [1, 1]
// CHECK: } {aicc.task_name = "matmul_16x32x8"}
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// A linalg.generic contraction (what convert-tile-to-linalg makes) gets the
// same tiles; its step is a broadcast multiply and an add of the 4 x 8
// accumulator rather than a vector.contract.
// CHECK-LABEL: func.func @generic_matmul
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (16, 32) step (8, 16)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}) -> (vector<4x8xf32>)
// CHECK: %[[COL:.*]] = vector.transfer_read %{{.*}} permutation_map = affine_map<(d0, d1) -> (d0, 0, d1)>} : tensor<4x1xf32>, vector<4x8x1xf32>
// CHECK: %[[ROW:.*]] = vector.transfer_read %{{.*}} permutation_map = affine_map<(d0, d1) -> (0, d1, d0)>} : tensor<1x8xf32>, vector<4x8x1xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[COL]], %[[ROW]] : vector<4x8x1xf32>
// CHECK: %[[Q:.*]] = vector.shape_cast %[[P]] : vector<4x8x1xf32> to vector<4x8xf32>
// CHECK: %[[NEXT:.*]] = arith.addf %[[SUM]], %[[Q]] : vector<4x8xf32>
// CHECK: scf.yield %[[NEXT]] : vector<4x8xf32>
// CHECK: } {aicc.task_name = "matmul_16x32x8"}
func.func @generic_matmul(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// DEFAULT-LABEL: func.func @matmul_default_register_tile
// A single thread tile needs no scf.forall; the register tile is 6 x 16.
// DEFAULT-NOT: scf.forall
// DEFAULT: scf.for {{.*}} -> (vector<6x16xf32>)
// DEFAULT: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// DEFAULT: vector.transfer_write {{.*}} : vector<6x16xf32>, tensor<6x16xf32>
func.func @matmul_default_register_tile(%a: tensor<12x8xf32>, %b: tensor<8x32xf32>) -> tensor<12x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<12x32xf32>) -> tensor<12x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<12x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<12x32xf32>) -> tensor<12x32xf32>
  return %r : tensor<12x32xf32>
}

// Rows that do not divide by register-m: the 2-row edge is peeled into a
// static tile of its own.
// CHECK-LABEL: func.func @matmul_edge_rows
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
// CHECK: vector.contract {{.*}} : vector<2x1xf32>, vector<1x8xf32> into vector<2x8xf32>
func.func @matmul_edge_rows(%a: tensor<10x8xf32>, %b: tensor<8x16xf32>) -> tensor<10x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<10x16xf32>) -> tensor<10x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<10x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<10x16xf32>) -> tensor<10x16xf32>
  return %r : tensor<10x16xf32>
}

// A reduction longer than tile-k is blocked: the fill stays outside, and
// each register tile reads its accumulator before the reduction loop.
// CHECK-LABEL: func.func @matmul_blocked_k
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C256:.*]] iter_args(%{{.*}} = %[[FILL]])
// CHECK: tensor.extract_slice %{{.*}} [8, 256] [1, 1] : tensor<8x512xf32> to tensor<8x256xf32>
// CHECK: %[[INIT:.*]] = vector.transfer_read %{{.*}} : tensor<4x8xf32>, vector<4x8xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C256]] step %{{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<4x8xf32>)
// CHECK: vector.contract
func.func @matmul_blocked_k(%a: tensor<8x512xf32>, %b: tensor<512x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x512xf32>, tensor<512x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Batch dimensions are thread-tiled by one.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: vector.contract {{.*}} : vector<1x4x1xf32>, vector<1x1x8xf32> into vector<1x4x8xf32>
// CHECK: } {aicc.task_name = "matmul_8x16x4"}
func.func @batch_matmul(%a: tensor<2x8x4xf32>, %b: tensor<2x4x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x8x4xf32>, tensor<2x4x16xf32>) outs(%acc : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %r : tensor<2x8x16xf32>
}

// A convolution's product over packed panels [n, g, m, panel, w]: a thread
// takes tile-n / w panels, and the register tile runs over m and w.
// CHECK-LABEL: func.func @conv_panels
// CHECK: scf.forall (%{{.*}}) = (0) to (4) step (2)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}) -> (vector<1x1x4x1x8xf32>)
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<1x1x4x1x8x1xf32>
// CHECK: %[[Q:.*]] = vector.shape_cast %[[P]] : vector<1x1x4x1x8x1xf32> to vector<1x1x4x1x8xf32>
// CHECK: arith.addf %[[SUM]], %[[Q]] : vector<1x1x4x1x8xf32>
// CHECK: } {aicc.task_name = "matmul_8x8x12"}
func.func @conv_panels(%w: tensor<1x8x12xf32>, %p: tensor<1x1x4x12x8xf32>) -> tensor<1x1x8x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x8x4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x8x4x8xf32>) -> tensor<1x1x8x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%w, %p : tensor<1x8x12xf32>, tensor<1x1x4x12x8xf32>) outs(%acc : tensor<1x1x8x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %b, %a : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x8x4x8xf32>
  return %r : tensor<1x1x8x4x8xf32>
}

// Contractions accumulating in i32 get the same micro-kernel.
// CHECK-LABEL: func.func @integer_matmul
// CHECK: scf.forall
// CHECK: vector.contract {{.*}} : vector<4x1xi32>, vector<1x8xi32> into vector<4x8xi32>
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @integer_matmul(%a: tensor<16x8xi32>, %b: tensor<8x32xi32>) -> tensor<16x32xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x32xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<16x32xi32>) -> tensor<16x32xi32>
  %r = linalg.matmul ins(%a, %b : tensor<16x8xi32>, tensor<8x32xi32>) outs(%acc : tensor<16x32xi32>) -> tensor<16x32xi32>
  return %r : tensor<16x32xi32>
}

// Element-wise ops with enough work (64K elements: 4 tasks of 16K) share
// their outer dimension among threads, then run in rows of 4 * lanes.
// CHECK-LABEL: func.func @elementwise_distributed
// CHECK-SAME: (%[[A:.*]]: tensor<256x256xf32>, %[[B:.*]]: tensor<256xf32>)
// CHECK: scf.forall (%[[T:.*]]) = (0) to (256) step (64)
// CHECK: tensor.extract_slice %[[A]][%[[T]], 0] [64, 256] [1, 1]
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[X:.*]] = vector.transfer_read %{{.*}} : tensor<1x32xf32>, vector<1x32xf32>
// The broadcast operand is read with a broadcasting permutation map.
// CHECK: %[[Y:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true, true], permutation_map = affine_map<(d0) -> (0, d0)>} : tensor<32xf32>, vector<1x32xf32>
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : vector<1x32xf32>
// CHECK: vector.transfer_write %[[S]], %{{.*}} : vector<1x32xf32>, tensor<1x32xf32>
// CHECK: } {aicc.task_name = "elementwise"}
// CHECK-NOT: linalg.generic
func.func @elementwise_distributed(%a: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<256x256xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// Small element-wise ops stay on one thread; a row of 40 is a vector of 32
// and a peeled vector of 8.
// CHECK-LABEL: func.func @elementwise_small_peeled
// CHECK-NOT: scf.forall
// CHECK: scf.for
// CHECK: math.exp %{{.*}} : vector<1x32xf32>
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 32] [1, 8] [1, 1]
// CHECK: math.exp %{{.*}} : vector<1x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @elementwise_small_peeled(%a: tensor<4x40xf32>) -> tensor<4x40xf32> {
  %e = tensor.empty() : tensor<4x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x40xf32>) outs(%e : tensor<4x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<4x40xf32>
  return %r : tensor<4x40xf32>
}

// A row of 7 (a 7x7 plane) widens to a vector of 8 read and written under
// a constant mask; a per-row scale broadcast through a unit dimension
// (d0, 0) is read as one element.
// CHECK-LABEL: func.func @elementwise_masked_rows
// CHECK: scf.for
// CHECK: %[[MASK:.*]] = vector.constant_mask [1, 7] : vector<1x8xi1>
// CHECK: %[[X:.*]] = vector.transfer_read %{{.*}}, %[[MASK]] {in_bounds = [true, true]} : tensor<1x7xf32>, vector<1x8xf32>
// CHECK: %[[Y:.*]] = vector.transfer_read %{{.*}} : tensor<1x1xf32>, vector<1x8xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : vector<1x8xf32>
// CHECK: vector.transfer_write %[[P]], %{{.*}}, %[[MASK]] {in_bounds = [true, true]} : vector<1x8xf32>, tensor<1x7xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @elementwise_masked_rows(%a: tensor<4x7xf32>, %s: tensor<4x1xf32>) -> tensor<4x7xf32> {
  %e = tensor.empty() : tensor<4x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %s : tensor<4x7xf32>, tensor<4x1xf32>) outs(%e : tensor<4x7xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<4x7xf32>
  return %r : tensor<4x7xf32>
}

// Integer division keeps its row unpadded: a masked-off lane could divide
// by zero.
// CHECK-LABEL: func.func @negative_masked_division
// CHECK-NOT: vector.constant_mask
// CHECK: arith.divsi %{{.*}}, %{{.*}} : vector<1x7xi32>
// CHECK: return
func.func @negative_masked_division(%a: tensor<4x7xi32>, %b: tensor<4x7xi32>) -> tensor<4x7xi32> {
  %e = tensor.empty() : tensor<4x7xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x7xi32>, tensor<4x7xi32>) outs(%e : tensor<4x7xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.divsi %x, %y : i32
    linalg.yield %q : i32
  } -> tensor<4x7xi32>
  return %r : tensor<4x7xi32>
}

// Reductions are distributed along their parallel dimension, the fill of
// the accumulator fused into each task; they are not vectorized here.
// CHECK-LABEL: func.func @reduction_distributed
// CHECK: scf.forall (%{{.*}}) = (0) to (256) step (64)
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<64x256xf32>) outs(%[[F]] : tensor<64xf32>)
// CHECK: } {aicc.task_name = "reduction"}
func.func @reduction_distributed(%a: tensor<256x256xf32>) -> tensor<256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<256x256xf32>) outs(%acc : tensor<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// Modular indexing (tile.tile's repetition) is not distributed: tiling
// cannot compute the operand slice of d0 mod 2.
// CHECK-LABEL: func.func @negative_modular_map
// CHECK-NOT: scf.forall
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK-SAME: affine_map<(d0, d1) -> (d0 mod 2, d1)>
// CHECK-SAME: ins(%{{.*}} : tensor<2x256xf32>) outs(%{{.*}} : tensor<256x256xf32>)
func.func @negative_modular_map(%a: tensor<2x256xf32>) -> tensor<256x256xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 mod 2, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// i1 results are distributed but not row-vectorized (bytes in memory, bits
// in vectors).
// CHECK-LABEL: func.func @negative_boolean_rows
// CHECK: scf.forall (%{{.*}}) = (0) to (256) step (64)
// CHECK-NOT: vector.
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<64x256xi1>)
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: vector.
// CHECK: } {aicc.task_name = "elementwise"}
func.func @negative_boolean_rows(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xi1> {
  %e = tensor.empty() : tensor<256x256xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xi1>) {
  ^bb0(%x: f32, %y: f32, %o: i1):
    %c = arith.cmpf olt, %x, %y : f32
    linalg.yield %c : i1
  } -> tensor<256x256xi1>
  return %r : tensor<256x256xi1>
}

// Dynamic shapes are left alone.
// CHECK-LABEL: func.func @negative_dynamic
// CHECK-NOT: scf.
// CHECK-NOT: vector.
// CHECK: linalg.matmul
func.func @negative_dynamic(%a: tensor<?x8xf32>, %b: tensor<8x32xf32>, %acc: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}
