// RUN: aicc-opt %s -split-input-file -aicc-gpu-fold-permutations | FileCheck %s

// Attention's scores: Q and K come out of their projections as
// [b, s, h, d] and are permuted to [b, h, s, d] and [b, h, d, s] for the
// product. The product reads both projections in place through composed
// maps (d contiguous in both), and the two copies go.

// CHECK-DAG: #[[Q:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
// CHECK-LABEL: func.func @scores
// CHECK-SAME: (%[[QP:.*]]: tensor<2x128x12x64xf16>, %[[KP:.*]]: tensor<2x128x12x64xf16>
// CHECK-NOT: tensor<2x12x64x128xf16>
// CHECK: linalg.generic {indexing_maps = [#[[Q]], #[[K]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[QP]], %[[KP]] : tensor<2x128x12x64xf16>, tensor<2x128x12x64xf16>)
// CHECK-NOT: linalg.generic
// CHECK: return
#scalar = affine_map<(d0, d1, d2, d3) -> ()>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @scores(%q: tensor<2x128x12x64xf16>, %k: tensor<2x128x12x64xf16>) -> tensor<2x12x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x12x128x64xf16>
  %qt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x128x12x64xf16>) outs(%e1 : tensor<2x12x128x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x12x128x64xf16>
  %e2 = tensor.empty() : tensor<2x12x64x128xf16>
  %kt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x128x12x64xf16>) outs(%e2 : tensor<2x12x64x128xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x12x64x128xf16>
  %e3 = tensor.empty() : tensor<2x12x128x128xf32>
  %fill = linalg.generic {indexing_maps = [#scalar, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%zero : f32) outs(%e3 : tensor<2x12x128x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x12x128x128xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%qt, %kt : tensor<2x12x128x64xf16>, tensor<2x12x64x128xf16>) outs(%fill : tensor<2x12x128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %a = arith.addf %o, %m : f32
    linalg.yield %a : f32
  } -> tensor<2x12x128x128xf32>
  return %s : tensor<2x12x128x128xf32>
}

// -----

// Not folded: a producer that computes (a scale), and a permutation into
// a reader that is not a product (an element-wise op). The permutation
// that a product and that op read is folded into the product (which reads
// %a through the transposed map) and stays for the other.

// CHECK-DAG: #[[AT:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @refused
// CHECK: %[[SCALED:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: %[[PERM:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.yield
// CHECK: linalg.generic {{.*}} ins(%[[PERM]] :
// CHECK: arith.negf
// CHECK: linalg.generic {{.*}} ins(%[[SCALED]], %arg1 :
// CHECK: linalg.generic {indexing_maps = [#[[AT]], {{.*}} ins(%arg0, %arg2 :
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
#pa = affine_map<(d0, d1, d2) -> (d0, d2)>
#pb = affine_map<(d0, d1, d2) -> (d2, d1)>
#pc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @refused(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %w: tensor<64x8xf32>) -> (tensor<32x64xf32>, tensor<64x16xf32>, tensor<32x8xf32>) {
  %c = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<64x32xf32>
  %scaled = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x32xf32>) outs(%e0 : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %c : f32
    linalg.yield %m : f32
  } -> tensor<64x32xf32>
  %e1 = tensor.empty() : tensor<32x64xf32>
  %perm = linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x32xf32>) outs(%e1 : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x64xf32>
  %neg = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%perm : tensor<32x64xf32>) outs(%e1 : tensor<32x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<64x16xf32>
  %prod = linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%scaled, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%e2 : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  %e3 = tensor.empty() : tensor<32x8xf32>
  %prod2 = linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%perm, %w : tensor<32x64xf32>, tensor<64x8xf32>) outs(%e3 : tensor<32x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x8xf32>
  return %neg, %prod, %prod2 : tensor<32x64xf32>, tensor<64x16xf32>, tensor<32x8xf32>
}
