// RUN: aicc-opt %s -aicc-gpu-choose-tiles=multiprocessors=1 -aicc-gpu-warp-reductions=vector-bytes=0 | FileCheck %s
// RUN: aicc-opt %s -aicc-gpu-choose-tiles=multiprocessors=1 -aicc-gpu-warp-reductions="row-groups=false vector-bytes=0" | FileCheck %s --check-prefix=NOGROUP
// RUN: aicc-opt %s -aicc-gpu-choose-tiles=multiprocessors=1 -aicc-gpu-warp-reductions | FileCheck %s --check-prefix=VEC

#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// A row sum of 128 x 768: 16 blocks of 8 warps, warp w on row w, lanes
// from their lane number in steps of 32, five xor shuffles, lane 0 adding
// to the absorbed fill's zero (the fill kernel is gone).
// With 16-byte accesses (VEC), each lane reads 8 halves per step from 8
// times its lane number, in steps of 256: 3 steps of a row of 768,
// unrolled, each one aligned vector load. Element j of every step goes to
// its own chain of sums (8 independent additions per step, not one chain
// of 24), and the 8 chains are added pairwise before the shuffles.
// VEC-LABEL: func.func @sum_rows
// VEC: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// VEC: %[[START:.*]] = arith.muli %[[LANE]], %c8
// VEC-NOT: scf.for
// VEC: vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x768xf16>, vector<8xf16>
// VEC: %[[C0:.*]] = arith.addf %cst{{[_0-9]*}}, %{{.*}} : f32
// VEC: %[[C1:.*]] = arith.addf %cst{{[_0-9]*}}, %{{.*}} : f32
// VEC-COUNT-6: arith.addf %cst
// VEC: arith.addi %[[START]], %c256
// VEC: vector.load %arg0
// VEC: %[[D0:.*]] = arith.addf %[[C0]], %{{.*}} : f32
// VEC: %[[D1:.*]] = arith.addf %[[C1]], %{{.*}} : f32
// VEC: arith.addi %[[START]], %c512
// VEC: vector.load %arg0
// VEC: %[[E0:.*]] = arith.addf %[[D0]], %{{.*}} : f32
// VEC-NOT: vector.load
// VEC: arith.addf %[[E0]], %{{.*}} : f32
// VEC: gpu.shuffle xor
// CHECK-LABEL: func.func @sum_rows
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c16, {{.*}} threads({{.*}}) in (%{{.*}} = %c256,
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[WARP]]
// CHECK: scf.if
// CHECK: %[[PART:.*]] = scf.for %{{.*}} = %[[LANE]] to %c768 step %c32{{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (f32)
// CHECK: memref.load %arg0
// CHECK: arith.extf
// CHECK: arith.addf
// CHECK: gpu.shuffle xor %[[PART]], %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor {{.*}}, %c8_i32
// CHECK: gpu.shuffle xor {{.*}}, %c4_i32
// CHECK: gpu.shuffle xor {{.*}}, %c2_i32
// CHECK: gpu.shuffle xor {{.*}}, %c1_i32
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: scf.if %[[FIRST]]
// CHECK-NOT: memref.load
// CHECK: %[[OUT:.*]] = arith.addf %cst, %[[SUM]]
// CHECK: memref.store %[[OUT]], %arg1[%[[ROW]]]
// The FLOPs of the reduction, for the profile: one addition per element.
// CHECK: } {aicc_gpu.flops = 98304 : i64}
func.func @sum_rows(%x: memref<128x768xf16>, %acc: memref<128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%acc : memref<128xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x768xf16>) outs(%acc : memref<128xf32>) {
  ^bb0(%a: f16, %o: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.addf %o, %e : f32
    linalg.yield %s : f32
  }
  return
}

// An f16 maximum starts from -inf, moves through the shuffles as f32, and
// lane 0 folds in the output's old value (no fill before it).
// CHECK-LABEL: func.func @max_half
// CHECK: arith.constant 0xFC00 : f16
// CHECK: scf.for {{.*}} -> (f16)
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: gpu.shuffle xor {{.*}} : f32
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: arith.maximumf
// CHECK: scf.if
// CHECK: memref.load %arg1
// CHECK: arith.maximumf
// CHECK: memref.store
func.func @max_half(%x: memref<64x100xf16>, %m: memref<64xf16>) {
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x100xf16>) outs(%m : memref<64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.maximumf %a, %o : f16
    linalg.yield %s : f16
  }
  return
}

