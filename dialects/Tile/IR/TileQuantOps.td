//===- TileQuantOps.td - Quantize and dequantize -------------*- tablegen -*-===//
//
// Included from TileOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_DIALECTS_TILE_IR_TILEQUANTOPS_TD
#define AICC_DIALECTS_TILE_IR_TILEQUANTOPS_TD

def Tile_QuantizeOp : Tile_Op<"quantize", [Pure, SameOperandsAndResultShape]> {
  let summary = "Real numbers to their quantized form";
  let description = [{
    Divides every element by its scale, rounds half to even, adds the zero
    point and saturates into the result's integer type (ONNX
    `QuantizeLinear`). For an fp8 result the quotient converts to the fp8
    type, saturating to its largest finite value, and zero points must be
    zero. The result type is an integer of at most 16 bits or an fp8 type;
    `quant` says which scale and zero point each element uses.

    `tile-fold-qdq` folds quantize and dequantize pairs around an op into a
    quantized op; `tile-lower-quant` turns what is left into arithmetic.

    Example:

    ```mlir
    %q = tile.quantize %x quant(#tile.quant<scales = dense<0.05> : tensor<f32>,
           zero_points = dense<128> : tensor<ui8>>) : tensor<4x8xf32> -> tensor<4x8xui8>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, Tile_QuantAttr:$quant);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `quant` `(` qualified($quant) `)` attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DequantizeOp : Tile_Op<"dequantize",
                                [Pure, SameOperandsAndResultShape]> {
  let summary = "Quantized values to the real numbers they stand for";
  let description = [{
    `(stored - zero_point) * scale` per element, in the result's float type
    (ONNX `DequantizeLinear`). The input is an integer tensor of up to 32
    bits (int32 dequantizes the biases of quantized models) or an fp8
    tensor.

    Example:

    ```mlir
    %w = tile.dequantize %q quant(#tile.quant<scales = dense<[0.1, 0.2]> : tensor<2xf32>,
           axis = 0>) : tensor<2x16xi8> -> tensor<2x16xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, Tile_QuantAttr:$quant);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `quant` `(` qualified($quant) `)` attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

#endif // AICC_DIALECTS_TILE_IR_TILEQUANTOPS_TD
