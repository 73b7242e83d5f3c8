// RUN: aicc-opt %s -split-input-file -tile-fold-layout-chains | FileCheck %s

// torchvision's attention splits its packed projection [s, b, 3 e] with a
// reshape to [1, s, b, 3, e], a transpose [3, 1, 2, 0, 4], a reshape and a
// gather per q, k, v, then a reshape [s, b h, d], a transpose and a reshape
// per head split. Picked apart at the source, each is a slice of the
// projection along its last dimension, a reshape [s, b, h, d] and one
// transpose [1, 2, 0, 3] (BERT's head split, read in place by kernels).

// CHECK-LABEL: func @packed_attention
// CHECK-DAG: %[[Q:.*]] = tile.slice %arg0 starts = [0, 0, 0] sizes = [5, 2, 8] steps = [1, 1, 1] : tensor<5x2x24xf32> -> tensor<5x2x8xf32>
// CHECK-DAG: %[[K:.*]] = tile.slice %arg0 starts = [0, 0, 8] sizes = [5, 2, 8] steps = [1, 1, 1] : tensor<5x2x24xf32> -> tensor<5x2x8xf32>
// CHECK-DAG: %[[QR:.*]] = tile.reshape %[[Q]] : tensor<5x2x8xf32> -> tensor<5x2x2x4xf32>
// CHECK-DAG: %[[KR:.*]] = tile.reshape %[[K]] : tensor<5x2x8xf32> -> tensor<5x2x2x4xf32>
// CHECK-DAG: %[[QT:.*]] = tile.transpose %[[QR]] permutation = [1, 2, 0, 3] : tensor<5x2x2x4xf32> -> tensor<2x2x5x4xf32>
// CHECK-DAG: %[[KT:.*]] = tile.transpose %[[KR]] permutation = [1, 2, 0, 3] : tensor<5x2x2x4xf32> -> tensor<2x2x5x4xf32>
// CHECK: return %[[QT]], %[[KT]]
func.func @packed_attention(%p: tensor<5x2x24xf32>) -> (tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>) {
  %zero = tile.constant dense<0> : tensor<i64>
  %one = tile.constant dense<1> : tensor<i64>
  %0 = tile.reshape %p : tensor<5x2x24xf32> -> tensor<1x5x2x3x8xf32>
  %1 = tile.transpose %0 permutation = [3, 1, 2, 0, 4] : tensor<1x5x2x3x8xf32> -> tensor<3x5x2x1x8xf32>
  %2 = tile.reshape %1 : tensor<3x5x2x1x8xf32> -> tensor<3x5x2x8xf32>
  %q = tile.gather %2, %zero axis = 0 : (tensor<3x5x2x8xf32>, tensor<i64>) -> tensor<5x2x8xf32>
  %k = tile.gather %2, %one axis = 0 : (tensor<3x5x2x8xf32>, tensor<i64>) -> tensor<5x2x8xf32>
  %q1 = tile.reshape %q : tensor<5x2x8xf32> -> tensor<5x4x4xf32>
  %q2 = tile.transpose %q1 permutation = [1, 0, 2] : tensor<5x4x4xf32> -> tensor<4x5x4xf32>
  %q3 = tile.reshape %q2 : tensor<4x5x4xf32> -> tensor<2x2x5x4xf32>
  %k1 = tile.reshape %k : tensor<5x2x8xf32> -> tensor<5x4x4xf32>
  %k2 = tile.transpose %k1 permutation = [1, 0, 2] : tensor<5x4x4xf32> -> tensor<4x5x4xf32>
  %k3 = tile.reshape %k2 : tensor<4x5x4xf32> -> tensor<2x2x5x4xf32>
  return %q3, %k3 : tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>
}

// -----

// A negative position counts from the end; a transpose that moves only
// unit dimensions is a reshape.

