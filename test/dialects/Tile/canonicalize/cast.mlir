// RUN: aicc-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @identity
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tile.cast %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An exact widening followed by its inverse is the identity.
// CHECK-LABEL: func @widen_and_back
// CHECK-SAME: (%[[X:.*]]: tensor<4xf16>)
// CHECK-NEXT: return %[[X]]
func.func @widen_and_back(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tile.cast %x : tensor<4xf16> -> tensor<4xf32>
  %1 = tile.cast %0 : tensor<4xf32> -> tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// CHECK-LABEL: func @exact_chain_collapses
// CHECK-SAME: (%[[X:.*]]: tensor<4xi8>)
// CHECK-NEXT: %[[C:.*]] = tile.cast %[[X]] : tensor<4xi8> -> tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @exact_chain_collapses(%x: tensor<4xi8>) -> tensor<4xf32> {
  %0 = tile.cast %x : tensor<4xi8> -> tensor<4xi32>
  %1 = tile.cast %0 : tensor<4xi32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @unsigned_into_wider_signed
// CHECK-NEXT: tile.cast %{{.*}} : tensor<4xui8> -> tensor<4xf16>
// CHECK-NEXT: return
func.func @unsigned_into_wider_signed(%x: tensor<4xui8>) -> tensor<4xf16> {
  %0 = tile.cast %x : tensor<4xui8> -> tensor<4xi16>
  %1 = tile.cast %0 : tensor<4xi16> -> tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// Narrowing first may change values: both casts stay.
// CHECK-LABEL: func @negative_narrowing_first
// CHECK: tile.cast %{{.*}} : tensor<4xf32> -> tensor<4xf16>
// CHECK: tile.cast %{{.*}} : tensor<4xf16> -> tensor<4xf32>
func.func @negative_narrowing_first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tile.cast %x : tensor<4xf32> -> tensor<4xf16>
  %1 = tile.cast %0 : tensor<4xf16> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// f16 and bf16 each hold values the other cannot.
// CHECK-LABEL: func @negative_f16_to_bf16
// CHECK: tile.cast %{{.*}} : tensor<4xf16> -> tensor<4xbf16>
// CHECK: tile.cast %{{.*}} : tensor<4xbf16> -> tensor<4xf32>
func.func @negative_f16_to_bf16(%x: tensor<4xf16>) -> tensor<4xf32> {
  %0 = tile.cast %x : tensor<4xf16> -> tensor<4xbf16>
  %1 = tile.cast %0 : tensor<4xbf16> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A signed value may be negative, so unsigned is not a safe middle step.
// CHECK-LABEL: func @negative_signed_through_unsigned
// CHECK: tile.cast %{{.*}} : tensor<4xi8> -> tensor<4xui16>
// CHECK: tile.cast %{{.*}} : tensor<4xui16> -> tensor<4xi32>
func.func @negative_signed_through_unsigned(%x: tensor<4xi8>) -> tensor<4xi32> {
  %0 = tile.cast %x : tensor<4xi8> -> tensor<4xui16>
  %1 = tile.cast %0 : tensor<4xui16> -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// i32 does not fit the 24-bit significand of f32.
// CHECK-LABEL: func @negative_int_too_wide_for_float
// CHECK: tile.cast %{{.*}} : tensor<4xi32> -> tensor<4xf32>
// CHECK: tile.cast %{{.*}} : tensor<4xf32> -> tensor<4xi32>
func.func @negative_int_too_wide_for_float(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tile.cast %x : tensor<4xi32> -> tensor<4xf32>
  %1 = tile.cast %0 : tensor<4xf32> -> tensor<4xi32>
  return %1 : tensor<4xi32>
}
