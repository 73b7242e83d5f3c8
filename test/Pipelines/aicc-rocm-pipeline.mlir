// RUN: aicc-opt %s -aicc-rocm-pipeline | FileCheck %s

// The rocm pipeline lowers the kernels to the ROCDL dialect: thread and
// block ids from ROCDL intrinsics, buffers as bare pointers, f32 exp as
// the LLVM intrinsic the AMDGPU backend expands (f64 would call ocml).

// CHECK: gpu.module @aicc_kernels
// CHECK: llvm.func @k0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {gpu.kernel
// CHECK-SAME: rocdl.kernel
// CHECK: rocdl.workgroup.id.x
// CHECK: rocdl.workitem.id.x
// CHECK: llvm.intr.exp
func.func @main(%x: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %0 = tile.unary exp %x : tensor<4x300xf32>
  return %0 : tensor<4x300xf32>
}
