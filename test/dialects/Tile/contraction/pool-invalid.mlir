// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_low_rank(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{input must have rank 3 or more (N x C x spatial...)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.pool max %x kernel = [] strides = [] dilations = [] padding = [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @negative_kernel_count(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+2 {{kernel has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.pool max %x kernel = [2] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : tensor<1x1x4x4xf32> -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @negative_zero_stride(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+2 {{strides entry 0 is less than 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.pool max %x kernel = [2, 2] strides = [0, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : tensor<1x1x4x4xf32> -> tensor<1x1x3x3xf32>
  return
}

// -----

func.func @negative_window_larger_than_input(%x: tensor<1x1x2x2xf32>) {
  // expected-error @+2 {{spatial dimension 0 of the output would have size 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tile.pool avg %x kernel = [3, 2] strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] : tensor<1x1x2x2xf32> -> tensor<1x1x1x1xf32>
  return
}

// -----

func.func @negative_avg_on_integers(%x: tensor<1x1x4x4xi32>) {
  // expected-error @+1 {{'avg' pooling does not take element type 'i32'}}
  %0 = tile.pool avg %x kernel = [2, 2] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] : tensor<1x1x4x4xi32> -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @negative_p_on_max(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{only 'lp' pooling takes 'p'}}
  %0 = tile.pool max %x kernel = [2, 2] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] {p = 2 : i64} : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @negative_zero_p(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{'p' must be positive, got 0}}
  %0 = tile.pool lp %x kernel = [2, 2] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] {p = 0 : i64} : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @negative_count_include_pad_on_max(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{only 'avg' pooling takes 'count_include_pad'}}
  %0 = tile.pool max %x kernel = [2, 2] strides = [2, 2] dilations = [1, 1] padding = [0, 0, 0, 0] count_include_pad : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  return
}
