// RUN: aicc-opt %s -aicc-cpu-legalize-math | FileCheck %s

// f32 transcendental functions with polynomial approximations are replaced
// by them (FMA chains that vectorize and need no library); hyperbolic ones
// are expanded first; 16-bit floats compute in f32.

// CHECK-LABEL: func.func @exp_f32
// CHECK-NOT: math.exp
// CHECK: math.fma
// CHECK: math.floor
// CHECK-NOT: math.exp
// CHECK: return
func.func @exp_f32(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// CHECK-LABEL: func.func @tanh_vector
// CHECK-NOT: math.tanh
// CHECK: math.absf %{{.*}} : vector<8xf32>
// CHECK: math.fma {{.*}} : vector<8xf32>
// CHECK-NOT: math.tanh
// CHECK: return %{{.*}} : vector<8xf32>
func.func @tanh_vector(%v: vector<8xf32>) -> vector<8xf32> {
  %0 = math.tanh %v : vector<8xf32>
  return %0 : vector<8xf32>
}

// sinh goes through exp, which is then approximated too.
// CHECK-LABEL: func.func @sinh_expanded
// CHECK-NOT: math.sinh
// CHECK-NOT: math.exp
// CHECK: math.fma
// CHECK-NOT: math.sinh
// CHECK-NOT: math.exp
// CHECK: return
func.func @sinh_expanded(%x: f32) -> f32 {
  %0 = math.sinh %x : f32
  return %0 : f32
}

// CHECK-LABEL: func.func @log_f16
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NOT: math.log
// CHECK: math.fma {{.*}} : f32
// CHECK: %[[N:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: return %[[N]] : f16
func.func @log_f16(%x: f16) -> f16 {
  %0 = math.log %x : f16
  return %0 : f16
}

// powf stays a library call (its expansion loses accuracy); sqrt has no
// approximation; f64 is left to LLVM.
// CHECK-LABEL: func.func @negative_kept
// CHECK-SAME: (%[[X:.*]]: f32, %[[D:.*]]: f64)
// CHECK-NOT: math.fma
// CHECK: %[[P:.*]] = math.powf %[[X]], %[[X]] : f32
// CHECK: %[[S:.*]] = math.sqrt %[[X]] : f32
// CHECK: %[[E:.*]] = math.exp %[[D]] : f64
// CHECK: return %[[P]], %[[S]], %[[E]]
func.func @negative_kept(%x: f32, %d: f64) -> (f32, f32, f64) {
  %0 = math.powf %x, %x : f32
  %1 = math.sqrt %x : f32
  %2 = math.exp %d : f64
  return %0, %1, %2 : f32, f32, f64
}
