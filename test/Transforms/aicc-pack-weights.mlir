// RUN: aicc-opt %s -aicc-pack-weights -mlir-print-local-scope | FileCheck %s
// RUN: aicc-opt %s -aicc-pack-weights | FileCheck %s --check-prefix=DATA

// A transpose of a weight, seen through a reshape, is evaluated at compile
// time: the result is a new weight after the existing ones, with the data
// rearranged, and the weight only the copy read is gone.
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: (%[[PACKED:.*]]: tensor<3x2xf32> {aicc.weight = "w.packed", aicc.weight_value = dense_resource<w.packed> : tensor<3x2xf32>}
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: linalg.generic
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[X]]
// CHECK: return %[[PACKED]], %[[S]]
func.func @transposed(%w: tensor<6xf32> {aicc.weight = "w", aicc.weight_value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>}, %x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %m = tensor.expand_shape %w [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<3x2xf32>
  %s = arith.addf %x, %x : tensor<2x3xf32>
  return %t, %s : tensor<3x2xf32>, tensor<2x3xf32>
}

// A copy of an input (not a weight), or one that computes, stays.
// CHECK-LABEL: func.func @not_weights
// CHECK-SAME: aicc.weight = "v"
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: arith.negf
func.func @not_weights(%v: tensor<2x3xf32> {aicc.weight = "v", aicc.weight_value = dense<1.0> : tensor<2x3xf32>}, %x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<3x2xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<2x3xf32>
  return %t, %n : tensor<3x2xf32>, tensor<2x3xf32>
}

// The packed data, 1 4 2 5 3 6 as little-endian floats after the blob's
// alignment word.
// DATA: w.packed: "0x010000000000803F00008040000000400000A040000040400000C040"

// A weight rounded up with zero rows (a right-hand side padded to whole
// panels) is padded at compile time too: the pad goes with the copy.
// CHECK-LABEL: func.func @padded
// CHECK-SAME: (%[[PACKED:.*]]: tensor<3x3xf32> {aicc.weight = "p.packed", aicc.weight_value = dense_resource<p.packed> : tensor<3x3xf32>})
// CHECK-NOT: tensor.pad
// CHECK-NOT: linalg.generic
// CHECK: return %[[PACKED]]
// DATA: p.packed: "0x010000000000803F0000804000000000000000400000A04000000000000040400000C04000000000"
func.func @padded(%w: tensor<2x3xf32> {aicc.weight = "p", aicc.weight_value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>}) -> tensor<3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %w low[0, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<3x3xf32>
  %e = tensor.empty() : tensor<3x3xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<3x3xf32>
  return %t : tensor<3x3xf32>
}
