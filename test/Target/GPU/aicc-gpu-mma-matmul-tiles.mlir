// RUN: aicc-opt %s -split-input-file -aicc-gpu-mma-matmul -verify-diagnostics

// aicc-gpu-mma-matmul refuses a recorded tiling it cannot run: wgmma
// without wgmma=true (sm_80 or sm_90 cubins).

func.func @wgmma_off(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{aicc-gpu-mma-matmul: cannot run the tiling #tile.encoding<tiles = [128x128x64, 64x128x64, 64x128x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1>>: the contraction f16:b1:m256:n256:k64:kr does not admit it}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
      attrs = {aicc_gpu.tiles = #tile.encoding<tiles = [128x128x64, 64x128x64, 64x128x16], target = "cuda", config = #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1>>} {
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
      attrs = {aicc_gpu.tiles = #tile.encoding<tiles = [64x64x32, 32x32x32, 16x8x16], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 1, splits = 4>>} {
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
      attrs = {aicc_gpu.tiles = #tile.encoding<tiles = [128x128x32, 32x32x32, 16x8x16], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 1, splits = 1>>} {
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

// Not a kernel configuration at all: the aicc_gpu dialect refuses it.

func.func @not_cuda(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{'aicc_gpu.tiles' must be a #tile.encoding with an aicc_gpu kernel configuration, got #tile.encoding<tiles = [128x128x32], target = "rocm">}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
      attrs = {aicc_gpu.tiles = #tile.encoding<tiles = [128x128x32], target = "rocm">} {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
