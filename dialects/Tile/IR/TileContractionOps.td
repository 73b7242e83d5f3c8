//===- TileContractionOps.td - Matmul, convolution, pooling --*- tablegen -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILECONTRACTIONOPS_TD
#define AICC_DIALECTS_TILE_IR_TILECONTRACTIONOPS_TD

def Tile_MatmulOp : Tile_InferringOp<"matmul"> {
  let summary = "Matrix and batched matrix multiplication";
  let description = [{
    Multiplies the matrices in the last two dimensions of each operand;
    leading dimensions are batch dimensions and broadcast with numpy rules, so
    `tensor<8x1x64x32>` times `tensor<5x32x16>` gives `tensor<8x5x64x16>`.
    Both operands have rank 2 or more (the importer turns ONNX's 1-D operands
    into matrices). `transpose_lhs` and `transpose_rhs` swap the last two
    dimensions of an operand before multiplying.

    Floats of one type multiply into that type. Integers of any signedness
    multiply exactly into `i32` when narrower than 32 bits (ONNX
    `MatMulInteger`) and into their own type otherwise.

    Example:

    ```mlir
    %y = tile.matmul %x, %w transpose_rhs : (tensor<?x128x768xf32>, tensor<3072x768xf32>) -> tensor<?x128x3072xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs,
                       UnitAttr:$transpose_lhs, UnitAttr:$transpose_rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`transpose_lhs` $transpose_lhs^)?
    (`transpose_rhs` $transpose_rhs^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tile_ConvOp : Tile_InferringOp<"conv"> {
  let summary = "N-d grouped convolution";
  let description = [{
    Cross-correlation of `input` (`N x C x D1 x ... x Dn`) with `filter`
    (`M x C/groups x K1 x ... x Kn`), plus an optional `bias` of `M` values.
    `strides` and `dilations` have one entry per spatial dimension, and
    `padding` has two: all the leading pads, then all the trailing pads (the
    ONNX `pads` order). Each output size is
    `floor((D + pad_lo + pad_hi - dilation * (K - 1) - 1) / stride) + 1`.

    Integer operands (ONNX `ConvInteger`) accumulate into `i32`.

    With `channels_last` the channels are the last dimension instead: the
    input is `N x D1 x ... x Dn x C`, the filter `M x K1 x ... x Kn x
    C/groups` and the result `N x O1 x ... x On x M` (NHWC and OHWI for
    images). `tile-channels-last` chooses it; importers never do.

    Example:

    ```mlir
    %y = tile.conv %x, %w, %b strides = [2, 2] dilations = [1, 1]
           padding = [3, 3, 3, 3]
         : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, Tile_Tensor:$filter,
                       Optional<Tile_Tensor>:$bias,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       UnitAttr:$channels_last);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? `strides` `=` $strides
    `dilations` `=` $dilations `padding` `=` $padding
    (`groups` `=` $groups^)? (`channels_last` $channels_last^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tile_ConvTransposeOp : Tile_InferringOp<"conv_transpose"> {
  let summary = "N-d grouped transposed convolution";
  let description = [{
    The gradient of `tile.conv` with respect to its input: `input` is
    `N x C x D1 x ... x Dn`, `filter` is `C x M/groups x K1 x ... x Kn`, the
    optional `bias` has `M` values. Each output size is
    `stride * (D - 1) + output_padding + dilation * (K - 1) + 1 - pad_lo - pad_hi`.
    The importer resolves ONNX's `output_shape` and `auto_pad` into `padding`
    and `output_padding`.

    Example:

    ```mlir
    %y = tile.conv_transpose %x, %w strides = [2, 2] dilations = [1, 1]
           padding = [1, 1, 1, 1] output_padding = [1, 1]
         : (tensor<1x16x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<1x8x16x16xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, Tile_Tensor:$filter,
                       Optional<Tile_Tensor>:$bias,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$output_padding,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? `strides` `=` $strides
    `dilations` `=` $dilations `padding` `=` $padding
    `output_padding` `=` $output_padding (`groups` `=` $groups^)? attr-dict
    `:` functional-type(operands, results)
  }];
}

def Tile_PoolOp : Tile_InferringOp<"pool"> {
  let summary = "N-d max, average or Lp pooling over windows";
  let description = [{
    Reduces each window of `kernel` over the spatial dimensions of `input`
    (`N x C x D1 x ... x Dn`). `kernel`, `strides` and `dilations` have one
    entry per spatial dimension; `padding` has the leading pads and then the
    trailing pads. Padded positions never win a `max`, add nothing to an `lp`
    norm, and count in an `avg` divisor only with `count_include_pad`.

    The output size is
    `floor_or_ceil((D + pad_lo + pad_hi - dilation * (K - 1) - 1) / stride) + 1`,
    with `ceil_mode` choosing the ceiling; a window that would start past the
    end of the input and its leading padding is dropped. `p` is the norm of
    `lp` pooling and only it may carry one.

    With `channels_last` the channels are the last dimension instead: the
    input is `N x D1 x ... x Dn x C` and the result `N x O1 x ... x On x C`.
    `tile-channels-last` chooses it; importers never do.

    Example:

    ```mlir
    %y = tile.pool max %x kernel = [3, 3] strides = [2, 2] dilations = [1, 1]
           padding = [1, 1, 1, 1] : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Tile_PoolKindAttr:$kind, Tile_Tensor:$input,
                       DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       UnitAttr:$ceil_mode, UnitAttr:$count_include_pad,
                       OptionalAttr<I64Attr>:$p, UnitAttr:$channels_last);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `kernel` `=` $kernel `strides` `=` $strides
    `dilations` `=` $dilations `padding` `=` $padding
    (`ceil_mode` $ceil_mode^)? (`count_include_pad` $count_include_pad^)?
    (`channels_last` $channels_last^)? attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tile_GlobalPoolOp : Tile_InferringOp<"global_pool"> {
  let summary = "Max, average or Lp pooling over all spatial dimensions";
  let description = [{
    Reduces `input` (`N x C x D1 x ... x Dn`) over all its spatial dimensions,
    keeping them as size 1. `p` is the norm of `lp` pooling.

    Example:

    ```mlir
    %y = tile.global_pool avg %x : tensor<1x2048x7x7xf32> -> tensor<1x2048x1x1xf32>
    ```
  }];
  let arguments = (ins Tile_PoolKindAttr:$kind, Tile_Tensor:$input,
                       OptionalAttr<I64Attr>:$p);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat =
      "$kind $input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

#endif // AICC_DIALECTS_TILE_IR_TILECONTRACTIONOPS_TD
