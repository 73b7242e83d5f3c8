//===- Passes.td - Transforms of the tile dialect ------------*- tablegen -*-===//

#ifndef AICC_DIALECTS_TILE_TRANSFORMS_PASSES_TD
#define AICC_DIALECTS_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileInlineFusionsPass : Pass<"tile-inline-fusions"> {
  let summary = "Dissolve fusion regions into the blocks that hold them";
  let description = [{
    Replaces every `tile.fusion` by the ops of its body, wiring the body's
    arguments to the region's inputs and the region's results to the values
    its `tile.yield` names.

    With `mark-groups`, each op of a body (its own nested ops aside) is
    tagged `tile.group = N`, N numbering the regions of the function in
    order: the targets lower `tile-fuse`'s regions' bodies, then dissolve
    them this way, and their kernel passes put ops of different groups in
    different kernels (horizontal fusion, which merges whole independent
    kernels, aside). Without it, the regions simply dissolve (fused IR
    from elsewhere, the CPU pipeline's preparation).

    Input invariant: any IR; fusion regions may be nested (inner regions
    are dissolved first; with `mark-groups`, an op keeps its innermost
    region's group).

    Output IR: no `tile.fusion` or `tile.yield` remains under the anchor op;
    every other op is unchanged, in its original order.
  }];
  let options = [
    Option<"markGroups", "mark-groups", "bool", "false",
           "Tag each op with the number of the region it came from">,
  ];
  let dependentDialects = ["::aicc::tile::TileDialect"];
}

def TileFusePass : Pass<"tile-fuse"> {
  let summary = "Group producers and consumers into fusion regions";
  let description = [{
    Partitions each block's compute ops (`matmul`, `conv`, element-wise
    `unary`, `binary`, `compare`, `select`, `cast`, `classify`, and
    `reduce`) into groups that a target builds as one kernel each, and
    wraps every group, a lone op too, in a `tile.fusion` whose `kind`
    attribute names the kernel:

    - `attention`: QK^T, element-wise ops on the scores (a scale, a
      mask: each with one operand of the scores' shape from the chain), a
      softmax along the keys (max, subtract, exp, sum, divide) and the
      product with V, every intermediate read only inside; with
      `attention`, and where a row's keys (at most `max-attention-keys`)
      and the head dimension (at most `max-attention-head-dim`, a multiple
      of 16) fit one kernel's registers;
    - `contraction`: a product or convolution and its epilogue, the
      element-wise ops over the contraction's result shape after it (a
      bias, an activation, a residual sum, a cast), such that the sums
      are read only inside and one value leaves the group;
    - `reduction`: a reduction with the element-wise ops of its input's
      shape before it that only the group reads (a cast to f32 that the
      mean and the centring of a normalization both read); along rows (the trailing axes, kept) also
      the later reductions of the same rows (at most
      `max-row-reductions` in all) and the element-wise ops over the
      rows or the whole input, as long as one value leaves (a
      normalization, a softmax);
    - `elementwise`: chains and trees of element-wise ops, several
      results allowed.

    Kinds are formed in that order, in program order within a kind. An op
    joins a group only if each operand it reads from what the group's ops
    reach is a value of the group (so a region never waits for itself),
    within the kernel limits (`max-ops`, `max-inputs`, and for epilogues
    `max-epilogue-ops` and `max-epilogue-inputs`), and when a traffic model
    says it pays: in an element-wise kernel, an op that reads a smaller
    group value broadcast makes the kernel recompute that value for each
    element that reuses it, which costs the value's inputs read again from
    memory (those larger than `cache-bytes`) against its result written
    and read back plus a launch (`launch-bytes`) saved; a reduction group
    holds its row values in registers and pays nothing. A group is the
    longest prefix, in program order, of what may join that its kind
    accepts.

    Reshapes join contraction and element-wise groups as views (the ops
    after them read the same elements); the other layout and
    data-movement ops (transpose, slice, gather, pad, ...) stay outside the
    regions. Constants a group reads are copied into
    its region. Ops between a group's first and last op that read its
    values move after the region.

    Input invariant: tile IR.

    Output IR: every compute op of static shape in a `tile.fusion` with a
    `kind`; the function computes the same values.
  }];
  let options = [
    Option<"launchBytes", "launch-bytes", "int64_t", "4 << 20",
           "The cost of one more kernel launch, in bytes of memory traffic">,
    Option<"cacheBytes", "cache-bytes", "int64_t", "16 << 20",
           "Values up to this size stay in the cache when read again">,
    Option<"maxOps", "max-ops", "int64_t", "32",
           "Most ops in an element-wise or reduction group">,
    Option<"maxInputs", "max-inputs", "int64_t", "12",
           "Most values from outside a group that its ops read">,
    Option<"maxEpilogueOps", "max-epilogue-ops", "int64_t", "16",
           "Most element-wise ops in a contraction's epilogue">,
    Option<"maxEpilogueInputs", "max-epilogue-inputs", "int64_t", "4",
           "Most values an epilogue reads besides the contraction's "
           "operands">,
    Option<"maxRowReductions", "max-row-reductions", "int64_t", "3",
           "Most reductions in one group along rows">,
    Option<"attention", "attention", "bool", "false",
           "Form attention groups (targets with an attention kernel)">,
    Option<"maxAttentionKeys", "max-attention-keys", "int64_t", "256",
           "Most keys a row of an attention group may have">,
    Option<"maxAttentionHeadDim", "max-attention-head-dim", "int64_t", "128",
           "Most head dimensions of an attention group">,
  ];
  let dependentDialects = ["::aicc::tile::TileDialect"];
}

