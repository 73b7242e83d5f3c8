//===- AiccGPUAttrs.td - Kernel configurations of the GPUs -*- tablegen -*-===//

#ifndef AICC_DIALECTS_AICCGPU_IR_AICCGPUATTRS_TD
#define AICC_DIALECTS_AICCGPU_IR_AICCGPUATTRS_TD

include "AiccGPU/IR/AiccGPUDialect.td"
include "Tile/IR/TileInterfaces.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

class AiccGPU_I32Enum<string name, string summary, list<I32EnumCase> cases>
    : I32Enum<name, summary, cases> {
  let cppNamespace = "::aicc::gpu";
}

def AiccGPU_Vendor : AiccGPU_I32Enum<"Vendor",
    "the GPUs a kernel is tiled for, by their limits' table", [
  // NVIDIA: 32-lane warps, sm_NN architectures (the cuda target).
  I32EnumCase<"nvidia", 0>,
  // AMD: 64-lane waves on CDNA, gfxNNN architectures (the rocm target).
  I32EnumCase<"amd", 1>
]>;

def AiccGPU_Engine : AiccGPU_I32Enum<"Engine",
    "the tensor-core instructions a contraction runs on", [
  I32EnumCase<"mma_sync", 0>, I32EnumCase<"wgmma", 1>
]>;

def AiccGPU_Origin : AiccGPU_I32Enum<"Origin",
    "where a contraction's tiling came from", [
  // --mma-tile named it.
  I32EnumCase<"forced", 0>,
  // --autotune measured it fastest (the `choices` option).
  I32EnumCase<"tuned", 1>,
  // The N-th candidate, for an --autotune variant.
  I32EnumCase<"candidate", 2>,
  // The model's choice from the GPUs' limits.
  I32EnumCase<"model", 3>
]>;

def AiccGPU_MathUnit : AiccGPU_I32Enum<"MathUnit",
    "the units a launch's floating-point work runs on", [
  // Tensor cores on 16-bit operands.
  I32EnumCase<"tensor16", 1>,
  // Tensor cores on f32 or tf32 operands.
  I32EnumCase<"tensor32", 2>
]>;

def AiccGPU_MathUnitAttr : EnumAttr<AiccGPU_Dialect, AiccGPU_MathUnit, "math">;

//===----------------------------------------------------------------------===//
// Kernel configurations
//===----------------------------------------------------------------------===//

class AiccGPU_KernelConfig<string name, string configMnemonic>
    : AttrDef<AiccGPU_Dialect, name,
              [DeclareAttrInterfaceMethods<Tile_KernelConfigAttrInterface>]> {
  let mnemonic = configMnemonic;
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def AiccGPU_ContractionConfigAttr
    : AiccGPU_KernelConfig<"ContractionConfig", "contraction"> {
  let summary = "A tensor-core contraction (aicc-gpu-mma-matmul)";
  let description = [{
    The encoding's tiles are over the flattened (M, N, K) in three levels:
    the block tile, the warp tile (wgmma: a warpgroup's, 64 rows) and the
    instruction tile (mma.sync m16n8k16, or wgmma m64nBNk16).

    - `engine`: `mma_sync` (ldmatrix, cp.async stages) or `wgmma` (sm_90a,
      operands by TMA or cp.async);
    - `stages`: the operand tiles in flight (1 or 2: double buffering in
      registers; 3 to 8: cp.async or TMA pipelines);
    - `splits`: the blocks K is split over (a reduction of their partial
      sums follows);
    - `signature`: the contraction's key (half type, batches, M, N, K,
      operand accesses), by which tuned tilings are found;
    - `origin`: `forced`, `tuned`, `candidate` or `model`.

    Example:

    ```mlir
    #aicc_gpu.contraction<engine = wgmma, stages = 3, splits = 1,
                          signature = "f16:b1:m4096:n3072:k768:kr",
                          origin = model>
    ```
  }];
  let parameters = (ins
    EnumParameter<AiccGPU_Engine>:$engine,
    "int64_t":$stages,
    "int64_t":$splits,
    StringRefParameter<"the contraction's signature", "\"\"">:$signature,
    DefaultValuedParameter<"::aicc::gpu::Origin", "::aicc::gpu::Origin::model",
                           "where the tiling came from">:$origin);
}

def AiccGPU_AttentionConfigAttr
    : AiccGPU_KernelConfig<"AttentionConfig", "attention"> {
  let summary = "Attention as one kernel (aicc-gpu-flash-attention)";
  let description = [{
    The encoding's tiles are over (queries, keys, head dimension): the
    block's rows (16 a warp) by all the keys (padded to 16) by the head
    dimension, a warp's 16 rows, and the m16n8k16 instruction.

    - `warps`: warps a block (1, 2 or 4);
    - `shared`: bytes of shared memory a block takes (its Q rows, K, V).

    Example: `#aicc_gpu.attention<warps = 4, shared = 41472>`
  }];
  let parameters = (ins "int64_t":$warps, "int64_t":$shared);
}

def AiccGPU_RowsConfigAttr : AiccGPU_KernelConfig<"RowsConfig", "rows"> {
  let summary = "A row kernel: a warp per output row (aicc-gpu-warp-reductions)";
  let description = [{
    The encoding's tiles are over (rows, reduced): the block's rows and a
    warp's row.

    - `warps`: rows (warps) a block, at most 32 (1024 threads);
    - `lanes`: lanes of the warp a row's shuffles span (32).

    Example: `#aicc_gpu.rows<warps = 8, lanes = 32>`
  }];
  let parameters = (ins "int64_t":$warps, "int64_t":$lanes);
}

def AiccGPU_MFMAConfigAttr : AiccGPU_KernelConfig<"MFMAConfig", "mfma"> {
  let summary = "An MFMA product on AMD GPUs (aicc-gpu-mfma-matmul)";
  let description = [{
    The encoding's tiles are over (M, N, K): the block's 32 x 32 wave tiles,
    a wave's, and the 32x32x2 instruction.

    - `waves_m`, `waves_n`: waves a block along M and N, at most 16 waves
      (1024 threads) in all.

    Example: `#aicc_gpu.mfma<waves_m = 2, waves_n = 2>`
  }];
  let parameters = (ins "int64_t":$waves_m, "int64_t":$waves_n);
}

def AiccGPU_ElementwiseConfigAttr
    : AiccGPU_KernelConfig<"ElementwiseConfig", "elementwise"> {
  let summary = "An element-wise kernel (aicc-gpu-map-to-launches)";
  let description = [{
    The encoding's tiles are over the loop's iterations flattened in
    row-major order: a block's (threads x lanes) and a thread's (lanes).

    - `threads`: threads a block, whole warps of 32, at most 1024;
    - `lanes`: consecutive innermost iterations a thread takes, as one
      vector access.

    Example: `#aicc_gpu.elementwise<threads = 128, lanes = 8>`
  }];
  let parameters = (ins "int64_t":$threads, "int64_t":$lanes);
}

#endif // AICC_DIALECTS_AICCGPU_IR_AICCGPUATTRS_TD
