// RUN: aicc-opt %s -convert-tile-to-linalg -mlir-print-local-scope | FileCheck %s
// RUN: aicc-opt %s -aicc-cpu-convert-tile-to-linalg=panel-width=8 -mlir-print-local-scope | FileCheck %s --check-prefix=PANEL

// tile.matmul becomes a zero-filled accumulator and one linalg.generic over
// (batch..., m, n, k) whose last iterator is the reduction.

// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[ACC]] : tensor<4x16xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[O]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: return %[[R]] : tensor<4x16xf32>
func.func @plain(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = tile.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// With static shapes a transposed operand is transposed once into a
// contiguous copy, and the product reads both operands row-major.
// CHECK-LABEL: func.func @transposes
// CHECK-SAME: (%[[A:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<16x8xf32>)
// CHECK: %[[AT:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME: ins(%[[A]] : tensor<8x4xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: %[[BT:.*]] = linalg.generic
// CHECK-SAME: ins(%[[B]] : tensor<16x8xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// CHECK-SAME: ins(%[[AT]], %[[BT]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
func.func @transposes(%a: tensor<8x4xf32>, %b: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %0 = tile.matmul %a, %b transpose_lhs transpose_rhs : (tensor<8x4xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// A batch of products against one matrix is one taller product.
// CHECK-LABEL: func.func @batch_of_one_matrix
// CHECK-SAME: (%[[X:.*]]: tensor<3x5x8xf32>, %[[W:.*]]: tensor<1x8x16xf32>)
// CHECK-DAG: %[[XM:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<3x5x8xf32> into tensor<15x8xf32>
// CHECK-DAG: %[[WM:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0, 1], [2]] : tensor<1x8x16xf32> into tensor<8x16xf32>
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-SAME: ins(%[[XM]], %[[WM]] : tensor<15x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<15x16xf32>)
// CHECK: tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2]] output_shape [3, 5, 16] : tensor<15x16xf32> into tensor<3x5x16xf32>
func.func @batch_of_one_matrix(%x: tensor<3x5x8xf32>, %w: tensor<1x8x16xf32>) -> tensor<3x5x16xf32> {
  %0 = tile.matmul %x, %w : (tensor<3x5x8xf32>, tensor<1x8x16xf32>) -> tensor<3x5x16xf32>
  return %0 : tensor<3x5x16xf32>
}

// Batch matmul: batch dimensions lead; a size-1 batch dimension broadcasts
// (index 0) and a lower-rank operand aligns to the right.
// CHECK-LABEL: func.func @batch_broadcast
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x4x16xf32>)
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK: } -> tensor<2x3x4x16xf32>
func.func @batch_broadcast(%a: tensor<2x1x4x8xf32>, %b: tensor<3x8x16xf32>) -> tensor<2x3x4x16xf32> {
  %0 = tile.matmul %a, %b : (tensor<2x1x4x8xf32>, tensor<3x8x16xf32>) -> tensor<2x3x4x16xf32>
  return %0 : tensor<2x3x4x16xf32>
}

// CHECK-LABEL: func.func @batch_same
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
func.func @batch_same(%a: tensor<5x4x8xf32>, %b: tensor<5x8x16xf32>) -> tensor<5x4x16xf32> {
  %0 = tile.matmul %a, %b : (tensor<5x4x8xf32>, tensor<5x8x16xf32>) -> tensor<5x4x16xf32>
  return %0 : tensor<5x4x16xf32>
}

// A dynamic batch takes its size from the left-hand operand.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x8xf32>, %{{.*}}: tensor<16x8xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x4x8xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?x4x16xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
func.func @dynamic_batch(%x: tensor<?x4x8xf32>, %w: tensor<16x8xf32>) -> tensor<?x4x16xf32> {
  %0 = tile.matmul %x, %w transpose_rhs : (tensor<?x4x8xf32>, tensor<16x8xf32>) -> tensor<?x4x16xf32>
  return %0 : tensor<?x4x16xf32>
}

// Integer products widen each operand by its own signedness.
// CHECK-LABEL: func.func @integer_widening
// CHECK-SAME: (%{{.*}}: tensor<4x8xi8>, %{{.*}}: tensor<8x2xi8>) -> tensor<4x2xi32>
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: linalg.fill ins(%[[Z]] : i32)
// CHECK: ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %[[O:.*]]: i32):
// CHECK-NEXT: %[[XW:.*]] = arith.extui %[[X]] : i8 to i32
// CHECK-NEXT: %[[YW:.*]] = arith.extsi %[[Y]] : i8 to i32
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[XW]], %[[YW]] : i32
// CHECK-NEXT: arith.addi %[[O]], %[[P]] : i32
func.func @integer_widening(%a: tensor<4x8xui8>, %b: tensor<8x2xi8>) -> tensor<4x2xi32> {
  %0 = tile.matmul %a, %b : (tensor<4x8xui8>, tensor<8x2xi8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// With panels, a short product (a matrix-vector product) whose N is not a
// multiple of the panel width pads its right-hand side with zero columns
// (here rows of the transposed operand) to whole panels, packs them, and
// keeps the product's first N columns.
// PANEL-LABEL: func.func @short_product_padded_panels
// PANEL-SAME: (%[[X:.*]]: tensor<1x16xf32>, %[[W:.*]]: tensor<20x16xf32>)
// PANEL: %[[P:.*]] = tensor.pad %[[W]] low[0, 0] high[4, 0]
// PANEL: } : tensor<20x16xf32> to tensor<24x16xf32>
// PANEL: %[[S:.*]] = tensor.expand_shape %[[P]] {{.*}} : tensor<24x16xf32> into tensor<1x1x3x8x16xf32>
// PANEL: %[[K:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<1x1x3x8x16xf32>) outs(%{{.*}} : tensor<1x1x3x16x8xf32>)
// PANEL: %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[K]] : tensor<1x1x16xf32>, tensor<1x1x3x16x8xf32>)
// PANEL: %[[C:.*]] = tensor.collapse_shape %{{.*}} : tensor<1x1x1x24xf32> into tensor<1x24xf32>
// PANEL: %[[O:.*]] = tensor.extract_slice %[[C]][0, 0] [1, 20] [1, 1] : tensor<1x24xf32> to tensor<1x20xf32>
// PANEL: return %[[O]]
func.func @short_product_padded_panels(%x: tensor<1x16xf32>, %w: tensor<20x16xf32>) -> tensor<1x20xf32> {
  %0 = tile.matmul %x, %w transpose_rhs : (tensor<1x16xf32>, tensor<20x16xf32>) -> tensor<1x20xf32>
  return %0 : tensor<1x20xf32>
}
