// RUN: aicc-opt %s -split-input-file -verify-diagnostics

// A misspelt annotation is an error, not a silent default.
// expected-error @+1 {{has an unknown attribute 'aicc_gpu.flop' of the aicc_gpu dialect}}
func.func @negative_unknown_name() attributes {aicc_gpu.flop = 3 : i64} {
  return
}

// -----

// expected-error @+1 {{'aicc_gpu.bytes' must be a non-negative i64, got -1 : i64}}
func.func @negative_bytes() attributes {aicc_gpu.bytes = -1 : i64} {
  return
}

// -----

// expected-error @+1 {{'aicc_gpu.math' must be a #aicc_gpu.math, got "tensor16"}}
func.func @negative_math() attributes {aicc_gpu.math = "tensor16"} {
  return
}

// -----

// expected-error @+1 {{'aicc_gpu.tiles' must be a #tile.encoding with an aicc_gpu kernel configuration}}
func.func @negative_tiles_without_config() attributes {aicc_gpu.tiles = #tile.encoding<tiles = [8x8]>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.contraction stages must be at least 1, got 0}}
func.func @negative_stages() attributes {a = #aicc_gpu.contraction<engine = wgmma, stages = 0, splits = 1>} {
  return
}

// -----

// expected-error @+2 {{expected one of [mma_sync, wgmma] for the tensor-core instructions a contraction runs on, got: wmma}}
// expected-error @+1 {{failed to parse AiccGPU_ContractionConfigAttr parameter 'engine'}}
func.func @negative_engine() attributes {a = #aicc_gpu.contraction<engine = wmma, stages = 2, splits = 1>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.attention warps must be 1, 2 or 4, got 3}}
func.func @negative_attention_warps() attributes {a = #aicc_gpu.attention<warps = 3, shared = 1024>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.attention of 2 warps takes blocks of 32 query rows, got 64}}
func.func @negative_attention_rows() attributes {a = #tile.encoding<tiles = [64x128x64, 16x128x64, 16x8x16], config = #aicc_gpu.attention<warps = 2, shared = 41472>>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.rows of 4 warps takes blocks of 4 rows and a row a warp}}
func.func @negative_rows() attributes {a = #tile.encoding<tiles = [8x768, 1x768], config = #aicc_gpu.rows<warps = 4, lanes = 32>>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.mfma block tile is not 2 x 2 wave tiles}}
func.func @negative_mfma() attributes {a = #tile.encoding<tiles = [64x32x2, 32x32x2, 32x32x2], config = #aicc_gpu.mfma<waves_m = 2, waves_n = 2>>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.elementwise of 128 threads of 4 lanes takes tiles [512, 4]}}
func.func @negative_elementwise() attributes {a = #tile.encoding<tiles = [1024, 8], config = #aicc_gpu.elementwise<threads = 128, lanes = 4>>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.elementwise takes 2 tile levels over the flattened iterations: block, thread, got 2 of rank 2}}
func.func @negative_elementwise_rank() attributes {a = #tile.encoding<tiles = [32x32, 1x8], config = #aicc_gpu.elementwise<threads = 128, lanes = 8>>} {
  return
}

// -----

// A configuration no block could run: whole warps, at most 1024 threads.
// expected-error @+1 {{#aicc_gpu.elementwise threads must be whole warps of 32, got 48}}
func.func @negative_elementwise_partial_warp() attributes {a = #aicc_gpu.elementwise<threads = 48, lanes = 8>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.elementwise takes 2048 threads, past a block's 1024}}
func.func @negative_elementwise_threads() attributes {a = #aicc_gpu.elementwise<threads = 2048, lanes = 1>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.rows takes 2048 threads, past a block's 1024}}
func.func @negative_rows_threads() attributes {a = #aicc_gpu.rows<warps = 64, lanes = 32>} {
  return
}

// -----

// expected-error @+1 {{#aicc_gpu.mfma takes 2048 threads, past a block's 1024}}
func.func @negative_mfma_threads() attributes {a = #aicc_gpu.mfma<waves_m = 4, waves_n = 8>} {
  return
}