def TileDecomposePass : Pass<"tile-decompose"> {
  let summary = "Rewrite composite tile ops into primitive ones";
  let description = [{
    Expresses the ops that are compositions of others through those others:
    softmax and log-softmax (max, subtract, exp, sum), the normalizations
    (layer, batch, instance, group: mean and variance reductions and
    element-wise arithmetic, with statistics in f32 for 16-bit inputs), LRN
    (a sum pool over channels), and global pooling (a reduction over the
    spatial dimensions).

    Targets that lower op by op run it before their conversion; targets with
    dedicated kernels for these ops (fused softmax, single-pass layer norm)
    do not.

    Input invariant: valid tile IR.

    Output IR: no `tile.softmax`, `tile.log_softmax`, `tile.layer_norm`,
    `tile.batch_norm`, `tile.instance_norm`, `tile.group_norm`, `tile.lrn` or
    `tile.global_pool` remains; the values they produced are computed by
    `tile.reduce`, `tile.unary`, `tile.binary`, `tile.reshape`, `tile.cast`
    and `tile.pool` ops.
  }];
  let dependentDialects = ["::aicc::tile::TileDialect"];
}

def TileFoldQDQPass : Pass<"tile-fold-qdq"> {
  let summary = "Fold dequantize, op, quantize into integer ops";
  let description = [{
    Quantized models spell an integer op as a float op between
    `tile.dequantize` and `tile.quantize` (ONNX QDQ). This pass computes the
    op on the stored integers instead and applies the scales once:

    - `tile.matmul` of an 8-bit activation quantized per tensor and 8-bit
      weights quantized per tensor or per output column multiplies the
      stored values into `i32`; zero points become correction terms (the
      weights' column sums, a constant, times the activation's zero point;
      the activation's row sums times the weights' zero points), then one
      multiplication by `scale_a * scale_w` per column gives the float
      result.
    - `tile.conv` of the same operands, with symmetric weights (zero points
      of zero), pads the stored input with its zero point, convolves in
      `i32`, subtracts the zero point times each filter's sum, scales per
      output channel and adds the bias in float.
    - With `float8`, `tile.matmul` of two operands of one fp8 type, the
      activation per tensor and the weights per tensor or per output column
      (zero points 0), multiplies the stored fp8 values, summed in `f32`,
      and scales the result once (for targets with fp8 matrix units).

    The float ops after the result (bias, activation, the next
    `tile.quantize`) stay, for fusion to make epilogues of. An op whose
    operands are quantized in a way it has no integer form for (blocks,
    16-bit or 4-bit values, asymmetric convolution weights) keeps its float
    form: `tile-lower-quant` dequantizes its operands.

    Input invariant: valid tile IR; `tile.conv` not yet channels-last.

    Output IR: the folded ops take the stored integers; everything else is
    unchanged.
  }];
  let options = [
    Option<"float8", "float8", "bool", /*default=*/"false",
           "Also fold products of fp8 operands (for targets that multiply "
           "fp8)">,
  ];
  let dependentDialects = ["::aicc::tile::TileDialect"];
}

