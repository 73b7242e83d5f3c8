//===- Passes.td - Conversions between aicc's IR levels -----*- tablegen -*-===//

#ifndef AICC_CONVERSION_PASSES_TD
#define AICC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToLinalgPass : Pass<"convert-tile-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower tile ops to linalg, tensor, arith, math and scf";
  let description = [{
    Rewrites every primitive tile op as computations on builtin tensors:
    element-wise ops, contractions, convolutions, pooling, reductions and
    data movement become `linalg.generic` and named linalg ops; slicing,
    concatenation and reshapes become `tensor` ops; scans, scatters and
    top-k become `scf.for` loops. Unsigned integer tensors become signless
    ones, with the unsigned variants of the arithmetic where it matters, and
    tensor encodings are dropped. Function signatures, `scf` control flow and
    `tensor` ops that carry tensors are converted along.

    `tile.fusion` regions stay, with their bodies lowered like the rest
    (`tile-fuse`'s groups, which the pipelines then dissolve with
    `tile-inline-fusions mark-groups`). The regions' own arguments and
    results keep their types (an unsigned tensor stays unsigned there,
    with casts at the body's edges that fold away once the region is
    dissolved).

    Input invariant: composite ops already decomposed (`tile-decompose`),
    no `tile.weight` left
    (the pipeline turns weights into function arguments), static shapes
    where an op needs them.

    Output IR: no tile op but `tile.fusion` and `tile.yield`; outside those
    regions' interfaces, only signless integer and float element types.
  }];
  let options = [
    Option<"convPanelWidth", "conv-panel-width", "int64_t", "0",
           "Lower convolutions, and static float matrix products whose "
           "width is a multiple of it, to products whose right-hand side is "
           "gathered into panels of this many columns (the CPU "
           "micro-kernel's register width), depthwise convolutions of unit "
           "innermost stride to one element-wise sum over taps, and "
           "transposed operands of static products to contiguous copies; 0 "
           "keeps the plain layout">,
    Option<"directConvolutions", "direct-convolutions", "bool", "false",
           "Lower every convolution as one linalg.generic over output "
           "positions and filter taps, without a patch matrix (the GPU "
           "targets' one-thread-per-output kernels)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // AICC_CONVERSION_PASSES_TD
