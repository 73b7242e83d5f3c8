// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles=attention=true -aicc-gpu-flash-attention -cse | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="attention=true multiprocessors=4" -aicc-gpu-flash-attention -cse | FileCheck %s --check-prefix=WIDE

// Attention of 2 batch elements x 2 heads, 40 queries and keys, head
// dimension 16, a mask added after the scale, and the head merge after it:
// one kernel. 12 blocks leave multiprocessors idle with more than one warp
// each: one warp (16 rows) a block, grid (3 row blocks, 4 heads); Q's 16
// rows and the 40 keys and values (padded to 48) in shared memory, rows
// padded by 8 halves. The scores of 6 key tiles on mma.sync (one k16
// step of the head dimension), the mask read per score (at key 0 past key
// 40, so that the loads stay inside it), -inf past key 40,
// the row maxima and sums over the 4 lanes of a row (2 shuffles each, 2
// rows a thread), the exponentials as A fragments of P V (3 key steps x 2
// head-dimension tiles), O stored through the head merge two halves at a
// time. Nothing of the chain is left.

// CHECK-LABEL: func.func @attention
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c3, {{.*}} = %c4, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32,
// CHECK-DAG: memref.alloca() : memref<16x24xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.alloca() : memref<48x24xf16, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-COUNT-6: nvgpu.mma.sync
// CHECK: vector.extract %{{.*}}[0, 0] : f32 from vector<2x2xf32>
// CHECK-NEXT: %[[KEYIN:.*]] = arith.cmpi ult, %[[KEY:.*]], %c40 : index
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.select %[[KEYIN]], %[[KEY]], %c0 : index
// CHECK-NEXT: memref.load %arg3[%{{.*}}, %c0, %{{.*}}, %[[CLAMPED]]]
// CHECK: arith.select %[[KEYIN]], %{{.*}} : f32
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK: math.exp
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK-COUNT-6: nvgpu.mma.sync
// CHECK: vector.store {{.*}}, %arg4[{{.*}}] {alignment = 4 : i64} : memref<2x40x2x16xf16>, vector<2xf16>
// CHECK: aicc_gpu.flops = 409600
// CHECK-NOT: linalg.generic

// With few multiprocessors, four warps (64 rows) a block.
// WIDE-LABEL: func.func @attention
// WIDE: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c4, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c128,
// WIDE: memref.alloca() : memref<64x24xf16, #gpu.address_space<workgroup>>
func.func @attention(%q: memref<2x40x2x16xf16>, %k: memref<2x40x2x16xf16>, %v: memref<2x40x2x16xf16>, %mask: memref<2x1x40x40xf32>, %y: memref<2x40x2x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %s = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x40x2x16xf16>, memref<2x40x2x16xf16>) outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%a: f16, %b: f16, %out: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  %sum = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  %max = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%max : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %lowest : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>) outs(%max : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.maximumf %out, %2 : f32
    linalg.yield %3 : f32
  }
  %max4 = memref.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask, %max4 : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>, memref<2x2x40x1xf32>) outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  }
  %sum4 = memref.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask, %max4, %sum4 : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>, memref<2x2x40x1xf32>, memref<2x2x40x1xf32>) outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %sm: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.divf %4, %sm : f32
    linalg.yield %5 : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%o : memref<2x2x40x16xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%s, %v : memref<2x2x40x40xf32>, memref<2x40x2x16xf16>) outs(%o : memref<2x2x40x16xf32>) {
  ^bb0(%a: f32, %b: f16, %out: f32):
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %a, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : memref<2x2x40x16xf32>) outs(%y : memref<2x40x2x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// The scores (then probabilities) are read after the chain: it stays.
// CHECK-LABEL: func.func @negative_scores_read_later
// CHECK-NOT: gpu.launch
// CHECK: arith.maximumf
// WIDE-LABEL: func.func @negative_scores_read_later
// WIDE-NOT: gpu.launch
func.func @negative_scores_read_later(%q: memref<2x40x2x16xf16>, %k: memref<2x40x2x16xf16>, %v: memref<2x40x2x16xf16>, %mask: memref<2x1x40x40xf32>, %y: memref<2x40x2x16xf16>, %probs: memref<2x2x40x40xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %s = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x40x2x16xf16>, memref<2x40x2x16xf16>) outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%a: f16, %b: f16, %out: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  %sum = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  %max = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%max : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %lowest : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>) outs(%max : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.maximumf %out, %2 : f32
    linalg.yield %3 : f32
  }
  %max4 = memref.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask, %max4 : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>, memref<2x2x40x1xf32>) outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  }
  %sum4 = memref.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask, %max4, %sum4 : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>, memref<2x2x40x1xf32>, memref<2x2x40x1xf32>) outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %sm: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.divf %4, %sm : f32
    linalg.yield %5 : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%o : memref<2x2x40x16xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%s, %v : memref<2x2x40x40xf32>, memref<2x40x2x16xf16>) outs(%o : memref<2x2x40x16xf32>) {
  ^bb0(%a: f32, %b: f16, %out: f32):
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %a, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : memref<2x2x40x16xf32>) outs(%y : memref<2x40x2x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  memref.copy %s, %probs : memref<2x2x40x40xf32> to memref<2x2x40x40xf32>
  return
}

// -----

