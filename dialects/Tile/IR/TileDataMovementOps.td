//===- TileDataMovementOps.td - Gather, slice, reshape, ... -*- tablegen -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILEDATAMOVEMENTOPS_TD
#define AICC_DIALECTS_TILE_IR_TILEDATAMOVEMENTOPS_TD

//===----------------------------------------------------------------------===//
// Gather and scatter
//===----------------------------------------------------------------------===//

def Tile_GatherOp : Tile_InferringOp<"gather"> {
  let summary = "Take slices of one axis at given positions";
  let description = [{
    Replaces dimension `axis` of `data` by the shape of `indices`:
    `result[i..., j..., k...] = data[i..., indices[j...], k...]` (ONNX
    `Gather`). Negative indices count from the end; an index outside
    `[-size, size)` is undefined behaviour that targets clamp.

    ```mlir
    %e = tile.gather %table, %ids axis = 0 : (tensor<1000x64xf32>, tensor<2x8xi64>) -> tensor<2x8x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$data, Tile_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `axis` `=` $axis attr-dict `:`
    functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Tile_GatherElementsOp : Tile_InferringOp<"gather_elements"> {
  let summary = "Take elements along one axis at per-element positions";
  let description = [{
    `result[i][j][k] = data[indices[i][j][k]][j][k]` for `axis = 0`, and
    likewise along other axes (ONNX `GatherElements`). `indices` has the rank
    of `data` and the result its shape.

    ```mlir
    %r = tile.gather_elements %x, %i axis = 1 : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$data, Tile_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `axis` `=` $axis attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tile_GatherNdOp : Tile_InferringOp<"gather_nd"> {
  let summary = "Take slices at index tuples";
  let description = [{
    Each row of the last dimension of `indices` is a tuple of `q` positions
    into `data` after its first `batch_dims` dimensions; the slice found
    there is copied out (ONNX `GatherND`). The result shape is
    `indices.shape[:-1] ++ data.shape[batch_dims + q:]`.

    ```mlir
    %r = tile.gather_nd %x, %i batch_dims = 0 : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$data, Tile_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `batch_dims` `=` $batch_dims attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tile_ScatterElementsOp : Tile_InferringOp<"scatter_elements"> {
  let summary = "Write updates at per-element positions along one axis";
  let description = [{
    A copy of `data` where, for `axis = 0`,
    `result[indices[i][j]][j] = updates[i][j]`, combining with the existing
    value by `reduction` (ONNX `ScatterElements`). `indices` and `updates`
    have the same shape and the rank of `data`. With `none`, duplicate
    positions leave one of the updates, unspecified which.

    ```mlir
    %r = tile.scatter_elements %x, %i, %u axis = 0 reduction = add : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$data, Tile_IndexTensor:$indices,
                       Tile_Tensor:$updates, I64Attr:$axis,
                       Tile_ScatterReductionAttr:$reduction);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates `axis` `=` $axis `reduction` `=` $reduction
    attr-dict `:` functional-type(operands, results)
  }];
}

def Tile_ScatterNdOp : Tile_InferringOp<"scatter_nd"> {
  let summary = "Write slices at index tuples";
  let description = [{
    A copy of `data` where the slice at each index tuple (last dimension of
    `indices`, `q` entries) is replaced by, or combined by `reduction` with,
    the matching slice of `updates` (ONNX `ScatterND`). `updates` has shape
    `indices.shape[:-1] ++ data.shape[q:]`.

    ```mlir
    %r = tile.scatter_nd %x, %i, %u reduction = none : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$data, Tile_IndexTensor:$indices,
                       Tile_Tensor:$updates,
                       Tile_ScatterReductionAttr:$reduction);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices `,` $updates `reduction` `=` $reduction attr-dict `:`
    functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Slicing and joining
//===----------------------------------------------------------------------===//

def Tile_SliceOp : Tile_InferringOp<"slice"> {
  let summary = "A strided window of a tensor";
  let description = [{
    For every dimension `d`, keeps `sizes[d]` elements at positions
    `starts[d] + i * steps[d]`; steps may be negative (walking backwards) but
    not zero, and every position read must be inside the dimension. A size of
    `-1` keeps a whole dimension, static or dynamic, and needs a start of 0
    and a step of 1. The importer clamps ONNX's out-of-range starts and ends.

    ```mlir
    %s = tile.slice %x starts = [0, 4] sizes = [2, -1] steps = [1, 1] : tensor<4x?xf32> -> tensor<2x?xf32>
    %r = tile.slice %x starts = [3] sizes = [4] steps = [-1] : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$sizes, DenseI64ArrayAttr:$steps);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `starts` `=` $starts `sizes` `=` $sizes `steps` `=` $steps
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def Tile_ConcatOp : Tile_InferringOp<"concat"> {
  let summary = "Join tensors along one axis";
  let description = [{
    All operands have one rank and element type and agree on every dimension
    but `axis`, along which they are laid end to end.

    ```mlir
    %c = tile.concat %a, %b axis = 1 : (tensor<2x3xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` functional-type($inputs, results)
  }];
  let hasFolder = 1;
}

def Tile_SplitOp : Tile_InferringOp<"split"> {
  let summary = "Cut a tensor into consecutive pieces along one axis";
  let description = [{
    Result `i` holds the next `sizes[i]` positions along `axis`; the sizes
    add up to the dimension (when it is static).

    ```mlir
    %a, %b = tile.split %x axis = 1 sizes = [2, 6] : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x6xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, I64Attr:$axis,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let assemblyFormat = [{
    $input `axis` `=` $axis `sizes` `=` $sizes attr-dict `:` type($input)
    `->` type($results)
  }];
}

def Tile_PadOp : Tile_InferringOp<"pad"> {
  let summary = "Grow a tensor at both ends of each dimension";
  let description = [{
    `padding` holds the leading pads of every dimension, then the trailing
    pads (ONNX order); all are non-negative (the importer turns ONNX's
    negative pads into a `tile.slice`). `constant` fills with `value` (zero
    when absent); `reflect` mirrors without repeating the edge, `edge`
    repeats it, `wrap` continues from the opposite end.

    ```mlir
    %p = tile.pad constant %x padding = [0, 1, 0, 1] value = -1.000000e+00 : f32 : tensor<2x3xf32> -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Tile_PadModeAttr:$mode, Tile_Tensor:$input,
                       DenseI64ArrayAttr:$padding,
                       OptionalAttr<TypedAttrInterface>:$value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $mode $input `padding` `=` $padding (`value` `=` $value^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tile_TransposeOp : Tile_InferringOp<"transpose"> {
  let summary = "Permute the dimensions of a tensor";
  let description = [{
    Result dimension `i` is input dimension `permutation[i]`. An identity
    permutation folds away and a transpose of a transpose folds into one.

    ```mlir
    %t = tile.transpose %x permutation = [0, 2, 1, 3] : tensor<1x128x12x64xf32> -> tensor<1x12x128x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `permutation` `=` $permutation attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "View a tensor's elements, in row-major order, with a new shape";
  let description = [{
    The result type gives the new shape; the element type and the number of
    elements do not change. At most one result dimension may be dynamic,
    and then the static ones must divide the input's element count where
    that is known. A reshape to the input type folds away, and a reshape of a
    reshape reads the original input.

    ```mlir
    %r = tile.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ExpandOp : Tile_Op<"expand", [Pure]> {
  let summary = "Broadcast a tensor to a larger shape";
  let description = [{
    Numpy broadcasting of `input` to the result shape (ONNX `Expand` once
    its shape operand is resolved): shapes align at the trailing dimension,
    each input dimension is 1 or equal to the result's, and leading result
    dimensions may be added.

    ```mlir
    %e = tile.expand %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_TileOp : Tile_InferringOp<"tile"> {
  let summary = "Repeat a tensor along each dimension";
  let description = [{
    Dimension `d` of the result is `repeats[d]` copies of the input's
    dimension `d`, laid end to end (ONNX `Tile`).

    ```mlir
    %t = tile.tile %x repeats = [2, 1] : tensor<3x4xf32> -> tensor<6x4xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `repeats` `=` $repeats attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasFolder = 1;
}

def Tile_ResizeOp : Tile_Op<"resize", [Pure]> {
  let summary = "Resample a tensor by interpolation";
  let description = [{
    Resamples every dimension of `input` to the result's size (ONNX `Resize`
    and `Upsample`). `scales` has one factor per dimension and drives the
    coordinate mapping chosen by `coordinate_transform`; the importer derives
    it from ONNX's `sizes` when a model gives sizes. `nearest_mode` rounds
    nearest-neighbour coordinates, `cubic_coeff_a` and `exclude_outside`
    shape the cubic kernel, `antialias` widens the linear and cubic kernels
    when downsampling, and `roi` (leading starts, then ends, normalized) with
    `extrapolation_value` serve `tf_crop_and_resize`.

    When a model computes its scales at run time, `dynamic_scales` (a 1-D
    float tensor with one entry per dimension) carries them and overrides
    `scales` in the coordinate mapping; the result's shape is then the one the
    model declares.

    ```mlir
    %r = tile.resize linear %x scales = [1.0, 1.0, 2.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
    %d = tile.resize nearest %x dynamic_scales(%s : tensor<4xf32>) scales = [1.0, 1.0, 2.0, 2.0] : tensor<1x3x8x8xf32> -> tensor<1x3x16x16xf32>
    ```
  }];
  let arguments = (ins
      Tile_ResizeModeAttr:$mode, Tile_Tensor:$input,
      Optional<Tile_Tensor>:$dynamic_scales,
      DenseF64ArrayAttr:$scales,
      DefaultValuedAttr<Tile_CoordinateTransformAttr,
          "::aicc::tile::CoordinateTransform::half_pixel">:$coordinate_transform,
      DefaultValuedAttr<Tile_NearestModeAttr,
          "::aicc::tile::NearestMode::round_prefer_floor">:$nearest_mode,
      DefaultValuedAttr<F64Attr, "-0.75">:$cubic_coeff_a,
      UnitAttr:$exclude_outside, UnitAttr:$antialias,
      OptionalAttr<DenseF64ArrayAttr>:$roi,
      DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $mode $input (`dynamic_scales` `(` $dynamic_scales^ `:`
    type($dynamic_scales) `)`)? `scales` `=` $scales
    (`coordinate_transform` `=` $coordinate_transform^)?
    (`nearest_mode` `=` $nearest_mode^)? (`roi` `=` $roi^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // AICC_DIALECTS_TILE_IR_TILEDATAMOVEMENTOPS_TD
