//===- TileBase.td - The tile dialect and its base op class -*- tablegen -*-===//
//
// The dialect record and what every tile op shares. Ops live in the
// per-family files that TileOps.td includes.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_DIALECTS_TILE_IR_TILEBASE_TD
#define AICC_DIALECTS_TILE_IR_TILEBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::aicc::tile";
  let summary = "Graph-level tensor ops on tiled tensors";
  let description = [{
    The `tile` dialect is aicc's graph-level IR: the form an ONNX model takes
    after import and the form that fusion, quantization and tile selection
    transform before a target lowers it.

    **Scope.** Every ONNX inference operator has a home here, either as one
    op (`tile.conv`, `tile.softmax`, ...) or as a small composition of them
    (ONNX `Gemm` is a `tile.matmul` followed by element-wise ops). Ops work on
    ranked builtin `tensor` values with value semantics; shapes may be dynamic
    (`?`) where a model leaves a dimension symbolic. Integers follow the
    StableHLO convention: signless `iN` is a signed integer, `uiN` an unsigned
    one, and `i1` a boolean.

    **Layout and tiling.** Tiling decisions are carried as a
    `#tile.encoding<...>` attribute in the encoding slot of the builtin tensor
    type, the way Triton carries layouts, so upstream tensor, linalg and
    bufferization machinery keeps working on tiled values. Ops whose result
    types are inferred ignore encodings when checking them, so a pass may
    annotate their results freely; ops whose result type is their operand's
    (`tile.unary`, `tile.softmax`, ...) carry one encoding on both.

    **Fusion.** `tile.fusion` is a region op grouping ops meant to become
    one kernel. The compiler's own fusion decisions are made later, by the
    passes that build each kind of kernel (element-wise chains and siblings
    on linalg, epilogues, row reductions and attention in the GPU kernel
    passes); a region in the input is dissolved by `tile-inline-fusions`
    before lowering.

    **What it is not.** It is not a loop or buffer IR: there are no memrefs,
    no explicit iteration and no side effects (everything is `Pure`, so CSE
    and DCE apply). It is not ONNX either: ONNX attributes that only describe
    a default or a padding policy (`auto_pad`, negative axes, opset-specific
    input forms) are resolved by the importer, so every tile op states its
    semantics explicitly.
  }];

  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

/// Base class of every tile op.
class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

/// A ranked tensor of any element type; dynamic dimensions allowed.
def Tile_Tensor : RankedTensorOf<[AnyType]>;

/// Integer tensors used as indices (signed or unsigned, any width).
def Tile_IndexTensor : RankedTensorOf<[AnyInteger]>;

/// Boolean tensors.
def Tile_BoolTensor : RankedTensorOf<[I1]>;

#endif // AICC_DIALECTS_TILE_IR_TILEBASE_TD
