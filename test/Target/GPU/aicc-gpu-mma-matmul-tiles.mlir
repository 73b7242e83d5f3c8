// RUN: aicc-opt %s -split-input-file -aicc-gpu-mma-matmul -verify-diagnostics

// aicc-gpu-mma-matmul refuses a recorded tiling it cannot run: wgmma
// without wgmma=true (sm_80 or sm_90 cubins).

func.func @wgmma_off(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{aicc-gpu-mma-matmul: cannot run the tiling #tile.encoding<tiles = [128x128x64, 64x128x64, 64x128x16], target = "cuda", hints = {engine = "wgmma", splits = 1 : i64, stages = 3 : i64}>: the contraction f16:b1:m256:n256:k64:kr does not admit it}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
      attrs = {aicc.tiles = #tile.encoding<tiles = [128x128x64, 64x128x64, 64x128x16], target = "cuda", hints = {engine = "wgmma", stages = 3 : i64, splits = 1 : i64}>} {
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

// A K split into more blocks than K has slices (64 / 32 = 2).

func.func @too_many_splits(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{the contraction f16:b1:m256:n256:k64:kr does not admit it}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
      attrs = {aicc.tiles = #tile.encoding<tiles = [64x64x32, 32x32x32, 16x8x16], target = "cuda", hints = {engine = "mma.sync", stages = 1 : i64, splits = 4 : i64}>} {
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

// A warp tile other than the kernel's for the block (8 warps of 64x32).

func.func @warps(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{its warp tile is not the kernel's for that block}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
      attrs = {aicc.tiles = #tile.encoding<tiles = [128x128x32, 32x32x32, 16x8x16], target = "cuda", hints = {engine = "mma.sync", stages = 1 : i64, splits = 1 : i64}>} {
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

// Not an encoding of the cuda kernel at all.

func.func @not_cuda(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{not a cuda #tile.encoding of three levels (block, warp, instruction) with hints}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
      attrs = {aicc.tiles = #tile.encoding<tiles = [128x128x32], target = "rocm">} {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
