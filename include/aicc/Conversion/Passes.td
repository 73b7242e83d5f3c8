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

    Matrix products and convolutions take the plain forms: a product as one
    generic over (batch..., m, n, k), a convolution as a product of its
    input's patches and its filter, or as one generic over output positions
    and filter taps where each group has one input or output channel. The
    targets run the same conversion with forms of their own for
    contractions (aicc-cpu-convert-tile-to-linalg's packed panels,
    aicc-gpu-convert-tile-to-linalg's direct convolutions).

    Output IR: no tile op but `tile.fusion` and `tile.yield`; outside those
    regions' interfaces, only signless integer and float element types.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // AICC_CONVERSION_PASSES_TD
