//===- Passes.td - Passes of the CPU target ------------------*- tablegen -*-===//

#ifndef AICC_TARGET_CPU_PASSES_TD
#define AICC_TARGET_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def CPUPrepareInterfacePass
    : Pass<"aicc-cpu-prepare-interface", "mlir::func::FuncOp"> {
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

def CPUPackWeightsPass
    : Pass<"aicc-cpu-pack-weights", "mlir::func::FuncOp"> {
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

def CPUFillPerUsePass : Pass<"aicc-fill-per-use", "mlir::func::FuncOp"> {
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

def CPUFuseElementwisePass
    : Pass<"aicc-cpu-fuse-elementwise", "mlir::func::FuncOp"> {
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

def CPUFuseSiblingsPass : Pass<"aicc-fuse-siblings", "mlir::func::FuncOp"> {
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
    fusion (`aicc-cpu-fuse-elementwise`), which it does not replace.

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

def CPUTileAndVectorizePass
    : Pass<"aicc-cpu-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tile contractions for threads and registers, then vectorize";
  let description = [{
    The CPU code generation strategy for matrix work. Every static
    contraction (`linalg.generic` that multiplies and accumulates, batched
    or not) is tiled three times with upstream tiling:

    1. output tiles of `tile-m` x `tile-n`, as an `scf.forall` that the
       runtime's threads share (`aicc-cpu-outline-parallel`);
    2. register tiles of `register-m` rows x `register-n` columns, as
       `scf.for` loops, with the `linalg.fill` that initializes the
       accumulator fused into each tile;
    3. single steps of the reduction dimension.

    The innermost tile is vectorized (`vector.contract` of an
    `register-m` x 1 column by a 1 x `register-n` row, masked where the
    tile is partial), and loop-invariant reads and writes of the
    accumulator are hoisted out of the reduction loop, so that the
    accumulators live in registers: an outer-product micro-kernel.
    Vectors run along the output's innermost dimension, which must be a
    dimension of the right-hand operand.

    Input invariant: linalg on tensors; contractions whose loop bounds are
    static (others are left alone).

    Output IR: `scf.forall`/`scf.for` nests of `vector` ops on tensor
    slices.
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", "64",
           "Rows of the output tile one thread computes">,
    Option<"tileN", "tile-n", "int64_t", "256",
           "Columns of the output tile one thread computes">,
    Option<"tileK", "tile-k", "int64_t", "256",
           "Reduction block: the right-hand rows a column of register tiles "
           "shares from the L1 cache">,
    Option<"registerM", "register-m", "int64_t", "6",
           "Rows of the register tile">,
    Option<"registerN", "register-n", "int64_t", "16",
           "Columns of the register tile (a multiple of the vector width)">,
    Option<"lanes", "lanes", "int64_t", "8",
           "f32 lanes of a vector register: edge tiles split into whole "
           "registers and a narrower rest">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def CPULowerVectorsPass : Pass<"aicc-cpu-lower-vectors", "mlir::func::FuncOp"> {
  let summary = "Lower vector ops to the 1-D form the LLVM lowering takes";
  let description = [{
    Hoists loop-invariant vector transfers of buffers out of loops (the
    accumulators of micro-kernels), then lowers contractions to outer
    products and FMAs, masks to masked transfers, transfer permutations,
    broadcasts, transposes, multi-reductions and shape casts to
    one-dimensional vector ops.

    Input invariant: bufferized IR with `vector` ops.

    Output IR: 1-D vector ops, transfers and `vector.fma`, ready for
    `convert-vector-to-scf` and `convert-vector-to-llvm`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def CPUPlanMemoryPass : Pass<"aicc-cpu-plan-memory", "mlir::func::FuncOp"> {
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

def CPUOutlineParallelPass : Pass<"aicc-cpu-outline-parallel", "mlir::ModuleOp"> {
  let summary = "Run scf.forall loops on the runtime's thread pool";
  let description = [{
    Outlines the body of every outermost `scf.forall` of a public function
    into a private function `@<name>_parallel_<N>(%ctx: !llvm.ptr, %begin:
    i64, %end: i64)` that runs the iterations `[begin, end)` of the
    linearized iteration space. The values the body captures travel in a
    stack struct whose address is `%ctx`; memrefs travel as their LLVM
    descriptors. The loop itself becomes one call of the runtime's
    `parallel_for(exec, task, ctx, count)`, read from the first field of the
    execution record the runtime passes in the new trailing argument
    `%exec: !llvm.ptr` (attribute `aicc.exec`), which every public function
    gets whether or not it has a parallel loop. Nested `scf.forall` loops run
    sequentially inside their task.

    Input invariant: bufferized IR; `scf.forall` loops carry no shared
    outputs (their `in_parallel` terminator is empty).

    Output IR: no `scf.forall`; casts between memrefs and LLVM descriptors
    that the LLVM conversions fold away.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def CPULowerCopiesPass : Pass<"aicc-cpu-lower-copies"> {
  let summary = "Turn strided memref copies into loops";
  let description = [{
    Rewrites every `memref.copy` whose source or target is not contiguous
    into `linalg.copy`, which becomes loops the LLVM vectorizer handles.
    Contiguous copies stay `memref.copy` and become `memcpy`. The LLVM
    lowering would otherwise turn a strided copy into a call of a support
    library that compiled code must not depend on.

    Input invariant: bufferized IR.

    Output IR: only contiguous `memref.copy` ops.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CPULegalizeMathPass : Pass<"aicc-cpu-legalize-math"> {
  let summary = "Make math ops lowerable to vectorizable host code";
  let description = [{
    Computes math functions on 16-bit and 8-bit floats in f32, then replaces
    the f32 transcendental functions that have polynomial approximations
    (exp, expm1, log, log1p, log2, tanh, erf, erfc, sin, cos, atan, atan2,
    asin, acos, cbrt, rsqrt) by those approximations, which vectorize and
    need no library. Hyperbolic functions and the remaining ones are
    expanded into these where upstream knows how; what is left is lowered
    to LLVM intrinsics or libm calls later.

    Input invariant: any IR with `math` ops on scalars or vectors.

    Output IR: `math` ops only on f32/f64, and only those without an
    approximation.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def CPUBarePointerArgumentsPass
    : Pass<"aicc-cpu-bare-pointer-arguments", "mlir::func::FuncOp"> {
  let summary = "Make every argument lowerable as a bare pointer";
  let description = [{
    The entry point passes each buffer as one pointer, which the LLVM
    lowering's bare-pointer convention supports for static, identity-layout
    memrefs, except those with a zero-sized dimension other than the last.
    This pass gives such arguments of public functions the type
    `memref<0xT>` and recovers the original type inside the function with a
    `memref.reinterpret_cast`; nothing is ever read through them.

    Input invariant: bufferized IR, static argument shapes.

    Output IR: the same; zero-element memref arguments are one-dimensional.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def CPUEntryPointPass : Pass<"aicc-cpu-entry-point", "mlir::ModuleOp"> {
  let summary = "Add the exported entry point the runtime calls";
  let description = [{
    Adds `llvm.func @aicc_entry(%buffers: !llvm.ptr, %exec: !llvm.ptr)`,
    the only symbol a CPU code object exports. `%buffers` points to an array
    of buffer addresses, one per memref argument of the compiled function
    in order (weights, inputs, outputs, arena); `%exec` is the runtime's
    execution record, passed through. Every other function and global gets
    internal linkage, so the optimizer may inline and drop them.

    Input invariant: the LLVM dialect, with the compiled function lowered
    with the bare-pointer calling convention: all its arguments are
    pointers, the last one the execution record.

    Output IR: one exported function, `aicc_entry`.
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "The compiled function the entry point calls">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // AICC_TARGET_CPU_PASSES_TD
