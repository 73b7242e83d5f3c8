//===- Passes.td - Passes of the CPU target ------------------*- tablegen -*-===//

#ifndef AICC_TARGET_CPU_PASSES_TD
#define AICC_TARGET_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def CPUConvertTileToLinalgPass
    : Pass<"aicc-cpu-convert-tile-to-linalg", "mlir::ModuleOp"> {
  let summary = "convert-tile-to-linalg with the CPU micro-kernel's forms";
  let description = [{
    The shared tile-to-linalg conversion (convert-tile-to-linalg), with the
    CPU's forms of contractions where `panel-width` is positive: a
    convolution (one whose groups have several input and output channels)
    becomes a product whose right-hand side is its input's patches
    gathered into panels of `panel-width` output positions, and a static
    float matrix product whose width is a multiple of it (or whose rows are
    few) one against its right-hand side packed into such panels: the
    register tile of aicc-cpu-tile-and-vectorize reads a panel row as
    contiguous vectors. A depthwise convolution of at most 49 taps becomes
    one element-wise sum over the taps. With `panel-width=0`, the plain
    forms.

    Input invariant: as convert-tile-to-linalg's.

    Output IR: as convert-tile-to-linalg's.
  }];
  let options = [
    Option<"panelWidth", "panel-width", "int64_t", "0",
           "Columns of a panel (the micro-kernel's register width in f32 "
           "lanes); 0: the plain forms">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
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

def CPUVNNIDotPass : Pass<"aicc-cpu-vnni-dot", "mlir::func::FuncOp"> {
  let summary = "8-bit integer micro-kernels on VNNI dot products";
  let description = [{
    Rewrites the integer micro-kernels aicc-cpu-tile-and-vectorize builds
    for products of unsigned by signed 8-bit values accumulated in i32 (a
    reduction loop adding, per step, the outer product of an extended column
    of A and an extended row of B) so that each step takes four values of
    the reduction: `vpdpbusd` multiplies four unsigned bytes by four signed
    bytes and adds the four products to each 32-bit lane. A's four bytes of
    a row are broadcast as one 32-bit word; B's four rows are interleaved
    by one shuffle so that each lane holds its column's four bytes. A
    reduction length that is not a multiple of four keeps the original loop
    for the last steps. Products of two signed or two unsigned operands,
    and columns that are not whole vector registers, are left alone.

    `bits` is the vector width: 512 (AVX-512 VNNI) or 256 (AVX-VNNI, or
    AVX-512 VNNI with VL); the pipeline adds the pass only for a CPU that
    has the instruction. Input invariant: the output of
    aicc-cpu-tile-and-vectorize, bufferized (the intrinsic call has no
    memory semantics bufferization knows). Output IR: `llvm.call_intrinsic`
    of `llvm.x86.avx512.vpdpbusd.{256,512}` on vectors inside the loops.
  }];
  let options = [
    Option<"bits", "bits", "int64_t", "512",
           "The vector registers' width: 256 or 512">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect"];
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
