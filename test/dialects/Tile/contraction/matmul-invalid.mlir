// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_rank_one(%a: tensor<8xf32>, %b: tensor<8x2xf32>) {
  // expected-error @+2 {{operands must have rank 2 or more, got 1 and 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.matmul %a, %b : (tensor<8xf32>, tensor<8x2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_contraction_mismatch(%a: tensor<4x8xf32>, %b: tensor<7x2xf32>) {
  // expected-error @+2 {{contraction sizes differ: lhs has 8 and rhs has 7}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.matmul %a, %b : (tensor<4x8xf32>, tensor<7x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @negative_mixed_floats(%a: tensor<4x8xf32>, %b: tensor<8x2xf16>) {
  // expected-error @+2 {{operand element types 'f32' and 'f16' cannot be multiplied}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf16>) -> tensor<4x2xf32>
  return
}

// -----

func.func @negative_batch_mismatch(%a: tensor<3x4x8xf32>, %b: tensor<2x8x2xf32>) {
  // expected-error @+2 {{operand shapes 3, 2 are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.matmul %a, %b : (tensor<3x4x8xf32>, tensor<2x8x2xf32>) -> tensor<3x4x2xf32>
  return
}

// -----

func.func @negative_wide_integers_differ(%a: tensor<4x8xi32>, %b: tensor<8x2xi64>) {
  // expected-error @+2 {{operand element types 'i32' and 'i64' cannot be multiplied}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.matmul %a, %b : (tensor<4x8xi32>, tensor<8x2xi64>) -> tensor<4x2xi64>
  return
}

// -----

func.func @negative_integer_result_type(%a: tensor<4x8xi8>, %b: tensor<8x2xi8>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x2xi32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.matmul %a, %b : (tensor<4x8xi8>, tensor<8x2xi8>) -> tensor<4x2xi8>
  return
}
