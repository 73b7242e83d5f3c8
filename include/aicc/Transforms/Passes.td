//===- Passes.td - Passes every target runs ------------------*- tablegen -*-===//
//
// The target-neutral middle of the pipelines: element-wise and sibling
// fusion, weight packing, the function interface, fills, and the memory
// plan. Targets compose them with their own passes.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_TRANSFORMS_PASSES_TD
#define AICC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrepareInterfacePass
    : Pass<"aicc-prepare-interface", "mlir::func::FuncOp"> {
  let summary = "Prepare a public function's tensors for the runtime's buffers";
  let description = [{
    Arguments are the caller's input tensors and the bundle's weights,
    shared by every execution context and possibly mapped read-only: every
    tensor argument of a public function gets `bufferization.writable =
    false`, so one-shot bufferization copies where it would have updated one
    in place.

    Results become the caller's output buffers: every returned tensor must
    be a value of its own, computed in the function. A result that is an
    argument, a constant, or the same value as an earlier result is copied
    into a new tensor (`linalg.copy` into a `bufferization.alloc_tensor`,
    which empty-tensor elimination leaves alone), so that each output buffer
    is written exactly once and none aliases another.

    Input invariant: tensor-level IR before bufferization.

    Output IR: the same, with the attribute on every tensor argument and
    distinct, locally computed returned tensors.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PackWeightsPass
    : Pass<"aicc-pack-weights", "mlir::func::FuncOp"> {
  let summary = "Evaluate rearrangements of weights at compile time";
  let description = [{
    A `linalg.generic` that only copies a weight argument (seen through
    `tensor.expand_shape`/`collapse_shape`) through a permutation into a
    fresh tensor, such as the transposes and panel packings that
    convert-tile-to-linalg puts in front of matrix products, is evaluated
    at compile time: its result becomes a new weight argument
    (`aicc.weight` = the old name + `.packed`, `aicc.weight_value` = the
    rearranged data), inserted after the existing weights, and weights left
    without uses are removed.

    A `linalg.transpose` of a weight is evaluated the same way.
    `min-rank` leaves weights of lower rank alone (the GPU pipeline packs
    only convolution filters: its products read transposed matrices in
    place).

    Input invariant: linalg on tensors; weights are the leading arguments
    carrying `aicc.weight` and `aicc.weight_value`.
  }];
  let options = [
    Option<"minRank", "min-rank", "unsigned", /*default=*/"0",
           "Pack only rearrangements of weights of at least this rank">,
  ];
}

def FillPerUsePass : Pass<"aicc-fill-per-use", "mlir::func::FuncOp"> {
  let summary = "Give every user of a fill a fill of its own";
  let description = [{
    A fill (an all-parallel linalg op writing scalars into a
    `tensor.empty`) that an op writes into (a reduction's accumulator,
    say) is cloned just before that op, when the fill has other users or
    stands elsewhere; readers keep the original. Bufferized, a shared fill
    is one buffer copied into the buffer of each writer: a kernel per copy
    on the GPUs, a pass over memory on the CPU. A fill of its own is
    written in place, and the GPU reductions absorb a fill just before
    them. Runs just before bufferization, after the last CSE, which would
    merge the fills again.

    Input invariant: linalg on tensors.

    Output IR: the same computation, every fill with one user.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FuseElementwisePass
    : Pass<"aicc-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "Fuse chains of element-wise linalg ops into single loops";
  let description = [{
    Merges a `linalg.generic` whose iterators are all parallel into its
    all-parallel consumers (bias, activation and residual chains become one
    pass over memory). Unlike upstream's `linalg-fuse-elementwise-ops`, it
    never fuses into contractions, reductions or convolutions, whose
    operands must keep the layout the CPU micro-kernels expect, and it does
    not move reshapes across ops. With `into-reductions` (the GPU targets)
    it also merges them into reductions that are neither contractions nor
    convolutions (the centring and squaring of a variance, the exponential
    of a softmax's sum), which then read their inputs once instead of
    having a temporary written and read back. Powers by
    small constant exponents are simplified on the way (`powf(x, 2)`
    becomes `x * x`).

    Input invariant: linalg on tensors.

    Output IR: the same computation with fewer element-wise generics.
  }];
  let options = [Option<"intoReductions", "into-reductions", "bool",
                        /*default=*/"false",
                        "Also fuse into reductions that are neither "
                        "contractions nor convolutions">,
                 Option<"rereadReductions", "reread-reductions", "bool",
                        /*default=*/"true",
                        "Recompute a cheap producer that reads a reduction's "
                        "result inside another consumer (false on GPUs: a "
                        "contraction's result read once can be its fused "
                        "epilogue's input and is never stored)">];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FuseSiblingsPass : Pass<"aicc-fuse-siblings", "mlir::func::FuncOp"> {
  let summary = "Independent element-wise ops of one iteration space as one op";
  let description = [{
    Horizontal fusion of element-wise work: `linalg.generic` ops on tensors
    whose loops are all parallel, that iterate over the same static space
    and that do not depend on each other (no result of one reaches the
    other) become one `linalg.generic` with the results of all: one kernel
    on the GPUs instead of one each, and an input that several of them read
    (with the same indexing map) read once. The merged op stands where the
    last of its members stood; an op joins a group only while every reader
    of the group's results comes after it, so no value is used before it
    is defined.

    A traffic model decides, in bytes: kept apart, each op reads its inputs,
    writes its results and costs a launch (`launch-bytes`); merged, the
    inputs they share are read once and one launch is paid. An op joins a
    group when the merge saves at least `min-saved-percent` of the apart
    cost: small ops always (the launches dominate), large ones only when
    they share enough input (two passes over a large tensor that read
    nothing in common gain nothing from one kernel and pay its registers).

    Refused: ops that read a reduction's result (a GPU contraction takes
    them as its epilogue, a row reduction as its last step) or a
    convolution's through element-wise ops (a residual sum), ops whose
    results a reduction or contraction reads (attention and normalization
    kernels match those chains) or that an op writes into (an
    accumulator), ops with no input (fills), ops that read what they write,
    bodies with regions or side effects, and groups past `max-operands`
    tensors or `max-body-ops` body ops.

    The GPU pipelines run it; the CPU's does not (its vectorizer takes
    element-wise generics of one result, and a loop nest costs no launch).

    Input invariant: linalg on tensors, after the vertical element-wise
    fusion (`aicc-fuse-elementwise`), which it does not replace.

    Output IR: the same computation with fewer all-parallel generics; each
    merged generic's location fuses its members'.
  }];
  let options = [
    Option<"launchBytes", "launch-bytes", "int64_t", "4 << 20",
           "The cost of one more kernel launch, in bytes of memory traffic">,
    Option<"minSavedPercent", "min-saved-percent", "int64_t", "10",
           "Merge only where this share of the apart cost is saved">,
    Option<"maxOperands", "max-operands", "int64_t", "12",
           "The most input and output tensors a merged op may have">,
    Option<"maxBodyOps", "max-body-ops", "int64_t", "64",
           "The most ops a merged op's body may have">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ExpandFloat8Pass : Pass<"aicc-expand-float8"> {
  let summary = "Float8 conversions as integer arithmetic";
  let description = [{
    Rewrites `arith.extf` from and `arith.truncf` to the four 8-bit float
    types (f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ), on scalars and
    vectors, into integer and f32 arithmetic on their bits, which every
    LLVM backend compiles (LLVM has no 8-bit float types).

    Widening is exact: normal values rebuild the f32 exponent and mantissa,
    subnormals are their mantissa times the smallest subnormal, and NaN (and
    E5M2's infinities) map to theirs. Narrowing rounds to nearest, ties to
    even, and saturates at the type's largest finite value, as ONNX's Cast
    and QuantizeLinear do by default; NaN stays NaN, and the FNUZ types,
    which have no negative zero, give +0 for -0.

    Input invariant: none (other ops are left alone). Output IR: no
    `arith.extf`/`arith.truncf` with an 8-bit float side; 8-bit floats only
    appear as `arith.bitcast` operands and results and in memory.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PlanMemoryPass : Pass<"aicc-plan-memory", "mlir::func::FuncOp"> {
  let summary = "Place a function's intermediate buffers in one arena";
  let description = [{
    Plans the memory of a bufferized public function once, at compile time.
    Every `memref.alloc` of a static shape in the function's entry block gets
    an offset in an arena, an extra trailing `memref<Nxi8>` argument with the
    attribute `aicc.arena`; buffers whose lifetimes do not overlap share
    bytes. Lifetimes follow every alias of a buffer (views, casts, values
    carried through loops and branches), measured in the order of the entry
    block's ops. Offsets are multiples of 64 bytes. The arena's size is
    recorded on the function as `aicc.arena_size`; the runtime allocates it
    once per execution context.

    Allocations inside loops or of dynamic size stay heap allocations, left
    for the deallocation pipeline. A buffer that escapes the function (is
    returned, or passed to a call) is left alone too.

    Input invariant: bufferized IR, results already turned into out-params;
    no `memref.dealloc` yet.

    Output IR: the function has one more argument; planned allocations are
    `memref.view`s of it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // AICC_TRANSFORMS_PASSES_TD
