// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_rank(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{result rank 3 differs from input rank 4}}
  %0 = tile.resize linear %x scales = [1.0, 1.0, 2.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<3x16x16xf32>
  return
}

// -----

func.func @negative_scales_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{scales has 2 entries, expected 4}}
  %0 = tile.resize linear %x scales = [2.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  return
}

// -----

func.func @negative_zero_scale(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{scales must be positive, got 0.000000e+00}}
  %0 = tile.resize linear %x scales = [1.0, 1.0, 0.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  return
}

// -----

func.func @negative_linear_on_integers(%x: tensor<1x3x8x8xi8>) {
  // expected-error @+1 {{'linear' resize does not take element type 'i8'}}
  %0 = tile.resize linear %x scales = [1.0, 1.0, 2.0, 2.0] : tensor<1x3x8x8xi8> -> tensor<1x3x16x16xi8>
  return
}

// -----

func.func @negative_crop_without_roi(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'tf_crop_and_resize' requires a roi}}
  %0 = tile.resize linear %x scales = [1.0, 1.0, 1.0, 1.0] coordinate_transform = tf_crop_and_resize : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_roi_without_crop(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{only 'tf_crop_and_resize' takes a roi}}
  %0 = tile.resize linear %x scales = [1.0, 1.0, 1.0, 1.0] roi = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0] : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_roi_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{roi has 4 entries, expected 8}}
  %0 = tile.resize linear %x scales = [1.0, 1.0, 1.0, 1.0] coordinate_transform = tf_crop_and_resize roi = [0.0, 0.0, 1.0, 1.0] : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_antialias_nearest(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'nearest' resize does not take 'antialias'}}
  %0 = tile.resize nearest %x scales = [1.0, 1.0, 0.5, 0.5] {antialias} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @negative_element_type(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{changes the element type from 'f32' to 'f16'}}
  %0 = tile.resize linear %x scales = [1.0, 1.0, 2.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf16>
  return
}

// -----

func.func @negative_dynamic_scales_count(%x: tensor<1x3x8x8xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{dynamic_scales must be a 1-D float tensor of 4 values, got 'tensor<2xf32>'}}
  %0 = tile.resize linear %x dynamic_scales(%s : tensor<2xf32>) scales = [1.0, 1.0, 2.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
  return
}
