// RUN: aicc-opt %s -aicc-fill-per-use | FileCheck %s

// A zero fill that two reductions accumulate into and one op reads: each
// reduction gets a fill of its own just before it, the reader keeps the
// original.
// CHECK-LABEL: func.func @shared
// CHECK: %[[READ:.*]] = linalg.fill
// CHECK: %[[F1:.*]] = linalg.fill
// CHECK-NEXT: %[[S1:.*]] = linalg.generic {{.*}} outs(%[[F1]] :
// CHECK: %[[F2:.*]] = linalg.fill
// CHECK-NEXT: %[[S2:.*]] = linalg.generic {{.*}} outs(%[[F2]] :
// CHECK: linalg.generic {{.*}} ins(%[[S1]], %[[S2]], %[[READ]] :
#id = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @shared(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s1 = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %s2 = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%s1, %s2, %acc : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %c : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A fill with one writer, separated from it by other work, moves next to
// it; fills of one op's two outputs stay together before it.
// CHECK-LABEL: func.func @moved
// CHECK: linalg.generic {{.*}} ins(%arg0 :
// CHECK: linalg.fill
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.generic {{.*}} outs(
// CHECK-NOT: linalg.fill
func.func @moved(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %neg = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%neg : tensor<4x8xf32>) outs(%acc, %max : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32, %m: f32):
    %s = arith.addf %o, %a : f32
    %t = arith.maximumf %m, %a : f32
    linalg.yield %s, %t : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1, %neg : tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>
}
