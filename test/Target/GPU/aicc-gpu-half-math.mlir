// RUN: aicc-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(aicc-gpu-half-math))' | FileCheck %s

// An f32 exponential rounded to half at every use becomes exp2 of x times
// log2(e) (one ex2.approx in PTX); one read as f32, by itself or besides a
// rounding, stays libdevice's accurate exp.

// CHECK-LABEL: gpu.func @exps
// CHECK-DAG: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-DAG: %[[VLOG2E:.*]] = arith.constant dense<1.44269502> : vector<4xf32>
// CHECK: %[[S:.*]] = arith.mulf %arg0, %[[LOG2E]] : f32
// CHECK: %[[E:.*]] = math.exp2 %[[S]] : f32
// CHECK: arith.truncf %[[E]] : f32 to f16
// CHECK: arith.truncf %[[E]] : f32 to bf16
// CHECK: %[[F:.*]] = math.exp %arg0 : f32
// CHECK: arith.truncf %[[F]] : f32 to f16
// CHECK: arith.addf %[[F]], %[[F]] : f32
// CHECK: %[[VS:.*]] = arith.mulf %arg1, %[[VLOG2E]] : vector<4xf32>
// CHECK: %[[VE:.*]] = math.exp2 %[[VS]] : vector<4xf32>
// CHECK: arith.truncf %[[VE]] : vector<4xf32> to vector<4xf16>
// CHECK: math.exp %arg2 : f64
gpu.module @kernels {
  gpu.func @exps(%x: f32, %v: vector<4xf32>, %d: f64, %out: memref<8xf16>, %outb: memref<8xbf16>, %outf: memref<8xf32>, %outv: memref<4xf16>, %outd: memref<8xf64>) kernel {
    %c0 = arith.constant 0 : index
    %e = math.exp %x : f32
    %h = arith.truncf %e : f32 to f16
    %b = arith.truncf %e : f32 to bf16
    memref.store %h, %out[%c0] : memref<8xf16>
    memref.store %b, %outb[%c0] : memref<8xbf16>
    %f = math.exp %x : f32
    %fh = arith.truncf %f : f32 to f16
    %ff = arith.addf %f, %f : f32
    memref.store %fh, %out[%c0] : memref<8xf16>
    memref.store %ff, %outf[%c0] : memref<8xf32>
    %ve = math.exp %v : vector<4xf32>
    %vh = arith.truncf %ve : vector<4xf32> to vector<4xf16>
    vector.store %vh, %outv[%c0] : memref<4xf16>, vector<4xf16>
    %de = math.exp %d : f64
    memref.store %de, %outd[%c0] : memref<8xf64>
    gpu.return
  }
}

// -----

// GELU's division by sqrt(2) before its erf, whose result flows only
// through f32 arithmetic into a rounding to half: a product with the
// reciprocal (also for a splat vector divisor, 1/3 rounded to f32). Left
// as divisions: a result stored as f32, one compared (a step would move),
// one under a square root and one that divides (a zero turned negative
// would give NaN or infinity), a divisor that is not a constant, one
// without a normal reciprocal, and f64.

// CHECK-LABEL: gpu.func @divisions
// CHECK-DAG: %[[R:.*]] = arith.constant 0.707106769 : f32
// CHECK-DAG: %[[VR:.*]] = arith.constant dense<0.333333343> : vector<4xf32>
// CHECK: %[[G:.*]] = arith.mulf %arg0, %[[R]] : f32
// CHECK-NEXT: math.erf %[[G]] : f32
// CHECK: %[[V:.*]] = arith.mulf %arg1, %[[VR]] : vector<4xf32>
// CHECK-NEXT: arith.truncf %[[V]] : vector<4xf32> to vector<4xf16>
// CHECK: %[[F:.*]] = arith.divf %arg0, %{{.*}} : f32
// CHECK-NEXT: memref.store %[[F]]
// CHECK: %[[C:.*]] = arith.divf %arg0, %{{.*}} : f32
// CHECK-NEXT: arith.cmpf
// CHECK: %[[Q:.*]] = arith.divf %arg0, %{{.*}} : f32
// CHECK-NEXT: arith.subf
// CHECK-NEXT: math.sqrt
// CHECK: %[[P:.*]] = arith.divf %arg0, %{{.*}} : f32
// CHECK-NEXT: arith.divf %{{.*}}, %[[P]] : f32
// CHECK: arith.divf %arg0, %arg2 : f32
// CHECK: arith.divf %arg0, %{{.*}} : f32
// CHECK: arith.divf %arg3, %{{.*}} : f64
gpu.module @kernels {
  gpu.func @divisions(%x: f32, %v: vector<4xf32>, %y: f32, %d: f64, %out: memref<8xf16>, %outv: memref<4xf16>, %outf: memref<8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %sqrt2 = arith.constant 1.41421354 : f32
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %scaled = arith.divf %x, %sqrt2 : f32
    %erf = math.erf %scaled : f32
    %plus = arith.addf %erf, %one : f32
    %xh = arith.mulf %x, %half : f32
    %gelu = arith.mulf %xh, %plus : f32
    %gh = arith.truncf %gelu : f32 to f16
    memref.store %gh, %out[%c0] : memref<8xf16>
    %three = arith.constant dense<3.000000e+00> : vector<4xf32>
    %vq = arith.divf %v, %three : vector<4xf32>
    %vh = arith.truncf %vq : vector<4xf32> to vector<4xf16>
    vector.store %vh, %outv[%c0] : memref<4xf16>, vector<4xf16>
    %five = arith.constant 5.000000e+00 : f32
    %f = arith.divf %x, %five : f32
    memref.store %f, %outf[%c0] : memref<8xf32>
    %seven = arith.constant 7.000000e+00 : f32
    %c = arith.divf %x, %seven : f32
    %step = arith.cmpf ogt, %c, %one : f32
    %s = arith.select %step, %one, %half : f32
    %sh = arith.truncf %s : f32 to f16
    memref.store %sh, %out[%c0] : memref<8xf16>
    %nine = arith.constant 9.000000e+00 : f32
    %q = arith.divf %x, %nine : f32
    %diff = arith.subf %q, %one : f32
    %root = math.sqrt %diff : f32
    %rh = arith.truncf %root : f32 to f16
    memref.store %rh, %out[%c0] : memref<8xf16>
    %eleven = arith.constant 1.100000e+01 : f32
    %p = arith.divf %x, %eleven : f32
    %inv = arith.divf %one, %p : f32
    %ih = arith.truncf %inv : f32 to f16
    memref.store %ih, %out[%c0] : memref<8xf16>
    %n = arith.divf %x, %y : f32
    %nh = arith.truncf %n : f32 to f16
    memref.store %nh, %out[%c0] : memref<8xf16>
    %tiny = arith.constant 1.000000e-40 : f32
    %t = arith.divf %x, %tiny : f32
    %th = arith.truncf %t : f32 to f16
    memref.store %th, %out[%c0] : memref<8xf16>
    %dthree = arith.constant 3.000000e+00 : f64
    %dq = arith.divf %d, %dthree : f64
    %dh = arith.truncf %dq : f64 to f16
    memref.store %dh, %out[%c0] : memref<8xf16>
    gpu.return
  }
}
