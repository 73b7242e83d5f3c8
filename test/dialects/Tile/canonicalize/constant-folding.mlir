// RUN: aicc-opt %s -canonicalize -split-input-file | FileCheck %s

// A shape sub-graph as exporters write it: take a size out of a constant
// shape, compute with it, and build a new shape.
// CHECK-LABEL: func @shape_arithmetic
// CHECK-NEXT: %[[C:.*]] = tile.constant dense<[2, 12]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]]
func.func @shape_arithmetic() -> tensor<2xi64> {
  %shape = tile.constant dense<[2, 3, 4]> : tensor<3xi64>
  %i0 = tile.constant dense<0> : tensor<1xi64>
  %i12 = tile.constant dense<[1, 2]> : tensor<2xi64>
  %n = tile.gather %shape, %i0 axis = 0 : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %rest = tile.gather %shape, %i12 axis = 0 : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %prod = tile.reduce prod %rest axes = [0] keep_dims : tensor<2xi64> -> tensor<1xi64>
  %new = tile.concat %n, %prod axis = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  return %new : tensor<2xi64>
}

// -----

// Integer semantics: division truncates (-7/2 and 7/-2 are both -3), mod
// takes the divisor's sign, rem
// the dividend's.
// CHECK-LABEL: func @integer_division
// CHECK-DAG: tile.constant dense<-3> : tensor<2xi32>
// CHECK-DAG: tile.constant dense<[2, -2]> : tensor<2xi32>
// CHECK-DAG: tile.constant dense<[-1, 1]> : tensor<2xi32>
func.func @integer_division() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %a = tile.constant dense<[-7, 7]> : tensor<2xi32>
  %b = tile.constant dense<[2, -2]> : tensor<2xi32>
  %d = tile.binary div %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %b3 = tile.constant dense<[3, -3]> : tensor<2xi32>
  %m = tile.binary mod %a, %b3 : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %r = tile.binary rem %a, %b3 : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %d, %m, %r : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}

// -----

// Division by zero has no compile-time value: it stays for run time.
// CHECK-LABEL: func @negative_division_by_zero
// CHECK: tile.binary div
func.func @negative_division_by_zero() -> tensor<2xi32> {
  %a = tile.constant dense<[1, 2]> : tensor<2xi32>
  %z = tile.constant dense<0> : tensor<2xi32>
  %d = tile.binary div %a, %z : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %d : tensor<2xi32>
}

// -----

// CHECK-LABEL: func @compare_select_cast
// CHECK-NEXT: %[[C:.*]] = tile.constant dense<[0.000000e+00, 2.500000e+00, 0.000000e+00]> : tensor<3xf16>
// CHECK-NEXT: return %[[C]]
func.func @compare_select_cast() -> tensor<3xf16> {
  %x = tile.constant dense<[-1.0, 2.5, 0.0]> : tensor<3xf32>
  %zero = tile.constant dense<0.0> : tensor<f32>
  %pos = tile.compare gt %x, %zero : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
  %relu = tile.select %pos, %x, %zero : (tensor<3xi1>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %h = tile.cast %relu : tensor<3xf32> -> tensor<3xf16>
  return %h : tensor<3xf16>
}

// -----

// Float to integer casts truncate toward zero; NaN has no integer value.
// CHECK-LABEL: func @float_to_int
// CHECK: tile.constant dense<[-2, 2]> : tensor<2xi8>
// CHECK: tile.cast %{{.*}} : tensor<1xf32> -> tensor<1xi32>
func.func @float_to_int() -> (tensor<2xi8>, tensor<1xi32>) {
  %x = tile.constant dense<[-2.7, 2.7]> : tensor<2xf32>
  %i = tile.cast %x : tensor<2xf32> -> tensor<2xi8>
  %nan = tile.constant dense<0x7FC00000> : tensor<1xf32>
  %j = tile.cast %nan : tensor<1xf32> -> tensor<1xi32>
  return %i, %j : tensor<2xi8>, tensor<1xi32>
}

// -----

// CHECK-LABEL: func @data_movement
// CHECK-DAG: tile.constant dense<{{\[\[}}1, 4], [2, 5], [3, 6]]> : tensor<3x2xi64>
// CHECK-DAG: tile.constant dense<[6, 4]> : tensor<2xi64>
// CHECK-DAG: tile.constant dense<{{\[\[}}1, 2, 1, 2], [3, 4, 3, 4]]> : tensor<2x4xi64>
// CHECK-DAG: tile.constant dense<{{\[\[}}7, 8], [7, 8]]> : tensor<2x2xi64>
func.func @data_movement() -> (tensor<3x2xi64>, tensor<2xi64>, tensor<2x4xi64>, tensor<2x2xi64>) {
  %m = tile.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %t = tile.transpose %m permutation = [1, 0] : tensor<2x3xi64> -> tensor<3x2xi64>
  %v = tile.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>
  %s = tile.slice %v starts = [5] sizes = [2] steps = [-2] : tensor<6xi64> -> tensor<2xi64>
  %q = tile.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %r = tile.tile %q repeats = [1, 2] : tensor<2x2xi64> -> tensor<2x4xi64>
  %row = tile.constant dense<[7, 8]> : tensor<2xi64>
  %e = tile.expand %row : tensor<2xi64> -> tensor<2x2xi64>
  return %t, %s, %r, %e : tensor<3x2xi64>, tensor<2xi64>, tensor<2x4xi64>, tensor<2x2xi64>
}

// -----

// CHECK-LABEL: func @float_reductions
// CHECK-DAG: tile.constant dense<[3.000000e+00, 7.000000e+00]> : tensor<2xf32>
// CHECK-DAG: tile.constant dense<[1.500000e+00, 3.500000e+00]> : tensor<2xf32>
// CHECK-DAG: tile.constant dense<5.000000e+00> : tensor<f32>
func.func @float_reductions() -> (tensor<2xf32>, tensor<2xf32>, tensor<f32>) {
  %x = tile.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %sum = tile.reduce sum %x axes = [1] : tensor<2x2xf32> -> tensor<2xf32>
  %mean = tile.reduce mean %x axes = [1] : tensor<2x2xf32> -> tensor<2xf32>
  %y = tile.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %l2 = tile.reduce l2 %y axes = [0] : tensor<2xf32> -> tensor<f32>
  return %sum, %mean, %l2 : tensor<2xf32>, tensor<2xf32>, tensor<f32>
}

// -----

// Splats stay splats however large the result.
// CHECK-LABEL: func @large_splat
// CHECK-NEXT: %[[C:.*]] = tile.constant dense<3.000000e+00> : tensor<4096x4096xf32>
// CHECK-NEXT: return %[[C]]
func.func @large_splat() -> tensor<4096x4096xf32> {
  %a = tile.constant dense<1.0> : tensor<4096x4096xf32>
  %b = tile.constant dense<2.0> : tensor<4096x4096xf32>
  %s = tile.binary add %a, %b : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %s : tensor<4096x4096xf32>
}

// -----

// A non-splat result beyond the folding limit (2^20 elements) is left to run
// time, so a small model cannot make the compiler allocate without bound.
// CHECK-LABEL: func @negative_too_large_to_fold
// CHECK: tile.expand
func.func @negative_too_large_to_fold() -> tensor<2x524289xi32> {
  %row = tile.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %e = tile.expand %row : tensor<2x1xi32> -> tensor<2x524289xi32>
  return %e : tensor<2x524289xi32>
}
