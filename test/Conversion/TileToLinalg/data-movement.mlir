// RUN: aicc-opt %s -convert-tile-to-linalg -mlir-print-local-scope | FileCheck %s

// Data movement: positive-step slices, splits, concatenations, constant
// padding and reshapes are tensor ops; permutations are linalg.transpose;
// what needs computed indices (negative steps, reflect padding, gathers)
// is a linalg.generic that reads with tensor.extract; broadcasts and tiling
// are generics whose input map does the indexing.

// CHECK-LABEL: func.func @slice_strided
// CHECK-SAME: (%[[X:.*]]: tensor<4x10xf32>)
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[X]][1, 1] [2, 3] [1, 3] : tensor<4x10xf32> to tensor<2x3xf32>
// CHECK-NEXT: return %[[S]]
func.func @slice_strided(%x: tensor<4x10xf32>) -> tensor<2x3xf32> {
  %0 = tile.slice %x starts = [1, 1] sizes = [2, 3] steps = [1, 3] : tensor<4x10xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A negative step reads x[3 - i, 4 * j + 1].
// CHECK-LABEL: func.func @slice_negative_step
// CHECK-SAME: (%[[X:.*]]: tensor<4x10xf32>)
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>]
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[M1:.*]] = arith.constant -1 : index
// CHECK: %[[NI:.*]] = arith.muli %[[I]], %[[M1]] : index
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[R:.*]] = arith.addi %[[NI]], %[[C3]] : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[SJ:.*]] = arith.muli %[[J]], %[[C4]] : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[C:.*]] = arith.addi %[[SJ]], %[[C1]] : index
// CHECK: %[[E:.*]] = tensor.extract %[[X]][%[[R]], %[[C]]] : tensor<4x10xf32>
// CHECK: linalg.yield %[[E]] : f32
func.func @slice_negative_step(%x: tensor<4x10xf32>) -> tensor<4x3xf32> {
  %0 = tile.slice %x starts = [3, 1] sizes = [4, 3] steps = [-1, 4] : tensor<4x10xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[A:.*]] = tensor.extract_slice %[[X]][0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
// CHECK: %[[B:.*]] = tensor.extract_slice %[[X]][0, 2] [4, 6] [1, 1] : tensor<4x8xf32> to tensor<4x6xf32>
// CHECK: return %[[A]], %[[B]]
func.func @split(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x6xf32>) {
  %0:2 = tile.split %x axis = 1 sizes = [2, 6] : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x6xf32>
  return %0#0, %0#1 : tensor<4x2xf32>, tensor<4x6xf32>
}

// Concatenation inserts each operand at its running offset.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, %[[C0]]] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x8xf32>
// CHECK: %[[OFF:.*]] = arith.addi %[[C0]], %{{.*}} : index
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[B]] into %[[I0]][0, %[[OFF]]] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<2x8xf32>
// CHECK: return %[[I1]]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = tile.concat %a, %b axis = 1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @pad_constant
// CHECK: %[[V:.*]] = arith.constant -1.000000e+00 : f32
// CHECK: tensor.pad %{{.*}} low[0, 1] high[0, 1]
// CHECK: tensor.yield %[[V]] : f32
// CHECK: } : tensor<2x3xf32> to tensor<2x5xf32>
func.func @pad_constant(%x: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %0 = tile.pad constant %x padding = [0, 1, 0, 1] value = -1.0 : f32 : tensor<2x3xf32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// Reflect padding folds each index into [0, size) with period 2 * (size - 1).
// CHECK-LABEL: func.func @pad_reflect
// CHECK-NOT: tensor.pad
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x7xf32>)
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[JS:.*]] = arith.subi %[[J]], %{{.*}} : index
// CHECK: %[[P:.*]] = arith.constant 4 : index
// CHECK: arith.remsi %[[JS]], %[[P]] : index
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<2x3xf32>
func.func @pad_reflect(%x: tensor<2x3xf32>) -> tensor<3x7xf32> {
  %0 = tile.pad reflect %x padding = [1, 2, 0, 2] : tensor<2x3xf32> -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK: linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = tile.transpose %x permutation = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// A static reshape that regroups dimensions is one collapse or expand.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK: return %[[R]]
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = tile.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// One that also moves a unit dimension drops the source's units first:
// both steps are views even of a strided slice (batch 1's head split).
// CHECK-LABEL: func.func @reshape_units
// CHECK-SAME: (%[[X:.*]]: tensor<5x1x8xf32>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<5x1x8xf32> into tensor<5x8xf32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[C]] {{\[}}[0, 1], [2, 3]] output_shape [1, 5, 2, 4] : tensor<5x8xf32> into tensor<1x5x2x4xf32>
// CHECK: return %[[R]]
func.func @reshape_units(%x: tensor<5x1x8xf32>) -> tensor<1x5x2x4xf32> {
  %0 = tile.reshape %x : tensor<5x1x8xf32> -> tensor<1x5x2x4xf32>
  return %0 : tensor<1x5x2x4xf32>
}

// Any other collapses to 1-D and expands to the target.
// CHECK-LABEL: func.func @reshape_flat
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK: return %[[R]]
func.func @reshape_flat(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = tile.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// Gather: indices are an input of the generic; negative ones wrap, and the
// result is clamped into the table before tensor.extract reads it.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[T:.*]]: tensor<10x4xf32>, %[[I:.*]]: tensor<3xi64>)
// CHECK: %[[N:.*]] = arith.constant 10 : index
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME: ins(%[[I]] : tensor<3xi64>) outs(%{{.*}} : tensor<3x4xf32>)
// CHECK: ^bb0(%[[IDX:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[COL:.*]] = linalg.index 1 : index
// CHECK: %[[K:.*]] = arith.index_cast %[[IDX]] : i64 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[K]], %{{.*}} : index
// CHECK: %[[WRAP:.*]] = arith.addi %[[K]], %[[N]] : index
// CHECK: arith.select %[[NEG]], %[[WRAP]], %[[K]] : index
// CHECK: arith.maxsi
// CHECK: %[[ROW:.*]] = arith.minsi
// CHECK: %[[V:.*]] = tensor.extract %[[T]][%[[ROW]], %[[COL]]] : tensor<10x4xf32>
// CHECK: linalg.yield %[[V]] : f32
func.func @gather(%t: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = tile.gather %t, %i axis = 0 : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @expand
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME: ins(%{{.*}} : tensor<3x1xf32>) outs(%{{.*}} : tensor<2x3x4xf32>)
func.func @expand(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = tile.expand %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// Tiling reads the input modulo its size.
// CHECK-LABEL: func.func @tile_repeats
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1) -> (d0 mod 3, d1 mod 4)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME: ins(%{{.*}} : tensor<3x4xf32>) outs(%{{.*}} : tensor<6x4xf32>)
func.func @tile_repeats(%x: tensor<3x4xf32>) -> tensor<6x4xf32> {
  %0 = tile.tile %x repeats = [2, 1] : tensor<3x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// A constant scalar index (negative counts from the end): the slice there,
// a view once bufferized, not a copy.
// CHECK-LABEL: func.func @gather_constant_index
// CHECK-NOT: linalg.generic
// CHECK: tensor.extract_slice %{{.*}}[2, 0, 0] [1, 5, 4] [1, 1, 1] : tensor<3x5x4xf32> to tensor<5x4xf32>
func.func @gather_constant_index(%t: tensor<3x5x4xf32>) -> tensor<5x4xf32> {
  %i = tile.constant dense<-1> : tensor<i64>
  %0 = tile.gather %t, %i axis = 0 : (tensor<3x5x4xf32>, tensor<i64>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// Along an inner axis.
// CHECK-LABEL: func.func @gather_constant_index_inner
// CHECK: tensor.extract_slice %{{.*}}[0, 1, 0] [3, 1, 4] [1, 1, 1] : tensor<3x5x4xf32> to tensor<3x4xf32>
func.func @gather_constant_index_inner(%t: tensor<3x5x4xf32>) -> tensor<3x4xf32> {
  %i = tile.constant dense<1> : tensor<i32>
  %0 = tile.gather %t, %i axis = 1 : (tensor<3x5x4xf32>, tensor<i32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
