// RUN: aicc-opt %s --aicc-expand-float8 | FileCheck %s

// Widening rebuilds the f32 from the bits; no 8-bit float conversion is
// left.
// CHECK-LABEL: func.func @widen
// CHECK: arith.bitcast %{{.*}} : vector<8xf8E4M3FN> to vector<8xi8>
// CHECK: arith.extui %{{.*}} : vector<8xi8> to vector<8xi32>
// CHECK: arith.uitofp
// CHECK: arith.select
// CHECK-NOT: arith.extf
// CHECK: return %{{.*}} : vector<8xf32>
func.func @widen(%x: vector<8xf8E4M3FN>) -> vector<8xf32> {
  %y = arith.extf %x : vector<8xf8E4M3FN> to vector<8xf32>
  return %y : vector<8xf32>
}

// Narrowing from f16 goes through f32, rounds on the bits, saturates with
// an unsigned minimum at the largest finite code (0x7B for E5M2), and
// writes the byte back as the 8-bit float.
// CHECK-LABEL: func.func @narrow
// CHECK-DAG: %[[MAX:.*]] = arith.constant 123 : i32
// CHECK-DAG: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.minui %{{.*}}, %[[MAX]] : i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.bitcast %{{.*}} : i8 to f8E5M2
// CHECK-NOT: arith.truncf
func.func @narrow(%x: f16) -> f8E5M2 {
  %y = arith.truncf %x : f16 to f8E5M2
  return %y : f8E5M2
}

// Conversions between wider types are left alone.
// CHECK-LABEL: func.func @other
// CHECK: arith.extf %{{.*}} : f16 to f32
func.func @other(%x: f16) -> f32 {
  %y = arith.extf %x : f16 to f32
  return %y : f32
}
