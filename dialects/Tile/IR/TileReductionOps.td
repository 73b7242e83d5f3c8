//===- TileReductionOps.td - Reductions, softmax, norms -----*- tablegen -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILEREDUCTIONOPS_TD
#define AICC_DIALECTS_TILE_IR_TILEREDUCTIONOPS_TD

def Tile_ReduceOp : Tile_InferringOp<"reduce"> {
  let summary = "Reduction over a set of axes";
  let description = [{
    Reduces `input` over `axes` (non-empty, distinct, ascending, in
    `[0, rank)`). With `keep_dims` the reduced dimensions stay as size 1;
    without it they are removed. The element type is kept: `mean` of integers
    divides with truncation.

    | kind | result |
    |------|--------|
    | `sum`, `prod`, `max`, `min`, `mean` | as named |
    | `l1` | Σ\|x\| |
    | `l2` | √(Σx²) |
    | `sum_square` | Σx² |
    | `log_sum` | log(Σx) |
    | `log_sum_exp` | log(Σeˣ), computed stably |

    Example:

    ```mlir
    %s = tile.reduce sum %x axes = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
    ```
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind, Tile_Tensor:$input,
                       DenseI64ArrayAttr:$axes, UnitAttr:$keep_dims);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `axes` `=` $axes (`keep_dims` $keep_dims^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ArgReduceOp : Tile_InferringOp<"arg_reduce"> {
  let summary = "Index of the largest or smallest element along an axis";
  let description = [{
    The `i64` position of the maximum (`max`) or minimum (`min`) along `axis`.
    Ties go to the first position, or the last with `select_last_index`.
    `keep_dims` keeps the reduced axis as size 1.

    Example:

    ```mlir
    %i = tile.arg_reduce max %x axis = 1 : tensor<4x10xf32> -> tensor<4xi64>
    ```
  }];
  let arguments = (ins Tile_ArgKindAttr:$kind, Tile_Tensor:$input,
                       I64Attr:$axis, UnitAttr:$keep_dims,
                       UnitAttr:$select_last_index);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = [{
    $kind $input `axis` `=` $axis (`keep_dims` $keep_dims^)?
    (`select_last_index` $select_last_index^)? attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

class Tile_SoftmaxBase<string mnemonic>
    : Tile_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let arguments = (ins Tile_Tensor:$input, I64Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Tile_SoftmaxOp : Tile_SoftmaxBase<"softmax"> {
  let summary = "Softmax along one axis";
  let description = [{
    `exp(x - max) / sum(exp(x - max))` along `axis`, on floats.

    ```mlir
    %p = tile.softmax %x axis = 1 : tensor<2x1000xf32>
    ```
  }];
}

def Tile_LogSoftmaxOp : Tile_SoftmaxBase<"log_softmax"> {
  let summary = "Log-softmax along one axis";
  let description = [{
    `x - max - log(sum(exp(x - max)))` along `axis`, on floats.

    ```mlir
    %p = tile.log_softmax %x axis = 1 : tensor<2x1000xf32>
    ```
  }];
}

def Tile_CumsumOp : Tile_Op<"cumsum", [Pure, SameOperandsAndResultType]> {
  let summary = "Cumulative sum along one axis";
  let description = [{
    Running sums along `axis`. `exclusive` leaves each element out of its own
    sum; `reverse` sums from the end.

    ```mlir
    %c = tile.cumsum %x axis = 0 exclusive : tensor<5xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, I64Attr:$axis, UnitAttr:$exclusive,
                       UnitAttr:$reverse);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`exclusive` $exclusive^)? (`reverse` $reverse^)?
    attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def Tile_TopKOp : Tile_InferringOp<"top_k"> {
  let summary = "The k largest or smallest elements along an axis";
  let description = [{
    Returns the `k` largest (or, with `largest = false`, smallest) elements
    along `axis` and their `i64` positions. With `sorted` (the default) they
    come in order, largest first for `largest`; equal values keep the order of
    their positions.

    ```mlir
    %v, %i = tile.top_k %x k = 3 axis = 1 : tensor<2x10xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, I64Attr:$k, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$largest,
                       DefaultValuedAttr<BoolAttr, "true">:$sorted);
  let results = (outs Tile_Tensor:$values, RankedTensorOf<[I64]>:$indices);
  let assemblyFormat = [{
    $input `k` `=` $k `axis` `=` $axis attr-dict `:` type($input) `->`
    type($values) `,` type($indices)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def Tile_LayerNormOp : Tile_InferringOp<"layer_norm"> {
  let summary = "Layer normalization over the trailing dimensions";
  let description = [{
    Normalizes `input` over dimensions `[axis, rank)` to zero mean and unit
    variance (`(x - mean) / sqrt(var + epsilon)`), then multiplies by `scale`
    and adds `bias`. `scale` and `bias` broadcast to the normalized shape.
    Statistics are computed in at least f32.

    ```mlir
    %y = tile.layer_norm %x, %g, %b axis = 2 epsilon = 1.000000e-05
         : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, Tile_Tensor:$scale,
                       Optional<Tile_Tensor>:$bias, I64Attr:$axis,
                       F64Attr:$epsilon);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $scale (`,` $bias^)? `axis` `=` $axis `epsilon` `=` $epsilon
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_BatchNormOp : Tile_InferringOp<"batch_norm"> {
  let summary = "Batch normalization with running statistics (inference)";
  let description = [{
    `scale * (x - mean) / sqrt(variance + epsilon) + bias` per channel, the
    channel being dimension 1 of `input` (`N x C x ...`); the four parameters
    have `C` values each.

    ```mlir
    %y = tile.batch_norm %x, %s, %b, %m, %v epsilon = 1.000000e-05
         : (tensor<1x64x8x8xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x8x8xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, Tile_Tensor:$scale,
                       Tile_Tensor:$bias, Tile_Tensor:$mean,
                       Tile_Tensor:$variance, F64Attr:$epsilon);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $variance `epsilon` `=` $epsilon
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_InstanceNormOp : Tile_InferringOp<"instance_norm"> {
  let summary = "Instance normalization";
  let description = [{
    Normalizes each (sample, channel) over the spatial dimensions of `input`
    (`N x C x D1 x ...`), then applies the per-channel `scale` and `bias` (`C`
    values each).

    ```mlir
    %y = tile.instance_norm %x, %s, %b epsilon = 1.000000e-05
         : (tensor<2x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x8x8xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, Tile_Tensor:$scale,
                       Tile_Tensor:$bias, F64Attr:$epsilon);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `epsilon` `=` $epsilon attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_GroupNormOp : Tile_InferringOp<"group_norm"> {
  let summary = "Group normalization";
  let description = [{
    Splits the channels of `input` (`N x C x D1 x ...`) into `num_groups`
    groups, normalizes each (sample, group) over its channels and spatial
    positions, then applies the per-channel `scale` and `bias` (`C` values
    each; the importer expands ONNX opset 18's per-group parameters).

    ```mlir
    %y = tile.group_norm %x, %s, %b num_groups = 2 epsilon = 1.000000e-05
         : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, Tile_Tensor:$scale,
                       Tile_Tensor:$bias, I64Attr:$num_groups,
                       F64Attr:$epsilon);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `num_groups` `=` $num_groups
    `epsilon` `=` $epsilon attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_LrnOp : Tile_Op<"lrn", [Pure, SameOperandsAndResultType]> {
  let summary = "Local response normalization across channels";
  let description = [{
    `x / (bias + alpha / size * Σ x²)^beta`, the sum running over the `size`
    channels centred on each one (ONNX `LRN`). `input` is `N x C x ...`.

    ```mlir
    %y = tile.lrn %x size = 5 alpha = 1.000000e-04 beta = 7.500000e-01 bias = 1.000000e+00 : tensor<1x64x8x8xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, I64Attr:$size, F64Attr:$alpha,
                       F64Attr:$beta, F64Attr:$bias);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `size` `=` $size `alpha` `=` $alpha `beta` `=` $beta
    `bias` `=` $bias attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

#endif // AICC_DIALECTS_TILE_IR_TILEREDUCTIONOPS_TD
