// RUN: aicc-opt %s -split-input-file -aicc-gpu-outline-kernels -verify-diagnostics | FileCheck %s

// Views of the arena and constants are sunk into the kernel, which takes
// only the function's buffers; the constant global it reads is copied into
// the device module; the launch records its ONNX node and the bytes of the
// buffers it reads and writes (two of 16; the global, read inside, is not
// counted).

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[ARENA:.*]]: memref<64xi8>)
// CHECK: gpu.launch_func @aicc_kernels::@k0_Relu_3 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[ARENA]] : memref<64xi8>, %[[X]] : memref<4xf32>) {aicc_gpu.bytes = 32 : i64, aicc_gpu.source = "Relu#3"}
// CHECK: gpu.module @aicc_kernels
// CHECK: gpu.func @k0_Relu_3(%[[KA:.*]]: memref<64xi8>, %[[KX:.*]]: memref<4xf32>) kernel
// CHECK: %[[V:.*]] = memref.view %[[KA]][%{{.*}}][] : memref<64xi8> to memref<4xf32>
// CHECK: memref.get_global @bias : memref<4xf32>
// CHECK: memref.global "private" constant @bias
memref.global "private" constant @bias : memref<4xf32> = dense<1.0>
func.func @main(%x: memref<4xf32>, %arena: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %view = memref.view %arena[%c32][] : memref<64xi8> to memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %b = memref.get_global @bias : memref<4xf32>
    %v = memref.load %x[%tx] : memref<4xf32>
    %w = memref.load %b[%tx] : memref<4xf32>
    %s = arith.addf %v, %w : f32 loc("Relu#3")
    memref.store %s, %view[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @host(%x: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %buffer = memref.alloc() : memref<4xf32>
  // expected-error @below {{uses a value computed on the host}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<4xf32>
    memref.store %v, %buffer[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A block-shared buffer the launch allocates (workgroup memory) becomes a
// workgroup attribution of the kernel; a private alloca stays.

// CHECK-LABEL: func.func @shared
// CHECK: gpu.launch_func @aicc_kernels::@k0 blocks
// CHECK: gpu.func @k0(%{{.*}}: memref<64xf32>) workgroup(%[[S:.*]] : memref<64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
// CHECK-NOT: memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<4xf32>
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK: gpu.barrier
func.func @shared(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %p = memref.alloca() : memref<4xf32>
    %v = arith.constant 1.0 : f32
    memref.store %v, %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = memref.load %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// Past 48 KiB of block-shared buffers (here 64 KiB + 12 bytes), the kernel
// takes them from dynamic shared memory, each at its 16-byte-aligned offset,
// and the launch asks for that many bytes.

// CHECK-LABEL: func.func @dynamic_shared
// CHECK: %[[BYTES:.*]] = arith.constant 65548 : i32
// CHECK: gpu.launch_func @aicc_kernels::@k0 blocks in ({{.*}}) threads in ({{.*}}) dynamic_shared_memory_size %[[BYTES]] args
// CHECK: gpu.func @k0(%{{.*}}: memref<64xf32>) kernel
// CHECK-NOT: workgroup(
// CHECK: %[[RAW:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[RAW]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[RAW]][%c65536{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xf32, #gpu.address_space<workgroup>>
func.func @dynamic_shared(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<16384xf32, #gpu.address_space<workgroup>>
    %t = memref.alloca() : memref<3xf32, #gpu.address_space<workgroup>>
    %v = arith.constant 1.0 : f32
    memref.store %v, %s[%tx] : memref<16384xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    memref.store %v, %t[%c0] : memref<3xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = memref.load %s[%tx] : memref<16384xf32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// Launches that compute the same on other buffers share one kernel (the
// first's); a launch whose body differs (a multiply) has its own.

// CHECK-LABEL: func.func @twins
// CHECK: gpu.launch_func @aicc_kernels::@k0_Add_1 {{.*}} args(%arg0 : memref<4xf32>, %arg1 : memref<4xf32>) {aicc_gpu.bytes = 32 : i64, aicc_gpu.source = "Add#1"}
// CHECK: gpu.launch_func @aicc_kernels::@k0_Add_1 {{.*}} args(%arg1 : memref<4xf32>, %arg2 : memref<4xf32>) {aicc_gpu.bytes = 32 : i64, aicc_gpu.source = "Add#2"}
// CHECK: gpu.launch_func @aicc_kernels::@k2_Mul_3 {{.*}} {aicc_gpu.bytes = 32 : i64, aicc_gpu.source = "Mul#3"}
// CHECK: gpu.module @aicc_kernels
// CHECK-COUNT-2: gpu.func
// CHECK-NOT: gpu.func
func.func @twins(%x: memref<4xf32>, %y: memref<4xf32>, %z: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<4xf32>
    %s = arith.addf %v, %v : f32 loc("Add#1")
    memref.store %s, %y[%tx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %y[%tx] : memref<4xf32>
    %s = arith.addf %v, %v : f32 loc("Add#2")
    memref.store %s, %z[%tx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %z[%tx] : memref<4xf32>
    %s = arith.mulf %v, %v : f32 loc("Mul#3")
    memref.store %s, %x[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A launch built for two blocks per multiprocessor tells ptxas so: the
// kernel gets nvvm.minctasm and its block size as nvvm.maxntid.

// CHECK-LABEL: func.func @occupancy
// CHECK: gpu.func @k0(%{{.*}}: memref<64xf32>) kernel attributes {{{.*}}nvvm.maxntid = array<i32: 64, 1, 1>, nvvm.minctasm = 2 : i32}
func.func @occupancy(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = arith.constant 1.0 : f32
    memref.store %v, %out[%tx] : memref<64xf32>
    gpu.terminator
  } {aicc_gpu.min_blocks_per_sm = 2 : i32}
  return
}

// -----

// What a launch moves and computes, for the profile: the FLOPs and math
// unit its builder recorded go to the launch_func with the bytes. Two views
// of one planned buffer count it once (256 bytes); a slice of a weight
// counts its part (4 rows of 64 bytes); a table read only at positions
// loaded from memory (a gather) counts one element per element written
// (64 of the output's, 256 bytes), not the whole 4096-byte table; the
// indices (32 bytes) and the output (256) count whole: 1056 in all.

// CHECK-LABEL: func.func @costs
// CHECK: gpu.launch_func @aicc_kernels::@k0 {{.*}} {aicc_gpu.bytes = 1056 : i64, aicc_gpu.flops = 128 : i64, aicc_gpu.math = #aicc_gpu<math tensor16>}
func.func @costs(%w: memref<16x16xf32>, %table: memref<64x16xf32>,
                 %ids: memref<4xi64>, %arena: memref<1024xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %buffer = memref.view %arena[%c0][] : memref<1024xi8> to memref<4x16xf32>
  %flat = memref.collapse_shape %buffer [[0, 1]] : memref<4x16xf32> into memref<64xf32>
  %rows = memref.subview %w[0, 0] [4, 16] [1, 1] : memref<16x16xf32> to memref<4x16xf32, strided<[16, 1]>>
  %out = memref.view %arena[%c64][] : memref<1024xi8> to memref<4x16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %r = arith.divui %tx, %c64 : index
    %id = memref.load %ids[%r] : memref<4xi64>
    %row = arith.index_cast %id : i64 to index
    %g = memref.load %table[%row, %c0] : memref<64x16xf32>
    %a = memref.load %buffer[%r, %c0] : memref<4x16xf32>
    %b = memref.load %flat[%tx] : memref<64xf32>
    %c = memref.load %rows[%r, %c0] : memref<4x16xf32, strided<[16, 1]>>
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %c : f32
    %u = arith.addf %t, %g : f32
    memref.store %u, %out[%r, %c0] : memref<4x16xf32>
    gpu.terminator
  } {aicc_gpu.flops = 128 : i64, aicc_gpu.math = #aicc_gpu<math tensor16>}
  return
}

// -----

// A TMA tensor map's marker in the kernel (a cast of a buffer to i64 with
// its box) becomes, before the launch, an nvgpu.tma.create.descriptor of
// the buffer (a view of the arena here, which stays on the host with it)
// with that box, 128-byte swizzle and zeros out of bounds, cast to the i64
// the kernel takes: the address of the map the runtime encodes.

// CHECK-LABEL: func.func @tensor_map
// CHECK-SAME: (%[[ARENA:.*]]: memref<8192xi8>)
// CHECK: %[[VIEW:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<8192xi8> to memref<32x64xf16>
// CHECK: %[[CAST:.*]] = memref.cast %[[VIEW]] : memref<32x64xf16> to memref<*xf16>
// CHECK: %[[DESCRIPTOR:.*]] = nvgpu.tma.create.descriptor %[[CAST]] box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<16x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>
// CHECK: %[[MAP:.*]] = builtin.unrealized_conversion_cast %[[DESCRIPTOR]] : {{.*}} to i64
// CHECK: gpu.launch_func @aicc_kernels::@k0 {{.*}} args(%[[MAP]] : i64)
// CHECK: gpu.func @k0(%[[KMAP:.*]]: i64) kernel
// CHECK: llvm.inttoptr %[[KMAP]] : i64 to !llvm.ptr
// CHECK-NOT: unrealized_conversion_cast
func.func @tensor_map(%arena: memref<8192xi8>) {
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %view = memref.view %arena[%c1024][] : memref<8192xi8> to memref<32x64xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %map = builtin.unrealized_conversion_cast %view : memref<32x64xf16> to i64 {aicc_gpu.tensor_map_box = array<i64: 16, 64>}
    %pointer = llvm.inttoptr %map : i64 to !llvm.ptr
    nvvm.prefetch tensormap, %pointer : !llvm.ptr
    gpu.terminator
  }
  return
}
