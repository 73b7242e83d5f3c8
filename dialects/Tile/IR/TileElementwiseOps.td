//===- TileElementwiseOps.td - Element-wise ops --------------*- tablegen -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILEELEMENTWISEOPS_TD
#define AICC_DIALECTS_TILE_IR_TILEELEMENTWISEOPS_TD

def Tile_UnaryOp : Tile_Op<"unary", [Pure, SameOperandsAndResultType]> {
  let summary = "Element-wise unary function";
  let description = [{
    Applies `kind` to every element. `abs`, `neg`, `sign` and `relu` take any
    numeric type; `not` takes `i1`; `bitwise_not` takes integers; every other
    kind takes floats.

    Parameterized kinds read `alpha` and `beta` (and no other kind accepts
    them):

    | kind | parameters | function |
    |------|------------|----------|
    | `leaky_relu` | alpha | x < 0 ? alpha·x : x |
    | `elu` | alpha | x < 0 ? alpha·(eˣ − 1) : x |
    | `celu` | alpha | max(0, x) + min(0, alpha·(e^(x/alpha) − 1)) |
    | `thresholded_relu` | alpha | x > alpha ? x : 0 |
    | `selu` | alpha, beta (= gamma) | beta·(x ≤ 0 ? alpha·(eˣ − 1) : x) |
    | `hard_sigmoid` | alpha, beta | max(0, min(1, alpha·x + beta)) |
    | `shrink` | alpha (= lambd), beta (= bias) | x < −alpha ? x + beta : x > alpha ? x − beta : 0 |

    `gelu` is the exact (erf) form and `gelu_tanh` the tanh approximation;
    `round` rounds half to even.

    Example:

    ```mlir
    %y = tile.unary exp %x : tensor<4x?xf32>
    %z = tile.unary leaky_relu %x {alpha = 1.000000e-01 : f64} : tensor<4x?xf32>
    ```
  }];
  let arguments = (ins Tile_UnaryKindAttr:$kind, Tile_Tensor:$input,
                       OptionalAttr<F64Attr>:$alpha,
                       OptionalAttr<F64Attr>:$beta);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($input)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BinaryOp : Tile_InferringOp<"binary"> {
  let summary = "Element-wise binary function with numpy broadcasting";
  let description = [{
    Applies `kind` to pairs of elements after broadcasting both operands to a
    common shape with numpy rules: shapes are aligned at their trailing
    dimension, and a dimension of size 1 stretches to match the other.

    Both operands have the same element type, which is the result's. `and`,
    `or` and `xor` take `i1`; the `bitwise_*` and shift kinds take integers;
    `mod` (sign of the divisor) takes integers and floats, as does `rem` (sign
    of the dividend, C `fmod`). `prelu` computes `lhs < 0 ? rhs * lhs : lhs`.

    Example:

    ```mlir
    %z = tile.binary add %x, %b : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Tile_BinaryKindAttr:$kind, Tile_Tensor:$lhs,
                       Tile_Tensor:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $kind $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_CompareOp : Tile_InferringOp<"compare"> {
  let summary = "Element-wise comparison with numpy broadcasting";
  let description = [{
    Compares pairs of elements after numpy broadcasting and yields `i1`.
    Floats compare ordered: any comparison with NaN is false except `ne`.

    Example:

    ```mlir
    %m = tile.compare lt %x, %y : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Tile_ComparePredicateAttr:$predicate, Tile_Tensor:$lhs,
                       Tile_Tensor:$rhs);
  let results = (outs Tile_BoolTensor:$result);
  let assemblyFormat = [{
    $predicate $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_SelectOp : Tile_InferringOp<"select"> {
  let summary = "Element-wise choice with numpy broadcasting";
  let description = [{
    `condition ? true_value : false_value`, element by element, after
    broadcasting all three operands to a common shape (ONNX `Where`).

    Example:

    ```mlir
    %r = tile.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Tile_BoolTensor:$condition, Tile_Tensor:$true_value,
                       Tile_Tensor:$false_value);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
    functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Tile_CastOp : Tile_Op<"cast", [Pure, SameOperandsAndResultShape]> {
  let summary = "Element type conversion";
  let description = [{
    Converts every element to the result's element type. Float to integer
    rounds toward zero; out-of-range values saturate for fp8 results and are
    undefined otherwise (as in ONNX). Integer to `i1` tests for non-zero.

    A cast to the same type folds away, and a cast of a cast folds when the
    first one is exact.

    Example:

    ```mlir
    %h = tile.cast %x : tensor<2x3xf32> -> tensor<2x3xf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ClassifyOp : Tile_InferringOp<"classify"> {
  let summary = "Floating-point class test";
  let description = [{
    Tests every element for NaN or infinity (ONNX `IsNaN`, `IsInf`) and yields
    `i1`. `inf` matches both infinities.

    Example:

    ```mlir
    %m = tile.classify nan %x : tensor<4xf32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Tile_ClassifyKindAttr:$kind, Tile_Tensor:$input);
  let results = (outs Tile_BoolTensor:$result);
  let assemblyFormat =
      "$kind $input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

#endif // AICC_DIALECTS_TILE_IR_TILEELEMENTWISEOPS_TD
