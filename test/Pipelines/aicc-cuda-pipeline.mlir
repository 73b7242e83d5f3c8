// RUN: aicc-opt %s -aicc-cuda-pipeline | FileCheck %s

// The cuda pipeline lowers the kernels to the NVVM dialect: thread and
// block ids from PTX special registers, buffers as bare pointers, exp
// through libdevice.

// CHECK: gpu.module @aicc_kernels
// CHECK: llvm.func @__nv_expf(f32) -> f32
// CHECK: llvm.func @k0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {gpu.kernel
// CHECK-SAME: nvvm.kernel
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.call @__nv_expf
func.func @main(%x: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %0 = tile.unary exp %x : tensor<4x300xf32>
  return %0 : tensor<4x300xf32>
}
