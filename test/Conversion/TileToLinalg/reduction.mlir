// RUN: aicc-opt %s -tile-decompose -convert-tile-to-linalg -mlir-print-local-scope | FileCheck %s

// Reductions are a filled accumulator of the kept dimensions and one
// generic with reduction iterators on the reduced axes; kinds that need it
// get an element-wise finishing step; keep_dims re-expands the result.
// Softmax and the normalizations are composite: tile-decompose makes them
// reductions and element-wise ops first.

// CHECK-LABEL: func.func @sum_middle_axis
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x4xf32>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>]
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[ACC]] : tensor<2x4xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: arith.addf %[[OUT]], %[[IN]] : f32
// CHECK: return %[[R]] : tensor<2x4xf32>
func.func @sum_middle_axis(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %0 = tile.reduce sum %x axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// Mean divides by the static element count; keep_dims expands the result.
// CHECK-LABEL: func.func @mean_keep_dims
// CHECK: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<2xf32>)
// CHECK: %[[N:.*]] = arith.constant 8.000000e+00 : f32
// CHECK: arith.divf %{{.*}}, %[[N]] : f32
// CHECK: %[[K:.*]] = tensor.expand_shape %[[M]] {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
// CHECK: return %[[K]]
func.func @mean_keep_dims(%x: tensor<2x8xf32>) -> tensor<2x1xf32> {
  %0 = tile.reduce mean %x axes = [1] keep_dims : tensor<2x8xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// f16 accumulates in f32. Log-sum-exp is stable: a max reduction first,
// subtracted inside the sum of exponentials, added back after the log.
// CHECK-LABEL: func.func @log_sum_exp_f16
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.maximumf
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]] : tensor<2x8xf16>, tensor<2xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %[[MAX]] : tensor<2xf32>, tensor<2xf32>) outs(%{{.*}} : tensor<2xf16>)
// CHECK: math.log
// CHECK: arith.addf
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @log_sum_exp_f16(%x: tensor<2x8xf16>) -> tensor<2xf16> {
  %0 = tile.reduce log_sum_exp %x axes = [1] : tensor<2x8xf16> -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// Unsigned max starts from 0 and compares unsigned.
// CHECK-LABEL: func.func @max_unsigned_all_axes
// CHECK: %[[Z:.*]] = arith.constant 0 : i8
// CHECK: linalg.fill ins(%[[Z]] : i8) outs(%{{.*}} : tensor<i8>)
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>]
// CHECK-SAME: iterator_types = ["reduction", "reduction"]
// CHECK: arith.maxui
func.func @max_unsigned_all_axes(%x: tensor<3x5xui8>) -> tensor<ui8> {
  %0 = tile.reduce max %x axes = [0, 1] : tensor<3x5xui8> -> tensor<ui8>
  return %0 : tensor<ui8>
}

// Arg-max: one generic with two results (best value, its index), the
// index from linalg.index on the reduced axis; the first candidate wins.
// CHECK-LABEL: func.func @argmax
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[M1:.*]] = arith.constant -1 : i64
// CHECK: linalg.fill ins(%[[M1]] : i64) outs(%{{.*}} : tensor<2xi64>)
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: linalg.index 1 : index
// CHECK: arith.cmpf ogt
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f32, i64
// CHECK: tensor.expand_shape %[[R]]#1 {{.*}} into tensor<2x1xi64>
func.func @argmax(%x: tensor<2x8xf32>) -> tensor<2x1xi64> {
  %0 = tile.arg_reduce max %x axis = 1 keep_dims : tensor<2x8xf32> -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// Softmax: max, subtract, exp, sum, divide, all along the axis.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: tile.
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: %[[MAXK:.*]] = tensor.expand_shape %[[MAX]]
// CHECK: linalg.generic {{.*}}affine_map<(d0, d1) -> (d0, 0)>{{.*}} ins(%{{.*}}, %[[MAXK]] : tensor<2x8xf32>, tensor<2x1xf32>)
// CHECK: arith.subf
// CHECK: %[[EXP:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[EXP]] : tensor<2x8xf32>)
// CHECK: arith.addf
// CHECK: %[[SUMK:.*]] = tensor.expand_shape %[[SUM]]
// CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUMK]] : tensor<2x8xf32>, tensor<2x1xf32>)
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tile.softmax %x axis = 1 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// Layer normalization: mean, centred values, variance, rsqrt, scale, bias.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%{{.*}}: tensor<2x8xf32>, %[[G:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT: tile.
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.divf
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.divf
// CHECK: math.rsqrt
// CHECK: linalg.generic {{.*}}affine_map<(d0, d1) -> (d1)>{{.*}} ins(%{{.*}}, %[[G]] : tensor<2x8xf32>, tensor<8xf32>)
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[B]] : tensor<2x8xf32>, tensor<8xf32>)
// CHECK: arith.addf
func.func @layer_norm(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = tile.layer_norm %x, %g, %b axis = 1 epsilon = 1.0e-5 : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// Cumulative sums are an scf.for over the axis carrying the running sum.
// CHECK-LABEL: func.func @cumsum
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[R:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %[[C4]] step %{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}, %[[OUT:.*]] = %{{.*}}) -> (tensor<2x1xf32>, tensor<2x4xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, %[[I]]] [2, 1] [1, 1] : tensor<2x4xf32> to tensor<2x1xf32>
// CHECK: %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[SUM]], %{{.*}} : tensor<2x1xf32>, tensor<2x1xf32>)
// CHECK: arith.addf
// CHECK: %[[INS:.*]] = tensor.insert_slice %[[NEXT]] into %[[OUT]][0, %[[I]]] [2, 1] [1, 1]
// CHECK: scf.yield %[[NEXT]], %[[INS]]
// CHECK: return %[[R]]#1
func.func @cumsum(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = tile.cumsum %x axis = 1 : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
