// RUN: aicc-opt %s -split-input-file -aicc-gpu-k-major-weights | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-k-major-weights -aicc-pack-weights="min-rank=2" | FileCheck %s --check-prefix=PACKED

// A MatMul's [K, N] 8-bit weight is read through a transpose to [N, K],
// rows of k, which aicc-pack-weights evaluates at compile time (the new
// weight holds the transposed bytes: 0 4 8 1 5 9 ... of 0..11 as 3x4).

// CHECK-LABEL: func.func @matmul
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x3xi8>
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg0 : tensor<3x4xi8>) outs(%[[EMPTY]] : tensor<4x3xi8>) permutation = [1, 0]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[NK:map[0-9]*]], #{{.*}}], {{.*}} ins(%arg1, %[[T]] : tensor<2x3xi8>, tensor<4x3xi8>)

// PACKED-LABEL: func.func @matmul
// PACKED-SAME: (%arg0: tensor<4x3xi8> {aicc.weight = "w.packed", aicc.weight_value = dense_resource<w.packed> : tensor<4x3xi8>}
// PACKED-NOT: linalg.transpose
// PACKED: w.packed: "0x0100000000040801050902060A03070B"
func.func @matmul(%w: tensor<3x4xi8> {aicc.weight = "w", aicc.weight_value = dense_resource<w> : tensor<3x4xi8>}, %x: tensor<2x3xi8>) -> tensor<2x4xi32> {
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<2x4xi32>
  %fill = linalg.fill ins(%zero : i32) outs(%empty : tensor<2x4xi32>) -> tensor<2x4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x3xi8>, tensor<3x4xi8>) outs(%fill : tensor<2x4xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %0 = arith.extui %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  } -> tensor<2x4xi32>
  return %r : tensor<2x4xi32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x01000000000102030405060708090A0B"
    }
  }
#-}

// -----

// Left alone: a weight read along k already (a convolution's filter, a
// Gemm's transposed B), an operand computed at run time, and the weight of
// a float product of 16 rows (the tensor cores read it as it is).

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: linalg.transpose
// CHECK: return
func.func @left_alone(%w: tensor<4x3xi8> {aicc.weight = "w", aicc.weight_value = dense<1> : tensor<4x3xi8>}, %f: tensor<3x4xf32> {aicc.weight = "f", aicc.weight_value = dense<1.0> : tensor<3x4xf32>}, %x: tensor<2x3xi8>, %y: tensor<3x4xi8>, %xf: tensor<16x3xf32>, %o: tensor<2x4xi32>, %of: tensor<16x4xf32>) -> (tensor<2x4xi32>, tensor<2x4xi32>, tensor<16x4xf32>) {
  %along = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x3xi8>, tensor<4x3xi8>) outs(%o : tensor<2x4xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %0 = arith.extui %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  } -> tensor<2x4xi32>
  %runtime = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %y : tensor<2x3xi8>, tensor<3x4xi8>) outs(%o : tensor<2x4xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %0 = arith.extui %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  } -> tensor<2x4xi32>
  %float = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf, %f : tensor<16x3xf32>, tensor<3x4xf32>) outs(%of : tensor<16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %2 = arith.mulf %a, %b : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<16x4xf32>
  return %along, %runtime, %float : tensor<2x4xi32>, tensor<2x4xi32>, tensor<16x4xf32>
}

// -----

// A float product of 15 rows (batch 1 x 15 tokens) is too thin for the
// tensor cores: its lanes walk k, so its [K, N] weight is read as [N, K].
// The batch loop (extent 1) counts as a row.

// CHECK-LABEL: func.func @thin_float
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg0 : tensor<3x4xf16>) outs(%{{.*}} : tensor<4x3xf16>) permutation = [1, 0]
// CHECK: linalg.generic {{.*}} ins(%arg1, %[[T]] : tensor<1x15x3xf16>, tensor<4x3xf16>)
func.func @thin_float(%w: tensor<3x4xf16> {aicc.weight = "w", aicc.weight_value = dense<1.0> : tensor<3x4xf16>}, %x: tensor<1x15x3xf16>, %o: tensor<1x15x4xf16>) -> tensor<1x15x4xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x15x3xf16>, tensor<3x4xf16>) outs(%o : tensor<1x15x4xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %2 = arith.mulf %a, %b : f16
    %3 = arith.addf %acc, %2 : f16
    linalg.yield %3 : f16
  } -> tensor<1x15x4xf16>
  return %r : tensor<1x15x4xf16>
}