// CHECK-LABEL: func @negative_position
// CHECK: %[[S:.*]] = tile.slice %arg0 starts = [0, 6] sizes = [4, 3] steps = [1, 1] : tensor<4x9xf32> -> tensor<4x3xf32>
// CHECK: %[[R:.*]] = tile.reshape %[[S]] : tensor<4x3xf32> -> tensor<1x4x3xf32>
// CHECK-NOT: tile.transpose
// CHECK: return %[[R]]
func.func @negative_position(%x: tensor<4x9xf32>) -> tensor<1x4x3xf32> {
  %last = tile.constant dense<-1> : tensor<i64>
  %0 = tile.reshape %x : tensor<4x9xf32> -> tensor<4x3x3xf32>
  %1 = tile.gather %0, %last axis = 1 : (tensor<4x3x3xf32>, tensor<i64>) -> tensor<4x3xf32>
  %2 = tile.reshape %1 : tensor<4x3xf32> -> tensor<4x1x3xf32>
  %3 = tile.transpose %2 permutation = [1, 0, 2] : tensor<4x1x3xf32> -> tensor<1x4x3xf32>
  return %3 : tensor<1x4x3xf32>
}

// -----

// What stays: a gather of a position that is not constant; a pick of the
// inner part of a split, a slice of the reshape (not of its source); a
// reshape of a transpose that merges dimensions.

