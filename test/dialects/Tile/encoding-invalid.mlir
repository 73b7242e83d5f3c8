// RUN: aicc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{encoding carries no tiles, order, target or config}}
func.func @negative_empty(%x: tensor<4xf32, #tile.encoding<>>) {
  return
}

// -----

// expected-error @+1 {{tile level 1 has rank 1 but level 0 has rank 2}}
func.func @negative_level_ranks_differ(%x: tensor<4x4xf32, #tile.encoding<tiles = [4x4, 2]>>) {
  return
}

// -----

// expected-error @+1 {{tile level 0 has a non-positive size 0}}
func.func @negative_zero_tile(%x: tensor<4x4xf32, #tile.encoding<tiles = [4x0]>>) {
  return
}

// -----

// expected-error @+1 {{tile level 1 size 3 does not divide level 0 size 8 in dimension 1}}
func.func @negative_inner_does_not_divide(%x: tensor<8x8xf32, #tile.encoding<tiles = [8x8, 4x3]>>) {
  return
}

// -----

// expected-error @+1 {{order is not a permutation of [0, 2)}}
func.func @negative_order_repeats(%x: tensor<8x8xf32, #tile.encoding<order = [1, 1]>>) {
  return
}

// -----

// expected-error @+1 {{order has 3 entries but the tiles have rank 2}}
func.func @negative_order_rank(%x: tensor<8x8xf32, #tile.encoding<tiles = [8x8], order = [0, 1, 2]>>) {
  return
}

// -----

// expected-error @+1 {{target is empty}}
func.func @negative_empty_target(%x: tensor<8xf32, #tile.encoding<target = "">>) {
  return
}

// -----

// A configuration must be a target's kernel configuration.
// expected-error @+2 {{invalid kind of attribute specified}}
// expected-error @+1 {{failed to parse Tile_EncodingAttr parameter 'config'}}
func.func @negative_untyped_config(%x: tensor<8xf32, #tile.encoding<target = "cuda", config = {stages = 3 : i64}>>) {
  return
}

// -----

// The configuration checks the levels: a contraction's are three over
// (M, N, K).
// expected-error @+1 {{#aicc_gpu.contraction takes 3 tile levels over (M, N, K): block, warp, instruction, got 2 of rank 3}}
func.func @negative_config_levels(%x: tensor<8x8x8xf16, #tile.encoding<tiles = [8x8x8, 8x8x8], target = "cuda", config = #aicc_gpu.contraction<engine = mma_sync, stages = 2, splits = 1>>>) {
  return
}

// -----

// A discardable tile.* attribute the dialect does not know is an error.
func.func @negative_unknown_attribute() {
  // expected-error @+1 {{has an unknown attribute 'tile.groupe' of the tile dialect}}
  func.return {tile.groupe = 3 : i64}
}

// -----

func.func @negative_group_type() {
  // expected-error @+1 {{'tile.group' must be a non-negative i64}}
  func.return {tile.group = "first"}
}

// -----

// expected-error @+1 {{encoding tiles have rank 2 but the tensor has rank 3}}
func.func @negative_tiles_rank_vs_tensor(%x: tensor<8x8x8xf32, #tile.encoding<tiles = [8x8]>>) {
  return
}

// -----

// expected-error @+1 {{encoding order has 2 entries but the tensor has rank 1}}
func.func @negative_order_rank_vs_tensor(%x: tensor<8xf32, #tile.encoding<order = [1, 0]>>) {
  return
}

// -----

// expected-error @+2 {{expected static shape}}
// expected-error @+1 {{failed to parse Tile_EncodingAttr parameter 'tiles'}}
func.func @negative_dynamic_tile(%x: tensor<8xf32, #tile.encoding<tiles = [?]>>) {
  return
}
