//===- Passes.td - Passes of the GPU targets -----------------*- tablegen -*-===//

#ifndef AICC_TARGET_GPU_PASSES_TD
#define AICC_TARGET_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def GPUConvertTileToLinalgPass
    : Pass<"aicc-gpu-convert-tile-to-linalg", "mlir::ModuleOp"> {
  let summary = "convert-tile-to-linalg with the GPU kernels' convolutions";
  let description = [{
    The shared tile-to-linalg conversion (convert-tile-to-linalg), with
    every convolution lowered as one linalg.generic over output positions
    and filter taps, without a patch matrix: the GPU targets run it as one
    thread per output, or as an implicit GEMM on the tensor cores.

    Input invariant: as convert-tile-to-linalg's.

    Output IR: as convert-tile-to-linalg's.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def GPUPrepareLoopsPass
    : Pass<"aicc-gpu-prepare-loops", "mlir::func::FuncOp"> {
  let summary = "Put linalg ops in the form the GPU loop mapping expects";
  let description = [{
    Named linalg ops become `linalg.generic`, whose loops are then
    interchanged so that every parallel loop comes before every reduction
    loop: once lowered to `scf.parallel`, the parallel loops are the ones
    that become threads, and each thread runs its reductions sequentially.
    `memref.copy` becomes `linalg.copy`: the device has no host memcpy.

    Input invariant: linalg on buffers (after bufferization and memory
    planning).

    Output IR: the same computation with parallel-first `linalg.generic`
    ops only.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GPUWarpReductionsPass
    : Pass<"aicc-gpu-warp-reductions", "mlir::func::FuncOp"> {
  let summary = "Run each output of a long reduction on one warp";
  let description = [{
    A parallel-first `linalg.generic` with reduction loops whose outputs
    are each folded by one associative, commutative arith op (sum, product,
    max, min, and, or, xor) of a term computed from the inputs becomes a
    `gpu.launch` of one warp per output element: the warp's 32 lanes take
    every 32nd index of the flattened reduction loops, fold their terms
    from the op's identity, combine across the warp with five butterfly
    `gpu.shuffle xor` steps (half values travel as f32), and lane 0 folds
    the result into the element's old value and stores it. Where the op
    just before fills the same output with a scalar, that scalar replaces
    the old value and the fill goes; then, when the op after is
    element-wise and the only reader of the output (a mean's division by
    the count, say), lane 0 computes it on the result and writes its
    output instead, and that op goes too.

    It builds the reductions aicc-gpu-choose-tiles gave a row kernel's
    tiling (`aicc_gpu.tiles` with a `#aicc_gpu.rows`), each block of that
    tiling's warps; that pass decides which reductions are worth a warp per
    output. A reduction this pass cannot build that way (an output that is
    not f32, f16, bf16 or i32 or not indexed by all the parallel loops) is
    left as it is. Anything else is left for `aicc-gpu-map-to-launches`,
    one thread per output.

    Input invariant: bufferized, generalized, parallel-first linalg (after
    aicc-gpu-prepare-loops), static shapes.

    Output IR: those reductions as `gpu.launch` ops; everything else
    untouched.
  }];
  let options = [
    Option<"rowGroups", "row-groups", "bool", /*default=*/"true",
           "Reductions over the same rows, the row-wise ops between them "
           "and the element-wise op after them (a softmax, a layer norm) "
           "as one kernel">,
    Option<"vectorBytes", "vector-bytes", "unsigned", /*default=*/"16",
           "Widest access of a lane walking contiguous rows (0 or up to "
           "the element size: one element per lane and step)">,
  ];
  let dependentDialects = ["::aicc::gpu::AiccGPUDialect",
    "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUMapToLaunchesPass
    : Pass<"aicc-gpu-map-to-launches", "mlir::func::FuncOp"> {
  let summary = "Turn the top-level loops of a function into gpu.launch ops";
  let description = [{
    Every top-level `scf.parallel` with constant bounds becomes a
    `gpu.launch` built as its element-wise tiling says (`aicc_gpu.tiles`
    with an `#aicc_gpu.elementwise`, which aicc-gpu-choose-tiles with
    `loops` records on every such loop; a loop without one is an error):
    the iterations numbered in row-major order, `threads` threads a
    block, each thread recovering its loop indices from its number
    (threads past the end do nothing). With `lanes` above one, a thread
    takes that many consecutive iterations of the innermost loop: each
    access along contiguous rows becomes one aligned `vector.load` or
    `vector.store`, the rest of the body is repeated per element, and what
    does not depend on the innermost loop is computed once; a tiling whose
    lanes the body cannot take that way is an error. Any other top-level
    op that reads or writes
    memory (a loop that is not parallel, a scan, a copy into a scalar)
    becomes a
    single-thread launch that runs it as it is. Constants and views stay
    where they are, for kernel outlining to sink. A top-level allocation
    is an error: the device arena is planned at compile time.

    Input invariant: a bufferized function whose memory is planned, its
    linalg ops lowered to `scf.parallel`/`scf.for`.

    Output IR: the function's work is all inside `gpu.launch` ops.
  }];
  let dependentDialects = ["::aicc::gpu::AiccGPUDialect",
    "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUOutlineKernelsPass
    : Pass<"aicc-gpu-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Outline every gpu.launch into one gpu.module";
  let description = [{
    Constants and views of the function's arguments are sunk into each
    `gpu.launch`, whose body then becomes a kernel `gpu.func` in the
    module's single `gpu.module @aicc_kernels`, named `k<N>_<node>` after
    its position and the first ONNX node it computes. The launch becomes a
    `gpu.launch_func` (with `aicc.source`, the nodes joined by commas) whose
    operands are the function's buffer arguments
    only, so that the runtime can pass each as one device address. A
    kernel that computes what an earlier one does (the same type,
    attributes and body: a transformer's layers) is not kept: its launch
    uses the earlier kernel. Block-shared buffers (`memref.alloca` in
    workgroup memory) become workgroup attributions, or past 48 KiB in all
    views of dynamic shared memory, whose size the launch then gives.

    Input invariant: the output of aicc-gpu-map-to-launches.

    Output IR: a `gpu.container_module` whose functions hold only
    `gpu.launch_func` ops and constants, and the TMA tensor maps some
    launches take: a wgmma kernel's marker of a tensor map (a
    `builtin.unrealized_conversion_cast` of a buffer to i64 with
    `aicc.tensor_map_box`) becomes an `nvgpu.tma.create.descriptor` of
    the buffer before the launch (128-byte swizzle, zeros out of bounds),
    cast to the i64 parameter that holds the map's device address, with the
    views and casts of the buffer it needs.
  }];
  let dependentDialects = ["::aicc::gpu::AiccGPUDialect",
    "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
}

def GPUHalfMathPass : Pass<"aicc-gpu-half-math", "mlir::gpu::GPUModuleOp"> {
  let summary = "f32 math that only feeds half values, cheaper";
  let description = [{
    cuda: in the kernels, an f32 `math.exp` whose every use is an
    `arith.truncf` to f16 or bf16 (a half model's softmax, GELU or
    sigmoid) becomes `math.exp2` of x times log2(e), which the NVVM
    lowering emits as one `ex2.approx` instead of libdevice's accurate
    `expf`. Both errors, the approximation's and the product's rounding,
    stay under 2^-19 relative for every x whose exponential is a normal
    f16 (2^-17 over bf16's wider range), against the half types' 2^-11
    (f16) and 2^-8 (bf16). Other
    exponentials (f32 results, or read as f32 too) are left as they are.

    An f32 `arith.divf` by a constant (scalar or splat) whose result flows
    only through f32 element-wise arithmetic (add, sub, mul, div as the
    dividend, neg, min, max, erf, tanh, exp, exp2, abs, fma; no comparison,
    no f32 store, no square root or division by it, where a zero turned
    negative would give NaN or infinity) into roundings to a 16-bit float (GELU's x / sqrt(2)
    in a product's epilogue) becomes a multiplication by the reciprocal:
    x * (1/c) is within 1.5 units of 2^-24 of x / c, the order of the
    division's own rounding, instead of div.rn.f32's IEEE sequence.
    Divisors without a normal f32 reciprocal are left as they are.

    Input invariant: outlined kernels (after aicc-gpu-outline-kernels),
    before their lowering to NVVM.

    Output IR: the same kernels, those exponentials rewritten.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def GPUFoldPermutationsPass
    : Pass<"aicc-gpu-fold-permutations", "mlir::func::FuncOp"> {
  let summary = "Read transposed operands of products in place";
  let description = [{
    An element-wise op that only permutes its one input (a Transpose, the
    head split of attention: `[b, s, h, d] -> [b, h, s, d]`) and feeds a
    product (a `linalg.generic` with two inputs and reduction loops) is
    fused into the product, which then reads the permutation's input
    through the composed indexing map: the copy kernel and its round trip
    through memory go, and the product's tile loads read rows of the
    original layout, contiguous along the same dimension as before the
    permutation when it keeps the last one. The permutation stays for its
    other readers, if any.

    Input invariant: linalg on tensors, named ops generalized (the
    permutations and products of ops in other forms stay as they are).

    Output IR: the same computation, products reading through permuted
    maps.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GPUKMajorWeightsPass
    : Pass<"aicc-gpu-k-major-weights", "mlir::func::FuncOp"> {
  let summary = "Weights of 8-bit and of thin products transposed to rows of k";
  let description = [{
    The tensor cores' 8-bit products (integers, fp8) read both operands as
    rows of the reduction (ldmatrix and wgmma transpose 16-bit elements,
    not bytes), so a product of 8-bit inputs (summed in i32 or f32) whose
    weight operand is contiguous along another dimension (a MatMul's
    `[K, N]` matrix) would read it one byte at a time. A product too thin
    for the tensor cores (fewer than 16 iterations of the parallel loops
    that do not index the weight: a matrix-vector product at batch 1)
    runs a warp per output, whose lanes walk the reduction: read along
    another dimension, the weight would cost a memory transaction an
    element. Such a weight operand is read through a `linalg.transpose`
    that moves its reduction dimensions last, in their order, and the
    product through the composed map; aicc-pack-weights then evaluates the
    transpose at compile time. Weights read along k already, operands
    computed at run time, and wider products of wider types are left as
    they are.

    Input invariant: linalg on tensors, named ops generalized; weights are
    the leading arguments carrying `aicc.weight`.

    Output IR: the same computation.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def GPUHalfStoragePass
    : Pass<"aicc-gpu-half-storage", "mlir::func::FuncOp"> {
  let summary = "Store f32 weights and activations as f16 or bf16";
  let description = [{
    `--precision=fp16|bf16`: an f32 model keeps f32 inputs and outputs, but
    its weights (converted at compile time) and the results of its
    element-wise ops are stored in the half type. Every op still computes
    in f32: a half operand is extended where the op's body reads it, and a
    half result is truncated where the body yields it. Numerically
    sensitive values stay f32: the results (accumulators) of ops with
    reduction loops (matrix products, convolutions, sums, maxima) and of
    the element-wise ops that consume them, so that softmax and
    normalization run between f32 statistics. Reshapes and slices of half
    values become half; any other use of a half value (a return, a
    concatenation, a loop) gets it back in f32 through an element-wise
    extension.

    Input invariant: linalg on tensors, named ops generalized; weights are
    the leading arguments carrying `aicc.weight` and `aicc.weight_value`.

    Output IR: the same function with half tensors where the rules above
    allow them.
  }];
  let options = [Option<"halfType", "type", "std::string", "\"f16\"",
                        "The storage type: f16 or bf16">];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def GPUMFMAMatmulPass : Pass<"aicc-gpu-mfma-matmul", "mlir::func::FuncOp"> {
  let summary = "Matrix products on AMD matrix cores (MFMA)";
  let description = [{
    rocm: a `linalg.generic` on buffers that is a matrix product (batched
    or not) of f32 or f16-extended-to-f32 operands with an f32 accumulator
    and that aicc-gpu-choose-tiles gave an MFMA tiling (`aicc_gpu.tiles`
    with a `#aicc_gpu.mfma`) becomes a `gpu.launch` of one 64-lane wave per
    32x32 output tile, `waves_m` x `waves_n` waves a block, that
    accumulates with `amdgpu.mfma 32x32x2` (v_mfma_f32_32x32x2f32 on
    gfx90a and gfx942), two k at a time. Lane l holds A[m = l % 32][k =
    l / 32] and B[k = l / 32][n = l % 32]; accumulator element j of lane l
    is C[8 (j / 4) + 4 (l / 32) + j % 4][l % 32]. Edges past M, N or K read
    zeros and are not written. The product is recognized by its iterators
    (batch and output loops parallel, one reduction loop), projected
    permutation maps, and a body `out + a * b`.

    Input invariant: bufferized, generalized linalg (after
    aicc-gpu-prepare-loops), static shapes.

    Output IR: matrix products as `gpu.launch` ops; everything else
    untouched.
  }];
  let dependentDialects = ["::aicc::gpu::AiccGPUDialect",
    "::mlir::amdgpu::AMDGPUDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUInt4ProductsPass
    : Pass<"aicc-gpu-int4-products", "mlir::func::FuncOp"> {
  let summary = "Products by packed 4-bit weights as weight-streaming kernels";
  let description = [{
    Finds the generics tile.matmul_int4 lowers to (the result's outer
    loops and n parallel; k as group, byte and nibble loops; the input
    viewed as [..., K/g, g/2, 2], the packed weight as [N, K/g, g/2], one
    scale and one 8-bit zero point a group) with at most 16 rows, groups of
    a multiple of 32 values and contiguous buffers, and writes each as one
    kernel whose time is the weight's reading: a block of four warps takes
    a few columns of the result (up to 16, while 512 blocks remain), its
    threads split k in chunks of 32 values (16 bytes of each column's
    packed weight, read as one vector; the rows' inputs as 16-byte vectors,
    read once for all the columns and, for f16, paired by prmt as the
    values pair). f16 inputs are multiplied in f16 pairs: two of a word's
    values masked into the mantissas of 1024 by one lop3 (or of 1024 + 16
    v, scaled by 1/16), less the zero point's offset, exactly, summed in
    two pairs over a chunk and then in f32; f32 and bf16 inputs one value
    at a time in f32 (into the mantissa of 2^23). The group's scale
    multiplies each chunk's sum; a row's columns are summed over the warp
    together (each exchange halves the values a lane holds), the warps'
    sums meet in shared memory and are stored through the output's
    element-wise consumer when it has one (a bias). The output's zero fill
    goes.

    Input invariant: bufferized linalg on static memrefs.

    Output IR: gpu.launch ops for the products found; everything else
    unchanged.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::NVVM::NVVMDialect"
  ];
}

def GPUFlashAttentionPass
    : Pass<"aicc-gpu-flash-attention", "mlir::func::FuncOp"> {
  let summary = "Attention (softmax(Q Kt) V) as one tensor-core kernel";
  let description = [{
    Finds attention as bufferization leaves it: the scores S = Q Kt (a
    contraction into f32 after a zero fill), each row's maximum of g(S)
    (g: whatever element-wise scale and mask the model applies), the row
    sums of exp(g(S) - max), the probabilities exp(g(S) - max) / sum, and
    O = P V (after a zero fill), nine consecutive ops; S, the statistics
    and P must be dead after them (refilled first by whatever uses their
    buffers next), g element-wise arithmetic on the scores and other
    buffers (a mask; no linalg.index), and neither O nor its consumer's
    output may share memory with anything the kernel reads, since every
    block reads all keys while others store. Q, K and V must be half (f16
    or bf16) and the head dimension a multiple of 16. Only a chain whose O
    op carries an attention tiling (`aicc_gpu.tiles` with an
    `#aicc_gpu.attention`) from aicc-gpu-choose-tiles, which decides
    whether the chain fits a thread's registers and a block's shared
    memory, becomes a kernel; a tiling whose shared bytes are not the
    chain's is an error.
    The chain becomes one kernel: a block of the tiling's warps takes 16
    query rows a warp of one
    batch element and head; Q's rows, K and V go to shared memory (16
    bytes a copy where the head dimension is contiguous, else element by
    element); each warp computes its rows' scores on mma.sync, g, the
    maxima and exponentials in registers, P V with the exponentials as
    the A fragments, and stores O divided by the row sums, through O's
    element-wise consumer when it has one (the head merge). S and P never
    reach memory.

    Input invariant: bufferized linalg on static memrefs (as
    aicc-gpu-mma-matmul takes it).

    Output IR: gpu.launch ops for the attentions found, nvgpu ldmatrix and
    mma.sync inside; everything else unchanged.
  }];
  let dependentDialects = [
    "::aicc::gpu::AiccGPUDialect",
    "::mlir::gpu::GPUDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::arith::ArithDialect"
  ];
}

def GPUMMAMatmulPass : Pass<"aicc-gpu-mma-matmul", "mlir::func::FuncOp"> {
  let summary = "Contractions on NVIDIA tensor cores (mma.sync)";
  let description = [{
    cuda: a `linalg.generic` on static buffers computing `out += a * b`
    (a matrix product, batched or not, or a direct convolution) whose
    operands are half (f16 or bf16), or f32 when `operand-type` names the
    half type to multiply them in, becomes a `gpu.launch` that runs it as
    an implicit GEMM on the tensor cores: its m loops (indexing `a` and the
    output), n loops (`b` and the output) and reduction loops are flattened
    into M, N and K, the remaining output loops into blocks along z. Each
    block computes a BM x BN output tile over BK = 32 deep slices of A and B
    copied to shared memory (rows padded by 16 bytes), the next slice read
    into registers while the current one is multiplied; each warp loads its
    fragments with `nvgpu.ldmatrix` and accumulates in f32 with
    `nvgpu.mma.sync` m16n8k16 (bf16: `nvvm.mma.sync`, which upstream's
    nvgpu lowering does not type for bf16). The tiling is the one the op's
    `aicc_gpu.tiles` attribute names (`#aicc_gpu.contraction`, from
    aicc-gpu-choose-tiles, which decides every contraction's tiling; a
    contraction without one is left alone, and a tiling the kernel cannot
    run is an error). Operands
    are converted to the half type as they are read; edges past M, N or K
    read zeros and write nothing; the sum is added to what the output held.
    When even 64x64 blocks would leave multiprocessors idle and K has at
    least 8 slices, K is split over up to 16 blocks per output tile (about
    two blocks per multiprocessor, at least 4 slices each), grid z then
    counting batch x split: each split stores its f32 partial sums into
    its plane of a workspace the size of the output, and an element-wise
    `linalg.generic` after the launch adds the planes in order (plus the
    output's old value), so the result does not depend on block timing.
    Products thinner than one 16x8x8 tile (matrix-vector products,
    depthwise convolutions) are left for the CUDA cores.

    With `operand-type=tf32` (aicc --allow-tf32), contractions of f32
    operands run the same kernel on f32 tiles: each value rounded to tf32
    (`nvvm.convert.float.to.tf32`, to nearest, ties away) as it is read,
    `nvgpu.mma.sync` m16n8k8 with `tf32Enabled`, fragments by ldmatrix
    (8x8 matrices of 16-bit units as 8 rows of 4 f32) or, for tiles stored
    as rows of k, which ldmatrix cannot transpose at 32 bits, read element
    by element; the blocks of 128x128 are 32 deep, and a tiling whose f32
    tiles need more than 48 KiB of shared memory is not admitted. wgmma
    stays with half operands.

    With `wgmma` (sm_90a), a wgmma tiling runs on `nvvm.wgmma.mma_async`
    from swizzled stages in dynamic shared memory. With `tma` (the
    default), where both operands are buffers of static strides whose
    dimensions are k, the rows (several collapsed into one by a
    `memref.collapse_shape` made before the launch), batch loops or loops
    of extent 1, with strides and offsets of whole 16 bytes, and not
    constants in globals, the tensor memory accelerator copies them: the
    kernel marks each operand's tensor map as a
    `builtin.unrealized_conversion_cast` of the buffer to i64 carrying
    `aicc_gpu.tensor_map_box` (the box, outermost first), which
    aicc-gpu-outline-kernels turns into the map's address; thread 0
    prefetches the maps and initializes one `nvvm.mbarrier.init` per stage
    (after the stages), then per slice arms the stage's barrier
    (`nvvm.mbarrier.arrive.expect_tx`, the slice's bytes) and issues the
    boxes (`nvvm.cp.async.bulk.tensor.shared.cluster.global`), and every
    thread waits for the stage's phase (`nvvm.mbarrier.try_wait.parity`)
    before the slice's barrier. Otherwise cp.async copies 16 bytes per
    thread and access.

    Input invariant: bufferized, generalized linalg (after
    aicc-gpu-prepare-loops), static shapes.

    Output IR: tensor-core contractions as `gpu.launch` ops with two
    workgroup buffers; everything else untouched.
  }];
  let options = [
    Option<"operandType", "operand-type", "std::string", "\"\"",
           "f16 or bf16: f32 operands are multiplied in this type; tf32: "
           "f32 operands are multiplied as tf32 (m16n8k8, rounded as they "
           "are read; empty: only contractions of half operands use tensor "
           "cores)">,
    Option<"wgmma", "wgmma", "bool", "false",
           "sm_90a: large contractions whose operands are stored half and "
           "read 16 bytes at a time run on wgmma from swizzled stages">,
    Option<"tma", "tma", "bool", "true",
           "with wgmma: operands the tensor memory accelerator can read "
           "(plain strided buffers) are copied by TMA through tensor maps "
           "the runtime encodes, not by cp.async">,
  ];
  let dependentDialects = ["::aicc::gpu::AiccGPUDialect",
    "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUChooseTilesPass : Pass<"aicc-gpu-choose-tiles", "mlir::func::FuncOp"> {
  let summary = "Tile selection for the GPU kernels, from the target's limits";
  let description = [{
    The GPU targets' tile-tile step, and the one place each kind of kernel
    is decided: every op that a kernel pass will build a kernel from gets
    an `aicc_gpu.tiles` attribute, a `#tile.encoding` of the kernel's tiling
    (its `target` the option's) whose `config` is the kernel's
    `#aicc_gpu` configuration; the kernel passes build what it names and
    nothing else. The tilings are chosen from the limits of the `vendor`'s
    GPUs `archs` names (the least of each over them: shared memory a
    block, registers a thread, threads a block; the greatest common
    divisor of their threads a multiprocessor; the widest warp; the largest
    one's multiprocessors, or `multiprocessors` where it is not 0):

    - nvidia, attention (with `attention`): the O = P V op of each chain
      aicc-gpu-flash-attention takes gets tiles over (queries, keys, head
      dimension): the block's rows (16 a warp) by all the keys (padded to
      16) by the head dimension, a warp's 16 rows, and the m16n8k16
      instruction; `#aicc_gpu.attention<warps, shared>` (bytes of Q's
      rows, K and V). Four warps a block, fewer while the blocks leave
      multiprocessors idle or the shared memory short; no tiling, and no
      attention kernel, where a thread's score and output accumulators
      (keys / 2 + head dimension / 2 f32) pass its registers less 63, K and
      V pass a block's shared memory, or the chain is larger than the
      kernel has been run with (256 keys, head dimension 128). The chain's
      ops get no other tiling.
    - nvidia, tensor-core contractions (as aicc-gpu-mma-matmul takes them:
      same operand types and sizes): operands prepared as that pass
      prepares them (collapsed views, inputs swapped), tiles over the
      flattened (M, N, K) with three levels, the block tile, the warp tile
      (wgmma: a warpgroup's) and the instruction tile (mma.sync m16n8k16,
      or wgmma m64nBNk16), and `#aicc_gpu.contraction<engine, stages,
      splits, signature, origin>` (the signature is the contraction's key:
      half type, batches, M, N, K, operand accesses), where origin is
      - `forced`: `tile` names the tiling (aicc --mma-tile);
      - `tuned`: `choices` has an entry `SIGNATURE=BMxBNxBKxSTAGES[/SPLITS]`
        for the contraction (what aicc --autotune measured fastest);
      - `candidate`: `candidate` is N >= 0 and the contraction has an N-th
        candidate tiling (the model's first; the autotuner compiles one
        variant per N);
      - `model`: else, from the multiprocessor count and shared-memory
        limits (128x128 blocks of 8 warps when they fill the GPU, 64x64
        with split K when few blocks leave it idle; with `wgmma`, 128 x BN
        blocks of two warpgroups in 3 or 4 stages).
      An entry of `choices` the contraction cannot run is reported as a
      warning and the model's tiling used instead.
    - amd, MFMA products (as aicc-gpu-mfma-matmul takes them): tiles over
      (M, N, K), the block's 32 x 32 wave tiles, a wave's, and the 32x32x2
      instruction; `#aicc_gpu.mfma<waves_m, waves_n>`: 2 x 2 waves a block
      (one a SIMD), else 2 x 1, else 1, the first whose blocks fill the
      compute units.
    - Both, row kernels (a warp per output row, as aicc-gpu-warp-reductions
      builds them): a reduction of at least `min-reduction` iterations
      whose outputs are each folded by one associative, commutative op,
      whose inputs are contiguous along a reduction loop or whose outputs
      number at most `max-thread-outputs`; tiles over (rows, reduced), the
      block's rows and a warp's row; `#aicc_gpu.rows<warps, lanes>` (lanes
      32: the kernel's shuffles span 32 lanes). `block-size / 32` warps a
      block (within the threads a block may have), halved while the blocks
      leave multiprocessors idle, down to one hardware warp (two on AMD's
      64-lane waves).

    With `loops`, the pass runs once the other kernels are built and the
    remaining linalg ops are loops, and records instead the tiling of each
    element-wise kernel: every top-level `scf.parallel` with constant
    bounds and no results, which aicc-gpu-map-to-launches turns into a
    launch. A thread takes the widest vector of the innermost loop's
    iterations its rows allow (at most `vector-bytes`, 16 by default: what
    a lane loads or stores at once on every GPU of the table, of the
    narrowest element stored along a row; 0 for one element a thread); the
    blocks take `block-size` threads (at least one hardware warp), fewer
    where that many would not pack a multiprocessor's threads whole
    (sm_86's 1536; for several GPUs, the greatest common divisor of
    theirs), halved while the blocks leave multiprocessors idle (each has
    its own load units), and no more whole hardware warps than the loop
    needs. Tiles over the loop's iterations flattened in row-major order,
    a block's and a thread's; `#aicc_gpu.elementwise<threads, lanes>`.

    Input invariant: bufferized, generalized, parallel-first linalg (as
    the kernel passes take it); with `loops`, the function's remaining
    work as top-level loops (as aicc-gpu-map-to-launches takes it).

    Output IR: the same ops, contractions with prepared operands, and
    `aicc_gpu.tiles` attributes.
  }];
  let options = [
    Option<"target", "target", "std::string", "\"cuda\"",
           "The target's name, recorded in the encodings">,
    Option<"vendor", "vendor", "::aicc::gpu::Vendor",
           "::aicc::gpu::Vendor::nvidia",
           "Whose GPUs' limits and kernels: nvidia or amd",
           [{::llvm::cl::values(
               clEnumValN(::aicc::gpu::Vendor::nvidia, "nvidia",
                          "NVIDIA GPUs (sm_NN)"),
               clEnumValN(::aicc::gpu::Vendor::amd, "amd",
                          "AMD GPUs (gfxNNN)"))}]>,
    ListOption<"archs", "archs", "std::string",
               "Architectures the kernels are for (default nvidia "
               "sm_80,sm_90; amd gfx90a,gfx942)">,
    Option<"operandType", "operand-type", "std::string", "\"\"",
           "as aicc-gpu-mma-matmul's">,
    Option<"multiprocessors", "multiprocessors", "int64_t", "0",
           "Multiprocessors of the GPU (0: the largest architecture's)">,
    Option<"tile", "tile", "std::string", "\"\"",
           "BMxBNxBK[xSTAGES][/SPLITS] for every contraction">,
    Option<"wgmma", "wgmma", "bool", "false", "sm_90a: wgmma tilings">,
    Option<"candidate", "candidate", "int64_t", "-1",
           "Use each contraction's N-th candidate tiling (autotuning)">,
    ListOption<"choices", "choices", "std::string",
               "SIGNATURE=TILING entries (tuned tilings)">,
    Option<"attention", "attention", "bool", "false",
           "nvidia: tilings of the attention chains "
           "(aicc-gpu-flash-attention runs)">,
    Option<"blockSize", "block-size", "int64_t", "256",
           "Most threads a block of a row or element-wise kernel">,
    Option<"minReduction", "min-reduction", "int64_t", "32",
           "Fewest reduction iterations for a row kernel">,
    Option<"maxThreadOutputs", "max-thread-outputs", "int64_t", "8192",
           "Outputs up to which a reduction read across its lanes still "
           "gets a row kernel">,
    Option<"vectorBytes", "vector-bytes", "int64_t", "16",
           "Widest load or store of a row an element-wise thread makes "
           "(0: one element a thread)">,
    Option<"loops", "loops", "bool", "false",
           "Tilings of the element-wise kernels, on the top-level loops "
           "(run after the linalg ops became loops), instead of the rest">,
  ];
  let dependentDialects = ["::aicc::gpu::AiccGPUDialect",
                           "::aicc::tile::TileDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // AICC_TARGET_GPU_PASSES_TD
