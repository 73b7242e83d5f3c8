// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_integer_scales(%x: tensor<4xf32>) {
  // expected-error @+1 {{quantization scales must be floats}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<1> : tensor<i32>>) : tensor<4xf32> -> tensor<4xi8>
  return
}

// -----

func.func @negative_zero_point_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{zero points of shape 2 do not match scales of shape []}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<1.0> : tensor<f32>, zero_points = dense<0> : tensor<2xi8>>) : tensor<4xf32> -> tensor<4xi8>
  return
}

// -----

func.func @negative_zero_point_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{zero points of type 'ui8' do not match the stored type 'i8'}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<1.0> : tensor<f32>, zero_points = dense<0> : tensor<ui8>>) : tensor<4xf32> -> tensor<4xi8>
  return
}

// -----

func.func @negative_axis_size(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{2 scales for 3 elements along axis 1}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<[1.0, 2.0]> : tensor<2xf32>, axis = 1>) : tensor<4x3xf32> -> tensor<4x3xi8>
  return
}

// -----

func.func @negative_axis_range(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{quantization axis 2 is out of range for rank 2}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<[1.0, 2.0]> : tensor<2xf32>, axis = 2>) : tensor<4x3xf32> -> tensor<4x3xi8>
  return
}

// -----

func.func @negative_block_cover(%x: tensor<2x80xi4>) {
  // expected-error @+1 {{blocked scales of shape 2x2 do not fit a tensor of shape 2x80 in blocks of 32 along axis 1}}
  %d = tile.dequantize %x quant(#tile.quant<scales = dense<1.0> : tensor<2x2xf32>, axis = 1, block_size = 32>) : tensor<2x80xi4> -> tensor<2x80xf32>
  return
}

// -----

func.func @negative_rank_without_blocks(%x: tensor<2x80xi4>) {
  // expected-error @+1 {{scales of rank 2 need a block_size}}
  %d = tile.dequantize %x quant(#tile.quant<scales = dense<1.0> : tensor<2x3xf32>, axis = 1>) : tensor<2x80xi4> -> tensor<2x80xf32>
  return
}

// -----

func.func @negative_per_tensor_block(%x: tensor<4xf32>) {
  // expected-error @+1 {{per-tensor scales cannot have a block_size}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<1.0> : tensor<f32>, block_size = 4>) : tensor<4xf32> -> tensor<4xi8>
  return
}

// -----

func.func @negative_wide_storage(%x: tensor<4xf32>) {
  // expected-error @+1 {{stores 'i32'; expected an integer of at most 16 bits or an fp8 type}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<1.0> : tensor<f32>>) : tensor<4xf32> -> tensor<4xi32>
  return
}

// -----

func.func @negative_float_storage(%x: tensor<4xf32>) {
  // expected-error @+1 {{stores 'f16'; expected an integer of at most 16 bits or an fp8 type}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<1.0> : tensor<f32>>) : tensor<4xf32> -> tensor<4xf16>
  return
}

// -----

func.func @negative_integer_input(%x: tensor<4xi32>) {
  // expected-error @+1 {{quantizes floats, got 'i32'}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<1.0> : tensor<f32>>) : tensor<4xi32> -> tensor<4xi8>
  return
}

// -----

func.func @negative_integer_result(%x: tensor<4xi8>) {
  // expected-error @+1 {{dequantizes into floats, got 'i32'}}
  %d = tile.dequantize %x quant(#tile.quant<scales = dense<1.0> : tensor<f32>>) : tensor<4xi8> -> tensor<4xi32>
  return
}

// -----

func.func @negative_fp8_zero_point(%x: tensor<4xf32>) {
  // expected-error @+1 {{fp8 quantization needs zero points of zero}}
  %q = tile.quantize %x quant(#tile.quant<scales = dense<1.0> : tensor<f32>, zero_points = dense<1.0> : tensor<f8E4M3FN>>) : tensor<4xf32> -> tensor<4xf8E4M3FN>
  return
}