// 16 iterations would leave half of each warp idle: one thread per row.
// CHECK-LABEL: func.func @short
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @short(%x: memref<128x16xf32>, %acc: memref<128xf32>) {
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x16xf32>) outs(%acc : memref<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// Reduced along its rows (lanes would read 64 KiB apart) with 16384
// outputs, enough threads: left alone.
// CHECK-LABEL: func.func @columns_many
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @columns_many(%x: memref<768x16384xf32>, %acc: memref<16384xf32>) {
  linalg.generic {indexing_maps = [#col, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<768x16384xf32>) outs(%acc : memref<16384xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// The same read with only 128 outputs: a warp each all the same.
// CHECK-LABEL: func.func @columns_few
// CHECK: gpu.launch
// CHECK: gpu.shuffle
func.func @columns_few(%x: memref<768x128xf32>, %acc: memref<128xf32>) {
  linalg.generic {indexing_maps = [#col, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<768x128xf32>) outs(%acc : memref<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// Two outputs updated by selects, not by a combining op: left alone.
// CHECK-LABEL: func.func @argmax
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @argmax(%x: memref<8x64xf32>, %m: memref<8xf32>, %i: memref<8xi32>) {
  linalg.generic {indexing_maps = [#row, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x64xf32>) outs(%m, %i : memref<8xf32>, memref<8xi32>) {
  ^bb0(%a: f32, %o: f32, %j: i32):
    %k = linalg.index 1 : index
    %kk = arith.index_cast %k : index to i32
    %gt = arith.cmpf ogt, %a, %o : f32
    %v = arith.select %gt, %a, %o : f32
    %w = arith.select %gt, %kk, %j : i32
    linalg.yield %v, %w : f32, i32
  }
  return
}

// 64-bit values do not fit one shuffle: left alone.
// CHECK-LABEL: func.func @i64_sum
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @i64_sum(%x: memref<8x64xi64>, %acc: memref<8xi64>) {
  linalg.generic {indexing_maps = [#row, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x64xi64>) outs(%acc : memref<8xi64>) {
  ^bb0(%a: i64, %o: i64):
    %s = arith.addi %o, %a : i64
    linalg.yield %s : i64
  }
  return
}

// A mean: the sum's fill is absorbed, and the division by the count that
// alone reads the sum runs in lane 0, writing the f16 mean; the buffer is
// then reused by a second sum, which fills it anew first. Two launches,
// no other op left but the copy.
// CHECK-LABEL: func.func @mean_then_reuse
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<128xf32>
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: %[[D:.*]] = arith.divf
// CHECK: %[[H:.*]] = arith.truncf %[[D]] : f32 to f16
// CHECK: memref.store %[[H]], %arg2[
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[ACC]][
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: memref.copy %[[ACC]], %arg3
func.func @mean_then_reuse(%x: memref<128x768xf32>, %y: memref<128x768xf32>, %mean: memref<128xf16>, %other: memref<128xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %acc = memref.alloc() : memref<128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%acc : memref<128xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x768xf32>) outs(%acc : memref<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%acc : memref<128xf32>) outs(%mean : memref<128xf16>) {
  ^bb0(%s: f32, %o: f16):
    %d = arith.divf %s, %n : f32
    %h = arith.truncf %d : f32 to f16
    linalg.yield %h : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%acc : memref<128xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<128x768xf32>) outs(%acc : memref<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  memref.copy %acc, %other : memref<128xf32> to memref<128xf32>
  return
}

// A variance divided in place (bufferization writes the division into the
// sum's own buffer) and read afterwards: the division runs in lane 0 and
// stores into that buffer; the later reader sees what it saw before.
// CHECK-LABEL: func.func @divided_in_place
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<128xf32>
// CHECK: gpu.launch
// CHECK: arith.addf
// CHECK: %[[D:.*]] = arith.divf
// CHECK: memref.store %[[D]], %[[ACC]][
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: memref.copy %[[ACC]], %arg1
func.func @divided_in_place(%x: memref<128x768xf32>, %var: memref<128xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %acc = memref.alloc() : memref<128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%acc : memref<128xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x768xf32>) outs(%acc : memref<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%acc : memref<128xf32>) outs(%acc : memref<128xf32>) {
  ^bb0(%s: f32, %o: f32):
    %d = arith.divf %s, %n : f32
    linalg.yield %d : f32
  }
  memref.copy %acc, %var : memref<128xf32> to memref<128xf32>
  return
}

// A softmax (max, sum of exponentials, normalization), written in place
// as bufferization leaves it: one launch, a warp per row; the max is
// combined across the warp and used from a register by the sum, both by
// the normalization, which reads and writes each element in one lane and
// multiplies by the sum's reciprocal, computed once.
// Lane 0 still stores the max and the sum.
// NOGROUP-LABEL: func.func @softmax_rows
// NOGROUP-COUNT-2: gpu.launch
// NOGROUP: linalg.generic
// CHECK-LABEL: func.func @softmax_rows
// CHECK: gpu.launch
// CHECK: %[[MAXP:.*]] = scf.for {{.*}} -> (f32)
// CHECK: arith.maximumf
// CHECK: gpu.shuffle xor
// CHECK: %[[MAX:.*]] = arith.maximumf %cst{{[_0-9]*}}, %{{.*}} : f32
// CHECK: scf.if
// CHECK: memref.store %[[MAX]], %arg1[
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK: math.exp
// CHECK: gpu.shuffle xor
// CHECK: %[[SUM:.*]] = arith.addf %cst{{[_0-9]*}}, %{{.*}} : f32
// CHECK: memref.store %[[SUM]], %arg2[
// CHECK: %[[RCP:.*]] = arith.divf %cst{{[_0-9]*}}, %[[SUM]] : f32
// CHECK: scf.for
// CHECK: arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK: math.exp
// CHECK: arith.mulf %{{.*}}, %[[RCP]] : f32
// CHECK: memref.store %{{.*}}, %arg0[
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @softmax_rows(%x: memref<96x128xf32>, %max: memref<96xf32>, %sum: memref<96xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ninf : f32) outs(%max : memref<96xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<96x128xf32>) outs(%max : memref<96xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %o, %a : f32
    linalg.yield %m : f32
  }
  %m2 = memref.expand_shape %max [[0, 1]] output_shape [96, 1] : memref<96xf32> into memref<96x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%sum : memref<96xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m2 : memref<96x128xf32>, memref<96x1xf32>) outs(%sum : memref<96xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %s = arith.addf %o, %x2 : f32
    linalg.yield %s : f32
  }
  %s2 = memref.expand_shape %sum [[0, 1]] output_shape [96, 1] : memref<96xf32> into memref<96x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m2, %s2 : memref<96x128xf32>, memref<96x1xf32>, memref<96x1xf32>) outs(%x : memref<96x128xf32>) {
  ^bb0(%a: f32, %mx: f32, %sm: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %r = arith.divf %x2, %sm : f32
    linalg.yield %r : f32
  }
  return
}

// The same softmax where tile-fuse put the normalization in a group of
// its own: no row group (a kernel per reduction), the normalization left
// for a kernel of its own.
// CHECK-LABEL: func.func @negative_softmax_two_groups
// CHECK-COUNT-2: gpu.launch
// CHECK: linalg.generic
// CHECK-SAME: tile.group = 2
// CHECK: return
func.func @negative_softmax_two_groups(%x: memref<96x128xf32>, %max: memref<96xf32>, %sum: memref<96xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ninf : f32) outs(%max : memref<96xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<96x128xf32>) outs(%max : memref<96xf32>) attrs = {tile.group = 1 : i64} {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %o, %a : f32
    linalg.yield %m : f32
  }
  %m2 = memref.expand_shape %max [[0, 1]] output_shape [96, 1] : memref<96xf32> into memref<96x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%sum : memref<96xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m2 : memref<96x128xf32>, memref<96x1xf32>) outs(%sum : memref<96xf32>) attrs = {tile.group = 1 : i64} {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %s = arith.addf %o, %x2 : f32
    linalg.yield %s : f32
  }
  %s2 = memref.expand_shape %sum [[0, 1]] output_shape [96, 1] : memref<96xf32> into memref<96x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m2, %s2 : memref<96x128xf32>, memref<96x1xf32>, memref<96x1xf32>) outs(%x : memref<96x128xf32>) attrs = {tile.group = 2 : i64} {
  ^bb0(%a: f32, %mx: f32, %sm: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %r = arith.divf %x2, %sm : f32
    linalg.yield %r : f32
  }
  return
}

// The same normalization writing another tensor transposed would write
// rows other warps still read: refused, three kernels.
// CHECK-LABEL: func.func @negative_softmax_transposed_in_place
// CHECK-COUNT-2: gpu.launch
// CHECK: linalg.generic
func.func @negative_softmax_transposed_in_place(%x: memref<128x128xf32>, %max: memref<128xf32>, %sum: memref<128xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ninf : f32) outs(%max : memref<128xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x128xf32>) outs(%max : memref<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %o, %a : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%sum : memref<128xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : memref<128x128xf32>, memref<128xf32>) outs(%sum : memref<128xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %s = arith.addf %o, %x2 : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : memref<128x128xf32>, memref<128xf32>, memref<128xf32>) outs(%x : memref<128x128xf32>) {
  ^bb0(%a: f32, %mx: f32, %sm: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %x2 = math.exp %d : f32
    %r = arith.divf %x2, %sm : f32
    linalg.yield %r : f32
  }
  return
}

// A last op whose output map is not one-to-one (every row writes the same
// column sums) would have warps overwrite each other: refused.
// CHECK-LABEL: func.func @negative_row_group_many_to_one
// CHECK-COUNT-2: gpu.launch
// CHECK: linalg.generic
func.func @negative_row_group_many_to_one(%x: memref<64x64xf32>, %max: memref<64xf32>, %sum: memref<64xf32>, %col: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ninf : f32) outs(%max : memref<64xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%max : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %o, %a : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%sum : memref<64xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : memref<64x64xf32>, memref<64xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %s = arith.addf %o, %d : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<64x64xf32>, memref<64xf32>) outs(%col : memref<64xf32>) {
  ^bb0(%a: f32, %sm: f32, %o: f32):
    %r = arith.divf %a, %sm : f32
    linalg.yield %r : f32
  }
  return
}

// A layer norm as bufferization leaves it: a sum, the mean divided into
// its own buffer, the sum's buffer filled again for the squares, the
// variance divided in place, and the normalization: one launch, six
// phases on a warp per row. The mean and the variance are computed by
// every lane (lane 0 stores them) and read from registers afterwards: the
// rows of %x are the only memory the later phases load.
// With 16-byte accesses (VEC), a lane's share of a row of 256 halves is
// one vector of 8: read once, held in registers for the mean, the
// variance and the normalization, which stores 8 halves at a time. The
// row is read from memory once.
// VEC-LABEL: func.func @layer_norm_rows
// VEC: gpu.launch
// VEC: vector.load %arg0{{.*}} vector<8xf16>
// VEC-NOT: vector.load
// VEC: gpu.shuffle xor
// VEC-NOT: vector.load
// VEC: gpu.shuffle xor
// VEC-NOT: vector.load
// VEC: vector.from_elements
// VEC: vector.store %{{.*}}, %arg1[{{.*}}] {alignment = 16 : i64} : memref<64x256xf16>, vector<8xf16>
// VEC: gpu.terminator
// VEC-NOT: linalg.generic
// VEC: return
// NOGROUP-LABEL: func.func @layer_norm_rows
// NOGROUP-COUNT-2: gpu.launch
// NOGROUP: linalg.generic
// CHECK-LABEL: func.func @layer_norm_rows
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<64xf32>
// CHECK: %[[MEANS:.*]] = memref.alloc() : memref<64xf32>
// CHECK: gpu.launch
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: gpu.shuffle xor
// CHECK: %[[SUM:.*]] = arith.addf %cst{{[_0-9]*}}, %{{.*}} : f32
// CHECK: memref.store %[[SUM]], %[[ACC]][
// CHECK: %[[MEAN:.*]] = arith.divf %[[SUM]], %{{.*}} : f32
// CHECK: memref.store %[[MEAN]], %[[MEANS]][
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: arith.subf %{{.*}}, %[[MEAN]] : f32
// CHECK: gpu.shuffle xor
// CHECK: %[[SQ:.*]] = arith.addf %cst{{[_0-9]*}}, %{{.*}} : f32
// CHECK: %[[VAR:.*]] = arith.divf %[[SQ]], %{{.*}} : f32
// CHECK: memref.store %[[VAR]], %[[ACC]][
// CHECK: scf.for
// CHECK-NOT: memref.load %[[ACC]]
// CHECK-NOT: memref.load %[[MEANS]]
// CHECK: arith.addf %[[VAR]], %{{.*}} : f32
// CHECK: arith.subf %{{.*}}, %[[MEAN]] : f32
// CHECK: memref.store %{{.*}}, %arg1[
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @layer_norm_rows(%x: memref<64x256xf16>, %y: memref<64x256xf16>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %acc = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%acc : memref<64xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf16>) outs(%acc : memref<64xf32>) {
  ^bb0(%a: f16, %o: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.addf %o, %e : f32
    linalg.yield %s : f32
  }
  %means = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%acc : memref<64xf32>) outs(%means : memref<64xf32>) {
  ^bb0(%s: f32, %o: f32):
    %d = arith.divf %s, %n : f32
    linalg.yield %d : f32
  }
  %m2 = memref.expand_shape %means [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%acc : memref<64xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m2 : memref<64x256xf16>, memref<64x1xf32>) outs(%acc : memref<64xf32>) {
  ^bb0(%a: f16, %m: f32, %o: f32):
    %e = arith.extf %a : f16 to f32
    %c = arith.subf %e, %m : f32
    %q = arith.mulf %c, %c : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%acc : memref<64xf32>) outs(%acc : memref<64xf32>) {
  ^bb0(%s: f32, %o: f32):
    %d = arith.divf %s, %n : f32
    linalg.yield %d : f32
  }
  %v2 = memref.expand_shape %acc [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m2, %v2 : memref<64x256xf16>, memref<64x1xf32>, memref<64x1xf32>) outs(%y : memref<64x256xf16>) {
  ^bb0(%a: f16, %m: f32, %v: f32, %o: f16):
    %ve = arith.addf %v, %eps : f32
    %e = arith.extf %a : f16 to f32
    %c = arith.subf %e, %m : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %c, %r : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  }
  return
}

// A phase reading a row buffer that a later phase of the would-be group
// writes (the second sum reads %m, which the division after it writes)
// reads memory, not a register: refused, the sum runs alone.
// CHECK-LABEL: func.func @negative_row_group_reads_later_write
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: linalg.generic
func.func @negative_row_group_reads_later_write(%x: memref<64x256xf32>, %m: memref<64xf32>, %y: memref<64x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %old = memref.alloc() : memref<64xf32>
  %acc = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%old : memref<64xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf32>) outs(%old : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  %m2 = memref.expand_shape %m [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%acc : memref<64xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m2 : memref<64x256xf32>, memref<64x1xf32>) outs(%acc : memref<64xf32>) {
  ^bb0(%a: f32, %p: f32, %o: f32):
    %d = arith.subf %a, %p : f32
    %s = arith.addf %o, %d : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%old : memref<64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%s: f32, %o: f32):
    linalg.yield %s : f32
  }
  %a2 = memref.expand_shape %acc [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %a2 : memref<64x256xf32>, memref<64x1xf32>) outs(%y : memref<64x256xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  }
  return
}

// Two outputs where the second's term reads the first's accumulator: each
// lane's partial second output would hold its own running first sums, not
// the row's; not a warp reduction (left for the loops).
// CHECK-LABEL: func.func @negative_dependent_outputs
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @negative_dependent_outputs(%x: memref<64x256xf32>, %a: memref<64xf32>, %b: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf32>) outs(%a, %b : memref<64xf32>, memref<64xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32):
    %s2 = arith.addf %s, %v : f32
    %t2 = arith.addf %t, %s2 : f32
    linalg.yield %s2, %t2 : f32, f32
  }
  return
}
