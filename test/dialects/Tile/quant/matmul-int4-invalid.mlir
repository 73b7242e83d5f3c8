// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @odd_group(%x: tensor<1x30xf32>, %q: tensor<4x15xui8>, %s: tensor<4x10xf32>, %z: tensor<4x10xui8>) -> tensor<1x4xf32> {
  // expected-error @+1 {{group_size must be even and positive, got 3}}
  %y = tile.matmul_int4 %x, %q, %s, %z group_size 3 : (tensor<1x30xf32>, tensor<4x15xui8>, tensor<4x10xf32>, tensor<4x10xui8>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// -----

func.func @k_not_whole_groups(%x: tensor<1x40xf32>, %q: tensor<4x20xui8>, %s: tensor<4x2xf32>, %z: tensor<4x2xui8>) -> tensor<1x4xf32> {
  // expected-error @+1 {{the reduced dimension must be a static multiple of group_size 32}}
  %y = tile.matmul_int4 %x, %q, %s, %z group_size 32 : (tensor<1x40xf32>, tensor<4x20xui8>, tensor<4x2xf32>, tensor<4x2xui8>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// -----

func.func @packed_not_half_k(%x: tensor<1x64xf32>, %q: tensor<4x64xui8>, %s: tensor<4x2xf32>, %z: tensor<4x2xui8>) -> tensor<1x4xf32> {
  // expected-error @+1 {{packed must be a static N x 32 tensor of 8-bit integers}}
  %y = tile.matmul_int4 %x, %q, %s, %z group_size 32 : (tensor<1x64xf32>, tensor<4x64xui8>, tensor<4x2xf32>, tensor<4x2xui8>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// -----

func.func @scales_per_group(%x: tensor<1x64xf32>, %q: tensor<4x32xui8>, %s: tensor<4x4xf32>, %z: tensor<4x2xui8>) -> tensor<1x4xf32> {
  // expected-error @+1 {{scales must be 4 x 2 floats}}
  %y = tile.matmul_int4 %x, %q, %s, %z group_size 32 : (tensor<1x64xf32>, tensor<4x32xui8>, tensor<4x4xf32>, tensor<4x2xui8>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// -----

func.func @zero_points_bytes(%x: tensor<1x64xf32>, %q: tensor<4x32xui8>, %s: tensor<4x2xf32>, %z: tensor<4x2xi32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{zero_points must be 4 x 2 8-bit integers}}
  %y = tile.matmul_int4 %x, %q, %s, %z group_size 32 : (tensor<1x64xf32>, tensor<4x32xui8>, tensor<4x2xf32>, tensor<4x2xi32>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// -----

func.func @result_shape(%x: tensor<2x64xf32>, %q: tensor<4x32xui8>, %s: tensor<4x2xf32>, %z: tensor<4x2xui8>) -> tensor<1x4xf32> {
  // expected-error @+1 {{result must be 'tensor<2x4xf32>'}}
  %y = tile.matmul_int4 %x, %q, %s, %z group_size 32 : (tensor<2x64xf32>, tensor<4x32xui8>, tensor<4x2xf32>, tensor<4x2xui8>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}
