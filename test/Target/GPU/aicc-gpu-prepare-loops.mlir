// RUN: aicc-opt %s -aicc-gpu-prepare-loops | FileCheck %s

// Named ops become linalg.generic; a reduction loop in the middle moves
// after the parallel ones; memref.copy becomes linalg.copy's generic.

// CHECK: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @reduce_middle
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @reduce_middle(%in: memref<3x4x5xf32>, %out: memref<3x5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%in : memref<3x4x5xf32>) outs(%out : memref<3x5xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @named
// CHECK-NOT: linalg.matmul
// CHECK-NOT: memref.copy
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel"]
func.func @named(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>,
                 %x: memref<16xf32>, %y: memref<16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>)
                outs(%c : memref<4x2xf32>)
  memref.copy %x, %y : memref<16xf32> to memref<16xf32>
  return
}
