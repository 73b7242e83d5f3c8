//===- TileStructureOps.td - Constants, weights, fusion -----*- tablegen -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILESTRUCTUREOPS_TD
#define AICC_DIALECTS_TILE_IR_TILESTRUCTUREOPS_TD

def Tile_ConstantOp : Tile_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "A small constant tensor that the compiler may fold";
  let description = [{
    A constant whose value the compiler owns: folders read it and
    canonicalization may duplicate or merge it. Model weights, which must keep
    their name and stay in the bundle's constant section, are `tile.weight`.

    Example:

    ```mlir
    %c = tile.constant dense<[1, -1]> : tensor<2xi64>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Tile_WeightOp : Tile_Op<"weight",
    [Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "A named model weight";
  let description = [{
    A trained parameter of the model (an ONNX initializer). Unlike
    `tile.constant` it carries the name the model gave it and is not folded
    into its users by canonicalization: weights are uploaded once into the
    bundle's constant section. Large values are best written as
    `dense_resource` blobs.

    Example:

    ```mlir
    %w = tile.weight "fc.weight" = dense<0.5> : tensor<10x64xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name, ElementsAttr:$value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$name `=` $value attr-dict";
  let hasVerifier = 1;
}

def Tile_FusionOp : Tile_Op<"fusion",
    [IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects,
     RecursivelySpeculatable]> {
  let summary = "A fusion region: the ops of its body become one kernel";
  let description = [{
    Groups producers and consumers that a target compiles into a single
    kernel. The region is isolated from above: everything the body reads comes
    in through `inputs`, which become the entry block's arguments in order,
    and everything it produces leaves through the `tile.yield` that ends the
    block, whose operands become the results.

    `tile-fuse` forms them: one region per kernel, with a `kind`
    attribute (`attention`, `contraction`, `reduction`, `elementwise`).
    The GPU targets lower the bodies in place and dissolve the regions
    with `tile-inline-fusions mark-groups`, so that their kernel passes
    keep to the groups; regions from elsewhere are dissolved op by op
    before lowering.

    Example:

    ```mlir
    %r = tile.fusion (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
      %s = tile.binary add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
      %t = tile.unary relu %s : tensor<4x8xf32>
      tile.yield %t : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$inputs);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    ` ` `(` $inputs `)` attr-dict-with-keyword `:` functional-type($inputs, results)
    $body
  }];
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The terminator of the body.
    YieldOp getYield();
  }];
}

def Tile_YieldOp : Tile_Op<"yield",
    [Pure, ReturnLike, Terminator, HasParent<"FusionOp">]> {
  let summary = "Ends a fusion region and names its results";
  let description = [{
    The operands become the results of the enclosing `tile.fusion`, in order.

    ```mlir
    tile.yield %a, %b : tensor<4xf32>, tensor<4xi1>
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // AICC_DIALECTS_TILE_IR_TILESTRUCTUREOPS_TD
