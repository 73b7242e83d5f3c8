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

def Tile_MatmulInt4Op : Tile_Op<"matmul_int4", [Pure]> {
  let summary = "Product with a weight of 4-bit values packed two to a byte";
  let description = [{
    `result[..., n] = sum_k lhs[..., k] * w[k, n]` where the weight
    `w[k, n] = (q[n, k] - zero_points[n, k / group_size]) *
    scales[n, k / group_size]` and `q[n, k]` is the 4-bit value in byte
    `packed[n, k / 2]`: its low four bits for even `k`, its high four for
    odd `k` (the layout of ONNX Runtime's `MatMulNBits`), and zero points
    are read as signed or unsigned as their type says. The weight stays
    in memory at half a byte a value, one scale (the float type of `lhs`
    or wider) and one 8-bit zero point a group of `group_size` values along
    k, and is dequantized where it is read (weight-only quantization,
    W4A16). `tile-lower-quant` forms it from the product of a dequantized
    4-bit weight where a target asks for it (products of few rows, whose
    time is the weight's reading).

    `lhs` is `... x K` with K a multiple of `group_size`, itself even;
    `packed` is `N x K/2` 8-bit integers; `scales` and `zero_points` are
    `N x K/group_size`; the result is `... x N` in `lhs`'s float type.

    Example:

    ```mlir
    %y = tile.matmul_int4 %x, %q, %s, %z group_size 128
       : (tensor<1x4096xf16>, tensor<4096x2048xui8>, tensor<4096x32xf16>,
          tensor<4096x32xui8>) -> tensor<1x4096xf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$packed,
                       Tile_Tensor:$scales, Tile_Tensor:$zero_points,
                       I64Attr:$group_size);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $packed `,` $scales `,` $zero_points `group_size` $group_size
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // AICC_DIALECTS_TILE_IR_TILEQUANTOPS_TD
