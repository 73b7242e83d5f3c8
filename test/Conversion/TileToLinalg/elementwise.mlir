// RUN: aicc-opt %s -convert-tile-to-linalg -mlir-print-local-scope | FileCheck %s

// Element-wise tile ops become one all-parallel linalg.generic each, whose
// indexing maps do numpy broadcasting; unsigned types become signless ones
// with the unsigned arithmetic.

// CHECK-LABEL: func.func @binary_broadcast_lower_rank
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: return %[[R]]
// CHECK-NOT: tile.
func.func @binary_broadcast_lower_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = tile.binary add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Size-1 dimensions that broadcast read index 0.
// CHECK-LABEL: func.func @binary_broadcast_unit_dims
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME: outs(%{{.*}} : tensor<4x5xf32>)
// CHECK: arith.mulf
func.func @binary_broadcast_unit_dims(%a: tensor<4x1xf32>, %b: tensor<1x5xf32>) -> tensor<4x5xf32> {
  %0 = tile.binary mul %a, %b : (tensor<4x1xf32>, tensor<1x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// A dynamic result dimension takes its size from the operand that has it.
// CHECK-LABEL: func.func @binary_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x4xf32>, %{{.*}}: tensor<4xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x4xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[E]] : tensor<?x4xf32>)
// CHECK: arith.subf
func.func @binary_dynamic(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = tile.binary sub %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// Signedness picks the arithmetic; ui8 becomes i8 at the function boundary.
// CHECK-LABEL: func.func @unsigned
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi1>, tensor<4xi8>, tensor<4xf32>)
// CHECK: arith.divui %{{.*}}, %{{.*}} : i8
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i8
// CHECK: arith.maxui %{{.*}}, %{{.*}} : i8
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// CHECK-NOT: ui8
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>, tensor<4xui8>, tensor<4xf32>) {
  %d = tile.binary div %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %c = tile.compare lt %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %m = tile.binary max %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %f = tile.cast %a : tensor<4xui8> -> tensor<4xf32>
  return %d, %c, %m, %f : tensor<4xui8>, tensor<4xi1>, tensor<4xui8>, tensor<4xf32>
}

// CHECK-LABEL: func.func @signed
// CHECK: arith.divsi %{{.*}}, %{{.*}} : i8
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i8
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : i8
// CHECK: arith.sitofp %{{.*}} : i8 to f32
func.func @signed(%a: tensor<4xi8>, %b: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi1>, tensor<4xi8>, tensor<4xf32>) {
  %d = tile.binary div %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %c = tile.compare lt %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
  %m = tile.binary max %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %f = tile.cast %a : tensor<4xi8> -> tensor<4xf32>
  return %d, %c, %m, %f : tensor<4xi8>, tensor<4xi1>, tensor<4xi8>, tensor<4xf32>
}

// A rank-0 operand broadcasts with an empty map; compare yields i1 and
// select reads it.
// CHECK-LABEL: func.func @compare_select_scalar
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[S:.*]]: tensor<f32>)
// CHECK: %[[C:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>]
// CHECK-SAME: ins(%[[A]], %[[S]] : tensor<4xf32>, tensor<f32>) outs(%{{.*}} : tensor<4xi1>)
// CHECK: arith.cmpf ogt
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[C]], %[[A]], %[[S]] : tensor<4xi1>, tensor<4xf32>, tensor<f32>)
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
func.func @compare_select_scalar(%a: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %c = tile.compare gt %a, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %r = tile.select %c, %a, %s : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @unary_relu
// CHECK: linalg.generic
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{.*}}, %[[Z]] : f32
func.func @unary_relu(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tile.unary relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @classify_nan
// CHECK: arith.cmpf uno, %[[X:.*]], %[[X]] : f32
func.func @classify_nan(%a: tensor<4xf32>) -> tensor<4xi1> {
  %0 = tile.classify nan %a : tensor<4xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// A cast between types that convert to the same one is no op at all.
// CHECK-LABEL: func.func @cast_same_bits
// CHECK-SAME: (%[[A:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: return %[[A]] : tensor<4xi8>
func.func @cast_same_bits(%a: tensor<4xui8>) -> tensor<4xi8> {
  %0 = tile.cast %a : tensor<4xui8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// CHECK-LABEL: func.func @cast_float_to_int
// CHECK: arith.fptosi %{{.*}} : f32 to i32
func.func @cast_float_to_int(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = tile.cast %a : tensor<4xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Unsigned constants keep their bits.
// CHECK-LABEL: func.func @constant_unsigned
// CHECK: %[[C:.*]] = arith.constant dense<[1, -1]> : tensor<2xi8>
// CHECK: return %[[C]] : tensor<2xi8>
func.func @constant_unsigned() -> tensor<2xui8> {
  %0 = tile.constant dense<[1, 255]> : tensor<2xui8>
  return %0 : tensor<2xui8>
}
