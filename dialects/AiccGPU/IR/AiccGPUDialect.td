//===- AiccGPUDialect.td - The GPU targets' kernel configs -*- tablegen -*-===//
//
// The dialect record of aicc_gpu: the typed, verified attributes through
// which the GPU targets' passes hand decisions to one another.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_DIALECTS_AICCGPU_IR_AICCGPUDIALECT_TD
#define AICC_DIALECTS_AICCGPU_IR_AICCGPUDIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"

def AiccGPU_Dialect : Dialect {
  let name = "aicc_gpu";
  let cppNamespace = "::aicc::gpu";
  let summary = "Kernel configurations of aicc's GPU targets";
  let description = [{
    What travels between the passes of the cuda and rocm targets, as
    attributes the dialect declares and verifies rather than strings and
    dictionaries read by hand.

    **Kernel configurations.** Tile selection (`aicc-gpu-choose-tiles`)
    decides each kernel's tiling and records it on the op the kernel will be
    built from, as `aicc_gpu.tiles = #tile.encoding<tiles = [...],
    target = "...", config = #aicc_gpu.KIND<...>>`: the encoding's tile
    levels and one configuration attribute per kind of kernel
    (`#aicc_gpu.contraction`, `#aicc_gpu.attention`, `#aicc_gpu.rows`,
    `#aicc_gpu.mfma`, `#aicc_gpu.elementwise`). Each configuration checks
    the encoding's levels against itself; the kernel passes build what it
    says.

    **Launch annotations.** Kernel passes and outlining record on each
    `gpu.launch` and `gpu.launch_func` what the launch computes and moves
    (`aicc_gpu.flops`, `aicc_gpu.bytes`, `aicc_gpu.math`), the ONNX nodes it
    came from (`aicc_gpu.source`), and for tensor-core contractions their
    signature and tiling (`aicc_gpu.contraction`, `aicc_gpu.tiling`), which
    the launch plan and `--autotune` read. `aicc_gpu.min_blocks_per_sm`
    and `aicc_gpu.tensor_map_box` carry a kernel's occupancy target and a
    TMA operand's box to outlining.

    Every discardable attribute named `aicc_gpu.*` is verified: an unknown
    name or a value of the wrong kind is an error, never a silent default.

    **What it is not.** It has no ops and no types: kernels are built from
    upstream dialects (gpu, nvgpu, amdgpu, linalg, scf, vector).
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

#endif // AICC_DIALECTS_AICCGPU_IR_AICCGPUDIALECT_TD
