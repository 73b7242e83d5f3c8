// RUN: aicc-opt %s -split-input-file -tile-fuse-horizontal | FileCheck %s
// RUN: aicc-opt %s -split-input-file -tile-fuse-horizontal=launch-bytes=0 | FileCheck %s --check-prefix=TRAFFIC

// BERT's attention: three products of one input, each with its bias (on
// either side of the add, one bias shared), become one product of the
// matrices side by side, one bias and a slice per product. The matrices'
// rows are laid end to end: row 0 is q's 1s, k's 2s and v's row 0.

// The function holds nothing else: the joined weights and biases are
// gone.

// CHECK-LABEL: func @projections
// CHECK-NEXT: %[[W:.*]] = tile.weight "q.w+k.w+v.w" = dense_resource<"q.w+k.w+v.w"> : tensor<2x24xf32>
// CHECK-NEXT: %[[B:.*]] = tile.constant dense<[5.000000e-01, 5.000000e-01, 5.000000e-01, 5.000000e-01, 5.000000e-01, 5.000000e-01, 5.000000e-01, 5.000000e-01, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00, 5.000000e-01, {{.*}}]> : tensor<24xf32>
// CHECK-NEXT: %[[P:.*]] = tile.matmul %arg0, %[[W]] : (tensor<3x4x2xf32>, tensor<2x24xf32>) -> tensor<3x4x24xf32>
// CHECK-NEXT: %[[PB:.*]] = tile.binary add %[[P]], %[[B]]
// CHECK-NEXT: %[[Q:.*]] = tile.slice %[[PB]] starts = [0, 0, 0] sizes = [3, 4, 8] steps = [1, 1, 1] : tensor<3x4x24xf32> -> tensor<3x4x8xf32>
// CHECK-NEXT: %[[K:.*]] = tile.slice %[[PB]] starts = [0, 0, 8] sizes = [3, 4, 8]
// CHECK-NEXT: %[[V:.*]] = tile.slice %[[PB]] starts = [0, 0, 16] sizes = [3, 4, 8]
// CHECK-NEXT: %[[S:.*]] = tile.binary add %[[Q]], %[[K]]
// CHECK-NEXT: %[[T:.*]] = tile.binary mul %[[S]], %[[V]]
// CHECK-NEXT: return %[[T]]
// CHECK: "q.w+k.w+v.w": "0x08000000
// CHECK-SAME: 0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F
// CHECK-SAME: 00000040000000400000004000000040000000400000004000000040000000400000803F0000004000004040000080400000A0400000C0400000E04000000041
func.func @projections(%x: tensor<3x4x2xf32>) -> tensor<3x4x8xf32> {
  %wq = tile.weight "q.w" = dense<1.0> : tensor<2x8xf32>
  %wk = tile.weight "k.w" = dense<2.0> : tensor<2x8xf32>
  %wv = tile.weight "v.w" = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]]> : tensor<2x8xf32>
  %bq = tile.constant dense<0.5> : tensor<8xf32>
  %bk = tile.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %q = tile.matmul %x, %wq : (tensor<3x4x2xf32>, tensor<2x8xf32>) -> tensor<3x4x8xf32>
  %q1 = tile.binary add %bq, %q : (tensor<8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  %k = tile.matmul %x, %wk : (tensor<3x4x2xf32>, tensor<2x8xf32>) -> tensor<3x4x8xf32>
  %k1 = tile.binary add %k, %bk : (tensor<3x4x8xf32>, tensor<8xf32>) -> tensor<3x4x8xf32>
  %v = tile.matmul %x, %wv : (tensor<3x4x2xf32>, tensor<2x8xf32>) -> tensor<3x4x8xf32>
  %v1 = tile.binary add %v, %bq : (tensor<3x4x8xf32>, tensor<8xf32>) -> tensor<3x4x8xf32>
  %s = tile.binary add %q1, %k1 : (tensor<3x4x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  %t = tile.binary mul %s, %v1 : (tensor<3x4x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  return %t : tensor<3x4x8xf32>
}

// -----

// BERT's form: the biases are weights too, and the packed bias is a
// weight named after them.

// CHECK-LABEL: func @weight_biases
// CHECK-DAG: %[[W:.*]] = tile.weight "q.w+k.w" = dense_resource<"q.w+k.w"> : tensor<4x16xf16>
// CHECK-DAG: %[[B:.*]] = tile.weight "q.b+k.b" = dense_resource<"q.b+k.b"> : tensor<16xf16>
// CHECK: %[[P:.*]] = tile.matmul %arg0, %[[W]] : (tensor<5x4xf16>, tensor<4x16xf16>) -> tensor<5x16xf16>
// CHECK-NEXT: tile.binary add %[[P]], %[[B]]
// CHECK: "q.b+k.b": "0x08000000003C003C003C003C003C003C003C003C0040004000400040004000400040
func.func @weight_biases(%x: tensor<5x4xf16>) -> (tensor<5x8xf16>, tensor<5x8xf16>) {
  %wq = tile.weight "q.w" = dense<1.0> : tensor<4x8xf16>
  %wk = tile.weight "k.w" = dense<2.0> : tensor<4x8xf16>
  %bq = tile.weight "q.b" = dense<1.0> : tensor<8xf16>
  %bk = tile.weight "k.b" = dense<2.0> : tensor<8xf16>
  %q = tile.matmul %x, %wq : (tensor<5x4xf16>, tensor<4x8xf16>) -> tensor<5x8xf16>
  %q1 = tile.binary add %q, %bq : (tensor<5x8xf16>, tensor<8xf16>) -> tensor<5x8xf16>
  %k = tile.matmul %x, %wk : (tensor<5x4xf16>, tensor<4x8xf16>) -> tensor<5x8xf16>
  %k1 = tile.binary add %bk, %k : (tensor<8xf16>, tensor<5x8xf16>) -> tensor<5x8xf16>
  %r = tile.binary mul %q1, %k1 : (tensor<5x8xf16>, tensor<5x8xf16>) -> tensor<5x8xf16>
  return %r, %q1 : tensor<5x8xf16>, tensor<5x8xf16>
}

// -----

// Matrices stored transposed (ONNX Gemm with transB, N x K) pack one
// after another, the product still transposing: q's two rows of 1s, then
// k's of 2s.

// CHECK-LABEL: func @transposed
// CHECK-NEXT: %[[W:.*]] = tile.weight "q.wt+k.wt" = dense_resource<"q.wt+k.wt"> : tensor<16x2xf32>
// CHECK-NEXT: %[[P:.*]] = tile.matmul %arg0, %[[W]] transpose_rhs : (tensor<5x2xf32>, tensor<16x2xf32>) -> tensor<5x16xf32>
// CHECK-NEXT: tile.slice %[[P]] starts = [0, 0] sizes = [5, 8]
// CHECK-NEXT: tile.slice %[[P]] starts = [0, 8] sizes = [5, 8]
// CHECK: "q.wt+k.wt": "0x08000000
// CHECK-SAME: 0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F
// CHECK-SAME: 00000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040"
func.func @transposed(%x: tensor<5x2xf32>) -> tensor<5x8xf32> {
  %wq = tile.weight "q.wt" = dense<1.0> : tensor<8x2xf32>
  %wk = tile.weight "k.wt" = dense<2.0> : tensor<8x2xf32>
  %q = tile.matmul %x, %wq transpose_rhs : (tensor<5x2xf32>, tensor<8x2xf32>) -> tensor<5x8xf32>
  %k = tile.matmul %x, %wk transpose_rhs : (tensor<5x2xf32>, tensor<8x2xf32>) -> tensor<5x8xf32>
  %r = tile.binary add %q, %k : (tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

// -----

// Products without biases pack without one; a matrix that something else
// reads too stays for it. Widths may differ.

// CHECK-LABEL: func @unbiased
// CHECK-DAG: %[[A:.*]] = tile.constant dense<1.000000e+00> : tensor<4x8xf16>
// CHECK-DAG: %[[W:.*]] = tile.constant dense<{{.*}}> : tensor<4x24xf16>
// CHECK: %[[P:.*]] = tile.matmul %arg0, %[[W]] : (tensor<5x4xf16>, tensor<4x24xf16>) -> tensor<5x24xf16>
// CHECK-NEXT: %[[S0:.*]] = tile.slice %[[P]] starts = [0, 0] sizes = [5, 8]
// CHECK-NEXT: %[[S1:.*]] = tile.slice %[[P]] starts = [0, 8] sizes = [5, 16]
// CHECK: return %[[S0]], %[[S1]], %[[A]]
func.func @unbiased(%x: tensor<5x4xf16>) -> (tensor<5x8xf16>, tensor<5x16xf16>, tensor<4x8xf16>) {
  %a = tile.constant dense<1.0> : tensor<4x8xf16>
  %b = tile.constant dense<2.0> : tensor<4x16xf16>
  %0 = tile.matmul %x, %a : (tensor<5x4xf16>, tensor<4x8xf16>) -> tensor<5x8xf16>
  %1 = tile.matmul %x, %b : (tensor<5x4xf16>, tensor<4x16xf16>) -> tensor<5x16xf16>
  return %0, %1, %a : tensor<5x8xf16>, tensor<5x16xf16>, tensor<4x8xf16>
}

// -----

// Refused: different inputs, a matrix computed at run time, a transposed
// matrix beside untransposed ones (alone in its group), a width whose slices would start off the 16-byte boundaries of
// half storage (12 columns: 24 bytes in f16), and a product with a bias
// beside one without (one of each is no group).

// CHECK-LABEL: func @refused
// CHECK-COUNT-8: tile.matmul
// CHECK-NOT: tile.matmul
// CHECK-NOT: tile.slice
func.func @refused(%x: tensor<5x4xf32>, %y: tensor<5x4xf32>, %m: tensor<4x8xf32>) -> (tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x12xf32>, tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) {
  %w = tile.weight "w" = dense<1.0> : tensor<4x8xf32>
  %wt = tile.weight "wt" = dense<1.0> : tensor<8x4xf32>
  %w12 = tile.weight "w12" = dense<1.0> : tensor<4x12xf32>
  %bias = tile.weight "bias" = dense<1.0> : tensor<8xf32>
  // One product per input.
  %0 = tile.matmul %x, %w : (tensor<5x4xf32>, tensor<4x8xf32>) -> tensor<5x8xf32>
  %1 = tile.matmul %y, %w : (tensor<5x4xf32>, tensor<4x8xf32>) -> tensor<5x8xf32>
  // The other products of %x: a matrix argument, a transposed matrix,
  // twelve columns.
  %2 = tile.matmul %x, %m : (tensor<5x4xf32>, tensor<4x8xf32>) -> tensor<5x8xf32>
  %3 = tile.matmul %x, %wt transpose_rhs : (tensor<5x4xf32>, tensor<8x4xf32>) -> tensor<5x8xf32>
  %4 = tile.matmul %x, %w12 : (tensor<5x4xf32>, tensor<4x12xf32>) -> tensor<5x12xf32>
  // Of %y: the unbiased one above, a biased one.
  %5 = tile.matmul %y, %w : (tensor<5x4xf32>, tensor<4x8xf32>) -> tensor<5x8xf32>
  %6 = tile.binary add %5, %bias : (tensor<5x8xf32>, tensor<8xf32>) -> tensor<5x8xf32>
  // A batched matrix.
  %wb = tile.weight "wb" = dense<1.0> : tensor<1x4x8xf32>
  %7 = tile.matmul %x, %wb : (tensor<5x4xf32>, tensor<1x4x8xf32>) -> tensor<1x5x8xf32>
  %8 = tile.reshape %7 : tensor<1x5x8xf32> -> tensor<5x8xf32>
  %9 = tile.matmul %x, %m : (tensor<5x4xf32>, tensor<4x8xf32>) -> tensor<5x8xf32>
  return %0, %1, %2, %3, %6, %4, %8, %9, %9 : tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x12xf32>, tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>
}

// -----

// The traffic model: packed, the input is read once instead of twice and
// one launch is saved; the returned results are copied out of the packed
// one. With launches free (TRAFFIC), 2 x 2 x 512 bytes of copies outweigh
// the 64 bytes of input read once less: kept apart.

// CHECK-LABEL: func @returned
// CHECK-COUNT-1: tile.matmul
// CHECK-NOT: tile.matmul
// TRAFFIC-LABEL: func @returned
// TRAFFIC-COUNT-2: tile.matmul
// TRAFFIC-NOT: tile.slice
func.func @returned(%x: tensor<2x8xf32>) -> (tensor<2x64xf32>, tensor<2x64xf32>) {
  %a = tile.weight "a" = dense<1.0> : tensor<8x64xf32>
  %b = tile.weight "b" = dense<2.0> : tensor<8x64xf32>
  %0 = tile.matmul %x, %a : (tensor<2x8xf32>, tensor<8x64xf32>) -> tensor<2x64xf32>
  %1 = tile.matmul %x, %b : (tensor<2x8xf32>, tensor<8x64xf32>) -> tensor<2x64xf32>
  return %0, %1 : tensor<2x64xf32>, tensor<2x64xf32>
}

// -----

// Consumed in the function (not returned), the same products pack even
// with launches free: the input is read once.

// CHECK-LABEL: func @consumed
// CHECK-COUNT-1: tile.matmul
// CHECK-NOT: tile.matmul
// TRAFFIC-LABEL: func @consumed
// TRAFFIC: tile.matmul %arg0, %{{.*}} : (tensor<2x8xf32>, tensor<8x128xf32>) -> tensor<2x128xf32>
// TRAFFIC-NOT: tile.matmul
func.func @consumed(%x: tensor<2x8xf32>) -> tensor<2x64xf32> {
  %a = tile.weight "a" = dense<1.0> : tensor<8x64xf32>
  %b = tile.weight "b" = dense<2.0> : tensor<8x64xf32>
  %0 = tile.matmul %x, %a : (tensor<2x8xf32>, tensor<8x64xf32>) -> tensor<2x64xf32>
  %1 = tile.matmul %x, %b : (tensor<2x8xf32>, tensor<8x64xf32>) -> tensor<2x64xf32>
  %2 = tile.binary add %0, %1 : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
  return %2 : tensor<2x64xf32>
}