// CHECK-LABEL: func @kept
// CHECK: tile.gather %{{.*}}, %arg1 axis = 0
// CHECK: %[[S:.*]] = tile.reshape %arg2 : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
// CHECK: tile.slice %[[S]] starts = [0, 0, 1] sizes = [2, 4, 1]
// CHECK: tile.transpose %arg2 permutation = [1, 0, 2]
// CHECK: tile.reshape %{{.*}} : tensor<3x2x4xf32> -> tensor<6x4xf32>
func.func @kept(%x: tensor<3x5x2x8xf32>, %i: tensor<i64>, %y: tensor<2x3x4xf32>) -> (tensor<5x2x8xf32>, tensor<4x2xf32>, tensor<6x4xf32>) {
  %one = tile.constant dense<1> : tensor<i64>
  %0 = tile.gather %x, %i axis = 0 : (tensor<3x5x2x8xf32>, tensor<i64>) -> tensor<5x2x8xf32>
  %f = tile.reshape %y : tensor<2x3x4xf32> -> tensor<2x12xf32>
  %s = tile.reshape %f : tensor<2x12xf32> -> tensor<2x4x3xf32>
  %1 = tile.gather %s, %one axis = 2 : (tensor<2x4x3xf32>, tensor<i64>) -> tensor<2x4xf32>
  %t1 = tile.transpose %1 permutation = [1, 0] : tensor<2x4xf32> -> tensor<4x2xf32>
  %2 = tile.transpose %y permutation = [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %3 = tile.reshape %2 : tensor<3x2x4xf32> -> tensor<6x4xf32>
  return %0, %t1, %3 : tensor<5x2x8xf32>, tensor<4x2xf32>, tensor<6x4xf32>
}

// -----

// A transpose of rows (the last dimension stays) before a product with a
// matrix, and before a bias add, moves after them: torchvision's
// attention transposes its input to sequence first before the packed
// projection; the projection then runs batch first and its slices are
// BERT's head split, one transpose each.

// CHECK-LABEL: func @rows_transposed_before_projection
// CHECK: %[[P:.*]] = tile.matmul %arg0, %arg1 : (tensor<2x5x8xf32>, tensor<8x24xf32>) -> tensor<2x5x24xf32>
// CHECK: %[[B:.*]] = tile.binary add %arg2, %[[P]] : (tensor<24xf32>, tensor<2x5x24xf32>) -> tensor<2x5x24xf32>
// CHECK: %[[Q:.*]] = tile.slice %[[B]] starts = [0, 0, 8] sizes = [2, 5, 8]
// CHECK: %[[R:.*]] = tile.reshape %[[Q]] : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
// CHECK: %[[T:.*]] = tile.transpose %[[R]] permutation = [0, 2, 1, 3] : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
// CHECK: return %[[T]]
func.func @rows_transposed_before_projection(%x: tensor<2x5x8xf32>, %w: tensor<8x24xf32>, %b: tensor<24xf32>) -> tensor<2x2x5x4xf32> {
  %one = tile.constant dense<1> : tensor<i64>
  %t = tile.transpose %x permutation = [1, 0, 2] : tensor<2x5x8xf32> -> tensor<5x2x8xf32>
  %p = tile.matmul %t, %w : (tensor<5x2x8xf32>, tensor<8x24xf32>) -> tensor<5x2x24xf32>
  %a = tile.binary add %b, %p : (tensor<24xf32>, tensor<5x2x24xf32>) -> tensor<5x2x24xf32>
  %0 = tile.reshape %a : tensor<5x2x24xf32> -> tensor<1x5x2x3x8xf32>
  %1 = tile.transpose %0 permutation = [3, 1, 2, 0, 4] : tensor<1x5x2x3x8xf32> -> tensor<3x5x2x1x8xf32>
  %2 = tile.reshape %1 : tensor<3x5x2x1x8xf32> -> tensor<3x5x2x8xf32>
  %k = tile.gather %2, %one axis = 0 : (tensor<3x5x2x8xf32>, tensor<i64>) -> tensor<5x2x8xf32>
  %k1 = tile.reshape %k : tensor<5x2x8xf32> -> tensor<5x4x4xf32>
  %k2 = tile.transpose %k1 permutation = [1, 0, 2] : tensor<5x4x4xf32> -> tensor<4x5x4xf32>
  %k3 = tile.reshape %k2 : tensor<4x5x4xf32> -> tensor<2x2x5x4xf32>
  return %k3 : tensor<2x2x5x4xf32>
}

// -----

// What stays before a product: a transpose that moves the last dimension,
// and one before a batched right operand.

// CHECK-LABEL: func @products_kept
// CHECK: %[[T:.*]] = tile.transpose %arg0 permutation = [0, 2, 1]
// CHECK: tile.matmul %[[T]], %arg1
// CHECK: %[[U:.*]] = tile.transpose %arg2 permutation = [1, 0, 2]
// CHECK: tile.matmul %[[U]], %arg3
func.func @products_kept(%x: tensor<2x5x8xf32>, %w: tensor<5x3xf32>, %y: tensor<5x2x8xf32>, %v: tensor<2x8x3xf32>) -> (tensor<2x8x3xf32>, tensor<2x5x3xf32>) {
  %t = tile.transpose %x permutation = [0, 2, 1] : tensor<2x5x8xf32> -> tensor<2x8x5xf32>
  %p = tile.matmul %t, %w : (tensor<2x8x5xf32>, tensor<5x3xf32>) -> tensor<2x8x3xf32>
  %u = tile.transpose %y permutation = [1, 0, 2] : tensor<5x2x8xf32> -> tensor<2x5x8xf32>
  %q = tile.matmul %u, %v : (tensor<2x5x8xf32>, tensor<2x8x3xf32>) -> tensor<2x5x3xf32>
  return %p, %q : tensor<2x8x3xf32>, tensor<2x5x3xf32>
}

// -----

// A product whose rows a reshape merged ([s, b, h, d] -> [s b, h d], or
// GPT-2's [b, s, e] -> [b s, e] before its Gemm) runs on the rows as they
// are, K merged alone, and so does its bias; the reshape of the rows goes
// after them (and cancels against the reshape back), so that element-wise
// ops after the bias (a transpose back, an activation) see the product's
// own shape.

// The transpose of the rows back to batch first then moves before the
// product, where it composes with the head merge's transpose: ViT's
// [b, h, s, d] -> [s, b, h, d] and [s, b, e] -> [b, s, e] become BERT's
// [b, s, h, d], and the product and its bias come out batch first.

// CHECK-LABEL: func @rows_reshaped_before_projection
// CHECK: %[[T:.*]] = tile.transpose %arg0 permutation = [0, 2, 1, 3] : tensor<2x3x5x4xf32> -> tensor<2x5x3x4xf32>
// CHECK: %[[K:.*]] = tile.reshape %[[T]] : tensor<2x5x3x4xf32> -> tensor<2x5x12xf32>
// CHECK: %[[P:.*]] = tile.matmul %[[K]], %arg1 transpose_rhs : (tensor<2x5x12xf32>, tensor<12x12xf32>) -> tensor<2x5x12xf32>
// CHECK: %[[B:.*]] = tile.binary add %[[P]], %arg2 : (tensor<2x5x12xf32>, tensor<12xf32>) -> tensor<2x5x12xf32>
// CHECK-NOT: tile.transpose
// CHECK: return %[[B]]
func.func @rows_reshaped_before_projection(%a: tensor<2x3x5x4xf32>, %w: tensor<12x12xf32>, %b: tensor<12xf32>) -> tensor<2x5x12xf32> {
  %0 = tile.transpose %a permutation = [2, 0, 1, 3] : tensor<2x3x5x4xf32> -> tensor<5x2x3x4xf32>
  %1 = tile.reshape %0 : tensor<5x2x3x4xf32> -> tensor<10x12xf32>
  %2 = tile.matmul %1, %w transpose_rhs : (tensor<10x12xf32>, tensor<12x12xf32>) -> tensor<10x12xf32>
  %3 = tile.binary add %2, %b : (tensor<10x12xf32>, tensor<12xf32>) -> tensor<10x12xf32>
  %4 = tile.reshape %3 : tensor<10x12xf32> -> tensor<5x2x12xf32>
  %5 = tile.transpose %4 permutation = [1, 0, 2] : tensor<5x2x12xf32> -> tensor<2x5x12xf32>
  return %5 : tensor<2x5x12xf32>
}

// -----

// What stays after a product: a transpose of its rows where the product
// (or its bias) is read elsewhere too, where its left operand is not a
// transpose, and one that moves the last dimension.

// CHECK-LABEL: func @transposes_kept_after_products
// CHECK: %[[P:.*]] = tile.matmul %{{.*}}, %arg1 : (tensor<5x2x12xf32>, tensor<12x12xf32>) -> tensor<5x2x12xf32>
// CHECK: tile.transpose %[[P]] permutation = [1, 0, 2]
// CHECK: %[[Q:.*]] = tile.matmul %arg2, %arg1 : (tensor<5x2x12xf32>, tensor<12x12xf32>) -> tensor<5x2x12xf32>
// CHECK: tile.transpose %[[Q]] permutation = [1, 0, 2]
// CHECK: tile.transpose %{{.*}} permutation = [0, 2, 1]
func.func @transposes_kept_after_products(%a: tensor<2x3x5x4xf32>, %w: tensor<12x12xf32>, %y: tensor<5x2x12xf32>) -> (tensor<2x5x12xf32>, tensor<5x2x12xf32>, tensor<2x5x12xf32>, tensor<5x12x2xf32>) {
  %0 = tile.transpose %a permutation = [2, 0, 1, 3] : tensor<2x3x5x4xf32> -> tensor<5x2x3x4xf32>
  %1 = tile.reshape %0 : tensor<5x2x3x4xf32> -> tensor<5x2x12xf32>
  %2 = tile.matmul %1, %w : (tensor<5x2x12xf32>, tensor<12x12xf32>) -> tensor<5x2x12xf32>
  %3 = tile.transpose %2 permutation = [1, 0, 2] : tensor<5x2x12xf32> -> tensor<2x5x12xf32>
  %4 = tile.matmul %y, %w : (tensor<5x2x12xf32>, tensor<12x12xf32>) -> tensor<5x2x12xf32>
  %5 = tile.transpose %4 permutation = [1, 0, 2] : tensor<5x2x12xf32> -> tensor<2x5x12xf32>
  %6 = tile.transpose %4 permutation = [0, 2, 1] : tensor<5x2x12xf32> -> tensor<5x12x2xf32>
  return %3, %2, %5, %6 : tensor<2x5x12xf32>, tensor<5x2x12xf32>, tensor<2x5x12xf32>, tensor<5x12x2xf32>
}

// -----

// A scalar operand (rank 0) broadcasts like a bias: the transpose moves
// before the product through it too.

// CHECK-LABEL: func @scaled_projection
// CHECK: %[[T:.*]] = tile.transpose %arg0 permutation = [0, 2, 1, 3] : tensor<2x3x5x4xf32> -> tensor<2x5x3x4xf32>
// CHECK: %[[K:.*]] = tile.reshape %[[T]] : tensor<2x5x3x4xf32> -> tensor<2x5x12xf32>
// CHECK: %[[P:.*]] = tile.matmul %[[K]], %arg1 : (tensor<2x5x12xf32>, tensor<12x12xf32>) -> tensor<2x5x12xf32>
// CHECK: %[[S:.*]] = tile.binary mul %[[P]], %arg2 : (tensor<2x5x12xf32>, tensor<f32>) -> tensor<2x5x12xf32>
// CHECK-NOT: tile.transpose
// CHECK: return %[[S]]
func.func @scaled_projection(%a: tensor<2x3x5x4xf32>, %w: tensor<12x12xf32>, %s: tensor<f32>) -> tensor<2x5x12xf32> {
  %0 = tile.transpose %a permutation = [2, 0, 1, 3] : tensor<2x3x5x4xf32> -> tensor<5x2x3x4xf32>
  %1 = tile.reshape %0 : tensor<5x2x3x4xf32> -> tensor<5x2x12xf32>
  %2 = tile.matmul %1, %w : (tensor<5x2x12xf32>, tensor<12x12xf32>) -> tensor<5x2x12xf32>
  %3 = tile.binary mul %2, %s : (tensor<5x2x12xf32>, tensor<f32>) -> tensor<5x2x12xf32>
  %4 = tile.transpose %3 permutation = [1, 0, 2] : tensor<5x2x12xf32> -> tensor<2x5x12xf32>
  return %4 : tensor<2x5x12xf32>
}

// -----

// At batch 1 the batch dimension comes and goes as reshapes of units: a
// head split [s, 1, e] -> [s, h, d], a transpose [1, 0, 2] and a reshape
// to [1, h, s, d] (then K's transpose of its last two). The units move
// before the transpose, which then meets K's: a reshape of the slice and
// one transpose each, batch 32's form.

// CHECK-LABEL: func @batch_one_head_split
// CHECK-DAG: %[[Q:.*]] = tile.slice %arg0 starts = [0, 0, 0] sizes = [5, 1, 8]
// CHECK-DAG: %[[K:.*]] = tile.slice %arg0 starts = [0, 0, 8] sizes = [5, 1, 8]
// CHECK-DAG: %[[QR:.*]] = tile.reshape %[[Q]] : tensor<5x1x8xf32> -> tensor<1x5x2x4xf32>
// CHECK-DAG: %[[QT:.*]] = tile.transpose %[[QR]] permutation = [0, 2, 1, 3] : tensor<1x5x2x4xf32> -> tensor<1x2x5x4xf32>
// CHECK-DAG: %[[KR:.*]] = tile.reshape %[[K]] : tensor<5x1x8xf32> -> tensor<1x5x2x4xf32>
// CHECK-DAG: %[[KT:.*]] = tile.transpose %[[KR]] permutation = [0, 2, 3, 1] : tensor<1x5x2x4xf32> -> tensor<1x2x4x5xf32>
// CHECK: return %[[QT]], %[[KT]]
func.func @batch_one_head_split(%p: tensor<5x1x24xf32>) -> (tensor<1x2x5x4xf32>, tensor<1x2x4x5xf32>) {
  %q = tile.slice %p starts = [0, 0, 0] sizes = [5, 1, 8] steps = [1, 1, 1] : tensor<5x1x24xf32> -> tensor<5x1x8xf32>
  %k = tile.slice %p starts = [0, 0, 8] sizes = [5, 1, 8] steps = [1, 1, 1] : tensor<5x1x24xf32> -> tensor<5x1x8xf32>
  %q1 = tile.reshape %q : tensor<5x1x8xf32> -> tensor<5x2x4xf32>
  %q2 = tile.transpose %q1 permutation = [1, 0, 2] : tensor<5x2x4xf32> -> tensor<2x5x4xf32>
  %q3 = tile.reshape %q2 : tensor<2x5x4xf32> -> tensor<1x2x5x4xf32>
  %k1 = tile.reshape %k : tensor<5x1x8xf32> -> tensor<5x2x4xf32>
  %k2 = tile.transpose %k1 permutation = [1, 0, 2] : tensor<5x2x4xf32> -> tensor<2x5x4xf32>
  %k3 = tile.reshape %k2 : tensor<2x5x4xf32> -> tensor<1x2x5x4xf32>
  %k4 = tile.transpose %k3 permutation = [0, 1, 3, 2] : tensor<1x2x5x4xf32> -> tensor<1x2x4x5xf32>
  return %q3, %k4 : tensor<1x2x5x4xf32>, tensor<1x2x4x5xf32>
}

// -----

// A reshape that merges dimensions of the transposed value stays after it.

// CHECK-LABEL: func @negative_merge_after_transpose
// CHECK: %[[T:.*]] = tile.transpose %arg0 permutation = [2, 1, 0]
// CHECK: tile.reshape %[[T]] : tensor<4x3x2xf32> -> tensor<1x12x2xf32>
func.func @negative_merge_after_transpose(%x: tensor<2x3x4xf32>) -> tensor<1x12x2xf32> {
  %0 = tile.transpose %x permutation = [2, 1, 0] : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  %1 = tile.reshape %0 : tensor<4x3x2xf32> -> tensor<1x12x2xf32>
  return %1 : tensor<1x12x2xf32>
}

// -----

// At batch 1 a product's rows lose the batch unit before it ([1, s, e] to
// [s, e]) and get it back after its bias: the product takes the rows as
// they are, and the two reshapes cancel, so that the activation after it
// (GPT-2's GELU) is its epilogue as at batch 32.

// CHECK-LABEL: func @batch_one_rows_around_product
// CHECK: %[[P:.*]] = tile.matmul %arg0, %arg1 : (tensor<1x5x8xf32>, tensor<8x6xf32>) -> tensor<1x5x6xf32>
// CHECK: %[[B:.*]] = tile.binary add %[[P]], %arg2 : (tensor<1x5x6xf32>, tensor<6xf32>) -> tensor<1x5x6xf32>
// CHECK: %[[G:.*]] = tile.unary tanh %[[B]] : tensor<1x5x6xf32>
// CHECK-NOT: tile.reshape
// CHECK: return %[[G]]
func.func @batch_one_rows_around_product(%x: tensor<1x5x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>) -> tensor<1x5x6xf32> {
  %0 = tile.reshape %x : tensor<1x5x8xf32> -> tensor<5x8xf32>
  %1 = tile.matmul %0, %w : (tensor<5x8xf32>, tensor<8x6xf32>) -> tensor<5x6xf32>
  %2 = tile.binary add %1, %b : (tensor<5x6xf32>, tensor<6xf32>) -> tensor<5x6xf32>
  %3 = tile.reshape %2 : tensor<5x6xf32> -> tensor<1x5x6xf32>
  %4 = tile.unary tanh %3 : tensor<1x5x6xf32>
  return %4 : tensor<1x5x6xf32>
}

// -----

// A reshape that only drops a unit after K ([5, 8, 1] to [5, 8]) leaves
// the rows as they are: nothing moves.

// CHECK-LABEL: func @negative_trailing_unit_before_product
// CHECK: %[[R:.*]] = tile.reshape %arg0 : tensor<5x8x1xf32> -> tensor<5x8xf32>
// CHECK: tile.matmul %[[R]], %arg1 : (tensor<5x8xf32>, tensor<8x6xf32>) -> tensor<5x6xf32>
func.func @negative_trailing_unit_before_product(%x: tensor<5x8x1xf32>, %w: tensor<8x6xf32>) -> tensor<5x6xf32> {
  %0 = tile.reshape %x : tensor<5x8x1xf32> -> tensor<5x8xf32>
  %1 = tile.matmul %0, %w : (tensor<5x8xf32>, tensor<8x6xf32>) -> tensor<5x6xf32>
  return %1 : tensor<5x6xf32>
}

// -----

// A vector made a one-row matrix ([e] to [1, e]) has no rows before K to
// keep: the product stays a matrix product.

// CHECK-LABEL: func @negative_vector_rows
// CHECK: %[[R:.*]] = tile.reshape %arg0 : tensor<24xf32> -> tensor<1x24xf32>
// CHECK: tile.matmul %[[R]], %arg1 : (tensor<1x24xf32>, tensor<24x10xf32>) -> tensor<1x10xf32>
func.func @negative_vector_rows(%x: tensor<24xf32>, %w: tensor<24x10xf32>) -> tensor<1x10xf32> {
  %0 = tile.reshape %x : tensor<24xf32> -> tensor<1x24xf32>
  %1 = tile.matmul %0, %w : (tensor<1x24xf32>, tensor<24x10xf32>) -> tensor<1x10xf32>
  return %1 : tensor<1x10xf32>
}