def TileLowerQuantPass : Pass<"tile-lower-quant"> {
  let summary = "Turn tile.quantize and tile.dequantize into arithmetic";
  let description = [{
    Writes each remaining `tile.quantize` as a division by the scale, a
    rounding (half to even), an addition of the zero point and a saturation
    into the stored type, and each `tile.dequantize` as a subtraction of the
    zero point and a multiplication by the scale, with the scheme's scales
    and zero points as constants broadcast per tensor, axis or block.
    Dequantized constants (a quantized model's weights) fold to float
    constants. An i32 matrix product or convolution (without bias) of two
    8-bit integers widened to i32 (MatMulInteger, ConvInteger without zero
    points) is computed on the 8-bit operands, as tile-fold-qdq writes
    integer products, so that the targets' 8-bit kernels take it.

    With `int4-product-rows` positive, a product of fewer rows than that
    by a dequantized weight whose values span at most 16 integers, in
    blocks along k, becomes a `tile.matmul_int4` that keeps the weight at
    half a byte a value (weight-only quantization: such a product's time
    is the weight's reading).

    Input invariant: valid tile IR.

    Output IR: no `tile.quantize` or `tile.dequantize`.
  }];
  let options = [
    Option<"int4ProductRows", "int4-product-rows", "int64_t", "0",
           "Products of fewer rows than this by dequantized 4-bit weights "
           "become tile.matmul_int4 (0: none)">,
  ];
  let dependentDialects = ["::aicc::tile::TileDialect"];
}

def TileOutlineWeightsPass : Pass<"tile-outline-weights", "mlir::func::FuncOp"> {
  let summary = "Turn tile.weight ops into function arguments";
  let description = [{
    Moves every `tile.weight` of a function into a new leading argument, in
    the order the weights appear, with the argument attributes
    `aicc.weight` (the weight's name) and `aicc.weight_value` (its data).
    Compiled code then reads weights through pointers the runtime passes in,
    from the bundle's constant section, instead of embedding them in the
    code object.

    Input invariant: `tile.weight` ops in the entry block of their function.

    Output IR: no `tile.weight`; each weight is a function argument carrying
    its name and value as argument attributes.
  }];
  let dependentDialects = ["::aicc::tile::TileDialect"];
}

def TileFoldLayoutChainsPass : Pass<"tile-fold-layout-chains"> {
  let summary = "Picks and splits moved before transposes and reshapes";
  let description = [{
    Reorders chains of `reshape`, `transpose` and `gather` of one constant
    position so that each chain is a slice, a reshape and one transpose:
    such a gather becomes a `slice` of extent 1 and a reshape; a slice of
    a transpose slices its input first; a slice of a reshape whose cut
    dimensions are each the outer part of a dimension of the input that
    the reshape split (or all of it) slices the input there; and a
    `reshape` that only splits dimensions of a transposed tensor splits
    them before the transpose, and one that only drops or inserts
    dimensions of extent 1 does so before it (the inserted ones
    outermost: at batch 1 the batch dimension comes and goes that way
    between transposes). A transpose that
    keeps the last dimension moves after a product with a matrix and after
    a bias (an operand broadcast along all but the last dimension), whose
    rows do not depend on where they lie; a reshape that regroups a
    product's rows (merging its K apart, or only dropping or inserting
    units) moves after the product and its bias. A transpose that moves only
    dimensions of extent 1 becomes a reshape (canonicalization).
    torchvision's attention (one packed projection, picked apart per q, k
    and v after a transpose) then has BERT's form, which kernels read in
    place.
  }];
}

def TileFuseHorizontalPass : Pass<"tile-fuse-horizontal", "mlir::func::FuncOp"> {
  let summary = "Products of one input with constant matrices as one product";
  let description = [{
    Horizontal fusion: products of one input with constant matrices of one
    depth (`tile.matmul %x, %w_i`, `%w_i` a `tile.weight` or
    `tile.constant`, unbatched, all stored K x N or all N x K with
    `transpose_rhs`, as ONNX Gemm's transB gives them), each either with a bias
    (the product's only use is a `tile.binary add` of a constant vector
    along its columns) or all without, become one product with the
    matrices' columns laid end to end (a new weight, named after the
    ones it joins), one bias added, and a `tile.slice` of the result per
    original product. BERT's separate q, k and v projections then have
    GPT-2's packed form.

    A traffic model decides per group: kept apart, every product reads the
    input and costs a launch (`launch-bytes`, the bytes the device moves in
    the time of one more kernel); packed, the input is read once, and a
    result that the function returns is copied out of the packed result
    (written and read again). Products whose column count is not a multiple
    of `column-multiple` are left alone (their slices would start off the
    16-byte boundaries the kernels read vectors at).

    Output IR: the same function; the joined matrices and biases are
    dropped when nothing else reads them.
  }];
  let options = [
    Option<"launchBytes", "launch-bytes", "int64_t", "4 << 20",
           "The cost of one more kernel launch, in bytes of memory traffic">,
    Option<"columnMultiple", "column-multiple", "int64_t", "8",
           "Products whose column count is not a multiple of this are not "
           "packed">,
  ];
  let dependentDialects = ["::aicc::tile::TileDialect"];
}

def TileChannelsLastPass : Pass<"tile-channels-last"> {
  let summary = "Convolutions on channels-last images, transposes cancelled";
  let description = [{
    Gives every convolution whose channels per group are a multiple of 8
    (or that is depthwise over a multiple of 8 groups) the `channels_last`
    form: `T_first(conv_last(T_last(x), T_last(w)))`, where `T_last`
    permutes `[0, 2, ..., r-1, 1]` and `T_first` back. Then moves each
    `T_first` down through element-wise ops (`unary`, `cast`, `binary`,
    `select`: the other operands are transposed too when they are
    transposed back already or broadcast, and an operand of the result's
    size that is neither makes the op wait) and reductions, composing it
    with the next convolution's `T_last` into nothing. A transpose that
    only moves dimensions of extent 1 becomes a reshape.

    For targets whose convolution kernels read 16 bytes along the innermost
    dimension (the CUDA tensor-core kernels): the image and filter of a
    channels-last convolution are both contiguous along its reduction.

    Input invariant: tile ops after `tile-decompose` (no `tile.global_pool`).

    Output IR: the same function; transposes remain where a value is read
    channels first (a model's inputs and results, pooling windows, products
    and reshapes).
  }];
  let dependentDialects = ["::aicc::tile::TileDialect"];
}

#endif // AICC_DIALECTS_TILE_TRANSFORMS_PASSES_TD
