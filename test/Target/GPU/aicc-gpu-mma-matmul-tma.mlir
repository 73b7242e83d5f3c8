// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="wgmma=true" -aicc-gpu-mma-matmul="wgmma=true" -cse | FileCheck %s

// wgmma (sm_90a) with the tensor memory accelerator (tma=true, the
// default): the operands' slices reach the swizzled stages by TMA. The
// kernel stands for each operand's tensor map by a cast of its buffer to
// i64 with the box (outermost first), which outlining turns into a map the
// runtime encodes; the stages' 4 mbarriers follow the stages (at byte
// 196608). Thread 0 prefetches both maps and sets up the barriers (one
// arrival each), then, per slice, arms the slice's barrier with the bytes
// of its boxes (128 x 64 of A and 64 x 256 of B, 49152 bytes) and copies
// A as one box of 128 rows of 64 k, coordinates (k0, row) innermost first,
// and B, contiguous along n, as 4 boxes of 64 n by 64 k side by side, each
// a column of the swizzled tile (8 KiB apart). Every thread waits for the
// slice's phase (slice / 4 % 2) before its products: no cp.async.
// CHECK-LABEL: func.func @row_major_b
// CHECK: memref.alloca() : memref<197696xi8, #gpu.address_space<workgroup>>
// CHECK: %[[BARRIERS:.*]] = arith.addi %{{.*}}, %c196608 : index
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %arg0 : memref<4096x2048xf16> to i64 {aicc_gpu.tensor_map_box = array<i64: 128, 64>}
// CHECK: %[[MAPA:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast %arg1 : memref<2048x4096xf16> to i64 {aicc_gpu.tensor_map_box = array<i64: 64, 64>}
// CHECK: %[[MAPB:.*]] = llvm.inttoptr %[[B]] : i64 to !llvm.ptr
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %arg6, %c1 : index
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.prefetch tensormap, %[[MAPA]] : !llvm.ptr
// CHECK-NEXT: nvvm.prefetch tensormap, %[[MAPB]] : !llvm.ptr
// CHECK-COUNT-4: nvvm.mbarrier.init %{{.*}}, %c1_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if %[[FIRST]] {
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %c49152_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPA]], %[[BAR]], box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPB]], %[[BAR]], box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: scf.for {{.*}} = %c0 to %c32
// CHECK: arith.divui %{{.*}}, %c4
// CHECK: arith.remui %{{.*}}, %c2
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %c10000000_i32 : !llvm.ptr<3>, i32, i32
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK-COUNT-5: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NOT: nvgpu.device_async_copy
// CHECK-NOT: nvvm.cp.async.commit.group
// CHECK: return
func.func @row_major_b(%a: memref<4096x2048xf16>, %b: memref<2048x4096xf16>, %c: memref<4096x4096xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x2048xf16>, memref<2048x4096xf16>) outs(%c : memref<4096x4096xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// B contiguous along k: one box of 64 rows (n) of 64 k, like A's.
// CHECK-LABEL: func.func @k_major_b
// CHECK: builtin.unrealized_conversion_cast %arg0 : memref<4096x256xf16> to i64 {aicc_gpu.tensor_map_box = array<i64: 128, 64>}
// CHECK: builtin.unrealized_conversion_cast %arg1 : memref<512x256xf16> to i64 {aicc_gpu.tensor_map_box = array<i64: 64, 64>}
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c24576_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.*}}, %{{.*}}]
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
func.func @k_major_b(%a: memref<4096x256xf16>, %b: memref<512x256xf16>, %c: memref<4096x512xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x256xf16>, memref<512x256xf16>) outs(%c : memref<4096x512xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %o, %p : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// A batched product: each map has the batch as its outermost dimension, a
// box of 1 there, at the block's batch element (block z).
// CHECK-LABEL: func.func @batched
// CHECK: gpu.launch blocks({{[^,]*}}, {{[^,]*}}, %[[BZ:[a-z0-9]+]]) in
// CHECK: builtin.unrealized_conversion_cast %arg0 : memref<8x2048x512xf16> to i64 {aicc_gpu.tensor_map_box = array<i64: 1, 128, 64>}
// CHECK: builtin.unrealized_conversion_cast %arg1 : memref<8x512x1024xf16> to i64 {aicc_gpu.tensor_map_box = array<i64: 1, 64, 64>}
// CHECK: %[[BATCH:.*]] = arith.index_cast %[[BZ]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.*}}, %{{.*}}, %[[BATCH]]]
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.*}}, %{{.*}}, %[[BATCH]]]
func.func @batched(%a: memref<8x2048x512xf16>, %b: memref<8x512x1024xf16>, %c: memref<8x2048x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x2048x512xf16>, memref<8x512x1024xf16>) outs(%c : memref<8x2048x1024xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A 1x1 convolution on a channels-last image: A's rows are its pixels
// (n, h, w), three dimensions that collapse into one, which a view made
// before the launch does for the map (the filter taps, loops of extent 1,
// read as 0); the filter [g, f, 1, 1, c] keeps its 5 dimensions, boxes of
// 1 but for f and c.
// CHECK-LABEL: func.func @pointwise_convolution
// CHECK: %[[PIXELS:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2], [3], [4]] : memref<32x56x56x1x96xf16> into memref<100352x1x96xf16>
// CHECK-NEXT: gpu.launch
// CHECK: builtin.unrealized_conversion_cast %[[PIXELS]] : memref<100352x1x96xf16> to i64 {aicc_gpu.tensor_map_box = array<i64: 128, 1, 64>}
// CHECK: builtin.unrealized_conversion_cast %arg1 : memref<1x128x1x1x96xf16> to i64 {aicc_gpu.tensor_map_box = array<i64: 1, 64, 1, 1, 64>}
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
func.func @pointwise_convolution(%x: memref<32x56x56x1x96xf16>, %w: memref<1x128x1x1x96xf16>, %y: memref<32x56x56x1x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, g, f, kh, kw, c) -> (n, h + kh, w + kw, g, c)>,
                                   affine_map<(n, h, w, g, f, kh, kw, c) -> (g, f, kh, kw, c)>,
                                   affine_map<(n, h, w, g, f, kh, kw, c) -> (n, h, w, g, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<32x56x56x1x96xf16>, memref<1x128x1x1x96xf16>) outs(%y : memref<32x56x56x1x128xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Refused: a strided convolution's pixels (h * 2 + kh) are no box of the
// image; both operands then go by cp.async.
// CHECK-LABEL: func.func @strided_convolution
// CHECK-NOT: aicc_gpu.tensor_map_box
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: aicc_gpu.tensor_map_box
// CHECK: return
func.func @strided_convolution(%x: memref<32x112x112x1x96xf16>, %w: memref<1x128x1x1x96xf16>, %y: memref<32x56x56x1x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, g, f, kh, kw, c) -> (n, h * 2 + kh, w * 2 + kw, g, c)>,
                                   affine_map<(n, h, w, g, f, kh, kw, c) -> (g, f, kh, kw, c)>,
                                   affine_map<(n, h, w, g, f, kh, kw, c) -> (n, h, w, g, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<32x112x112x1x96xf16>, memref<1x128x1x1x96xf16>) outs(%y : memref<32x56x56x1x128xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Refused: a constant in a global is none of the model's buffers, whose
// maps the runtime encodes.
// CHECK-LABEL: func.func @global_operand
// CHECK-NOT: aicc_gpu.tensor_map_box
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: aicc_gpu.tensor_map_box
// CHECK: return
memref.global "private" constant @filter : memref<512x1024xf16> = dense<1.0>
func.func @global_operand(%a: memref<4096x512xf16>, %c: memref<4096x1024xf32>) {
  %b = memref.get_global @filter : memref<512x1024xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4096x512xf16>, memref<512x1024xf16>) outs(%c : memref<4096x1024xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// B larger than a third of L2 (64 MiB here): the 32 x 64 blocks start in
// groups of 8 rows of blocks, each group column by column: linear index L
// = y * 32 + x, group L / 256 from row 8 (L / 256) on, min(8, 64 - that)
// rows in it, row first + L % 256 % rows, column L % 256 / rows. (B of at
// most 16 MiB, as @row_major_b's, keeps the blocks in rows.)
// CHECK-LABEL: func.func @grouped
// CHECK: gpu.launch blocks(%[[BX:[a-z0-9]+]], %[[BY:[a-z0-9]+]], %{{[a-z0-9]+}}) in
// CHECK: %[[ROW:.*]] = arith.muli %[[BY]], %c32 : index
// CHECK: %[[LINEAR:.*]] = arith.addi %[[ROW]], %[[BX]] : index
// CHECK: %[[GROUP:.*]] = arith.divui %[[LINEAR]], %c256 : index
// CHECK: %[[IN:.*]] = arith.remui %[[LINEAR]], %c256 : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[GROUP]], %c8 : index
// CHECK: %[[LEFT:.*]] = arith.subi %c64, %[[FIRST]] : index
// CHECK: %[[ROWS:.*]] = arith.minui %c8, %[[LEFT]] : index
// CHECK: %[[R:.*]] = arith.remui %[[IN]], %[[ROWS]] : index
// CHECK: %[[M:.*]] = arith.addi %[[FIRST]], %[[R]] : index
// CHECK: %[[N:.*]] = arith.divui %[[IN]], %[[ROWS]] : index
// CHECK: arith.muli %[[M]], %c128 : index
// CHECK: arith.muli %[[N]], %c256 : index
func.func @grouped(%a: memref<8192x4096xf16>, %b: memref<4096x8192xf16>, %c: memref<8192x8192xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8192x4096xf16>, memref<4096x8192xf16>) outs(%c : memref<8192x8192xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  }
  return
}
