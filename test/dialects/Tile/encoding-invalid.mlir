// RUN: aicc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{encoding carries no tiles, order, target or hints}}
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

// expected-error @+1 {{unknown target 'tpu' (expected cpu, cuda, rocm or systolic)}}
func.func @negative_unknown_target(%x: tensor<8xf32, #tile.encoding<target = "tpu">>) {
  return
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