// ViT's form: Q scaled into a copy, K copied transposed (keys contiguous)
// and scaled in place, both by d^-1/4, no mask. The kernel reads Q and K
// where the copies came from, 16 bytes at a time along the head dimension,
// multiplies the scores by the two scales' product (0.25), and the three
// ops that made the copies go with the chain.

// CHECK-LABEL: func.func @attention_through_scaled_copies
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch
// CHECK: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<2x2x40x16xf16>, vector<8xf16>
// CHECK: vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<2x2x40x16xf16>, vector<8xf16>
// CHECK: nvgpu.mma.sync
// CHECK: arith.mulf %{{.*}}, %cst{{.*}} : f32
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return
// WIDE-LABEL: func.func @attention_through_scaled_copies
func.func @attention_through_scaled_copies(%q: memref<2x2x40x16xf16>, %k: memref<2x2x40x16xf16>, %v: memref<2x2x40x16xf16>, %y: memref<2x2x40x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %qs = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x16xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : memref<2x2x40x16xf16>) outs(%qs : memref<2x2x40x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    %1 = arith.extf %in : f16 to f32
    %2 = arith.mulf %1, %half : f32
    %3 = arith.truncf %2 : f32 to f16
    linalg.yield %3 : f16
  }
  %kt = memref.alloc() {alignment = 64 : i64} : memref<2x2x16x40xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : memref<2x2x40x16xf16>) outs(%kt : memref<2x2x16x40xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kt : memref<2x2x16x40xf16>) outs(%kt : memref<2x2x16x40xf16>) {
  ^bb0(%in: f16, %out: f16):
    %1 = arith.extf %in : f16 to f32
    %2 = arith.mulf %1, %half : f32
    %3 = arith.truncf %2 : f32 to f16
    linalg.yield %3 : f16
  }
  %s = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%qs, %kt : memref<2x2x40x16xf16>, memref<2x2x16x40xf16>) outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%a: f16, %b: f16, %out: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  %sum = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  %max = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%max : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %lowest : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : memref<2x2x40x40xf32>) outs(%max : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = arith.maximumf %out, %in : f32
    linalg.yield %3 : f32
  }
  %max4 = memref.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %max4 : memref<2x2x40x40xf32>, memref<2x2x40x1xf32>) outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %3 = arith.subf %in, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  }
  %sum4 = memref.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %max4, %sum4 : memref<2x2x40x40xf32>, memref<2x2x40x1xf32>, memref<2x2x40x1xf32>) outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%in: f32, %mx: f32, %sm: f32, %out: f32):
    %3 = arith.subf %in, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.divf %4, %sm : f32
    linalg.yield %5 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%y : memref<2x2x40x16xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%s, %v : memref<2x2x40x40xf32>, memref<2x2x40x16xf16>) outs(%y : memref<2x2x40x16xf32>) {
  ^bb0(%a: f32, %b: f16, %out: f32):
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %a, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The same chain where tile-fuse put the product with V in a group of its
// own: no attention kernel.
// CHECK-LABEL: func.func @negative_two_groups
// CHECK-NOT: gpu.launch
// CHECK: arith.maximumf
// WIDE-LABEL: func.func @negative_two_groups
// WIDE-NOT: gpu.launch
func.func @negative_two_groups(%q: memref<2x40x2x16xf16>, %k: memref<2x40x2x16xf16>, %v: memref<2x40x2x16xf16>, %mask: memref<2x1x40x40xf32>, %y: memref<2x40x2x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %s = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x40x2x16xf16>, memref<2x40x2x16xf16>) outs(%s : memref<2x2x40x40xf32>) attrs = {tile.group = 1 : i64} {
  ^bb0(%a: f16, %b: f16, %out: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  %sum = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  %max = memref.alloc() {alignment = 64 : i64} : memref<2x2x40xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%max : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %lowest : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>) outs(%max : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.maximumf %out, %2 : f32
    linalg.yield %3 : f32
  }
  %max4 = memref.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s, %mask, %max4 : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>, memref<2x2x40x1xf32>) outs(%sum : memref<2x2x40xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  }
  %sum4 = memref.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 2, 40, 1] : memref<2x2x40xf32> into memref<2x2x40x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask, %max4, %sum4 : memref<2x2x40x40xf32>, memref<2x1x40x40xf32>, memref<2x2x40x1xf32>, memref<2x2x40x1xf32>) outs(%s : memref<2x2x40x40xf32>) {
  ^bb0(%in: f32, %m: f32, %mx: f32, %sm: f32, %out: f32):
    %1 = arith.mulf %in, %scale : f32
    %2 = arith.addf %1, %m : f32
    %3 = arith.subf %2, %mx : f32
    %4 = math.exp %3 : f32
    %5 = arith.divf %4, %sm : f32
    linalg.yield %5 : f32
  }
  %o = memref.alloc() {alignment = 64 : i64} : memref<2x2x40x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%o : memref<2x2x40x16xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%s, %v : memref<2x2x40x40xf32>, memref<2x40x2x16xf16>) outs(%o : memref<2x2x40x16xf32>) attrs = {tile.group = 2 : i64} {
  ^bb0(%a: f32, %b: f16, %out: f32):
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %a, %be : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : memref<2x2x40x16xf32>) outs(%y : memref<2x40x2x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  return
}
