// RUN: aicc-opt %s -pass-pipeline='builtin.module(gpu.module(aicc-gpu-half-exp))' | FileCheck %s

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
