//===- TileAttrs.td - Attributes and enums of the tile dialect -*- tablegen -*-===//

#ifndef AICC_DIALECTS_TILE_IR_TILEATTRS_TD
#define AICC_DIALECTS_TILE_IR_TILEATTRS_TD

include "Tile/IR/TileBase.td"
include "Tile/IR/TileInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// The tiled-tensor encoding
//===----------------------------------------------------------------------===//

def Tile_TileLevelsParameter
    : OptionalArrayRefParameter<"::mlir::DenseI64ArrayAttr",
                                "tile shape per level, outermost level first"> {
  let parser = "::aicc::tile::parseTileLevels($_parser)";
  let printer = "::aicc::tile::printTileLevels($_printer, $_self)";
}

def Tile_DimOrderParameter
    : OptionalArrayRefParameter<"int64_t", "dimension order, outermost first"> {
  let parser = "::aicc::tile::parseDimOrder($_parser)";
  let printer = "::aicc::tile::printDimOrder($_printer, $_self)";
}

def Tile_EncodingAttr : AttrDef<Tile_Dialect, "Encoding",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let mnemonic = "encoding";
  let summary = "Tiling and layout of a tensor value";
  let description = [{
    Carried in the encoding slot of a builtin `tensor` type, it records how a
    value is tiled and laid out for the target that will compute it:

    - `tiles`: the tile shape at each level of the target's hierarchy,
      outermost first. Each level has one size per tensor dimension, and every
      inner level divides the level above it. On `cuda` the levels are the
      thread-block tile, the warp tile and the per-thread tile; on `cpu` the
      per-thread (parallel) tile and the vector tile; on `systolic` the array
      fold. Levels are written `MxN`, one size per dimension.
    - `order`: the dimension order from outermost to innermost in memory, a
      permutation of `[0, rank)`. Absent means row-major (`[0, 1, ..., r-1]`).
    - `target`: the name of the target the tiles were chosen for, so that
      a mismatched pipeline can refuse them.
    - `config`: the target's typed configuration of the kernel the tiles
      are for (an attribute of the target's own dialect implementing
      `KernelConfigAttrInterface`, such as `#aicc_gpu.contraction<...>`),
      which checks the tile levels against itself.

    At least one field must be present. Tiles may exceed a dimension's size:
    partial tiles are masked or padded by the lowering.

    Example:

    ```mlir
    tensor<1024x512xf16, #tile.encoding<tiles = [128x64, 64x32, 16x8],
                                        order = [1, 0], target = "cuda">>
    ```
  }];
  let parameters = (ins
    Tile_TileLevelsParameter:$tiles,
    Tile_DimOrderParameter:$order,
    OptionalParameter<"::mlir::StringAttr", "target the tiles are for">:$target,
    OptionalParameter<"::aicc::tile::KernelConfigAttrInterface",
                      "the target's configuration of the kernel">:$config);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of tiling levels.
    size_t getNumLevels() const { return getTiles().size(); }
    /// The dimension order, with the row-major default filled in.
    ::llvm::SmallVector<int64_t> getOrderOrDefault(int64_t rank) const;
  }];
}

//===----------------------------------------------------------------------===//
// Quantization schemes
//===----------------------------------------------------------------------===//

def Tile_QuantAttr : AttrDef<Tile_Dialect, "Quant"> {
  let mnemonic = "quant";
  let summary = "How a tensor of integers or fp8 values stands for real numbers";
  let description = [{
    The scales and zero points of a quantized tensor and the elements each
    one covers: `real = (stored - zero_point) * scale`. The granularity
    follows from the shapes, as in ONNX `QuantizeLinear`:

    - per tensor: `scales` has rank 0;
    - per axis: `scales` is 1-D, one entry per index of dimension `axis`;
    - per block: `block_size` is positive and `scales` has the tensor's
      rank, with `ceil(size / block_size)` entries along `axis` and the
      tensor's sizes elsewhere; `block_size` consecutive elements along
      `axis` share an entry.

    `zero_points`, when present, has the shape of `scales` and the element
    type of the stored tensor; absent means zero. Scales are floats.

    Example:

    ```mlir
    #tile.quant<scales = dense<[0.1, 0.2]> : tensor<2xf32>,
                zero_points = dense<0> : tensor<2xi8>, axis = 0>
    ```
  }];
  let parameters = (ins
    "::mlir::DenseElementsAttr":$scales,
    OptionalParameter<"::mlir::DenseElementsAttr", "zero points">:$zero_points,
    DefaultValuedParameter<"int64_t", "0", "quantized dimension">:$axis,
    DefaultValuedParameter<"int64_t", "0", "elements per block">:$block_size);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isPerTensor() const { return getScales().getType().getRank() == 0; }
    bool isBlocked() const { return getBlockSize() > 0; }
    /// Whether every zero point is zero (or there are none).
    bool hasZeroZeroPoints() const;
    /// Checks that the scheme fits a stored tensor of `type`: the axis is in
    /// range, the parameter shapes match its static sizes, and the zero
    /// points have its element type.
    ::mlir::LogicalResult
    verifyFor(::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
              ::mlir::RankedTensorType stored) const;
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

class Tile_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::aicc::tile";
}

def Tile_UnaryKindAttr : Tile_I32Enum<"UnaryKind", "element-wise unary function", [
  // Numeric on any element type (integers and floats).
  I32EnumAttrCase<"abs", 0>, I32EnumAttrCase<"neg", 1>,
  I32EnumAttrCase<"sign", 2>, I32EnumAttrCase<"relu", 3>,
  // Float only.
  I32EnumAttrCase<"exp", 10>, I32EnumAttrCase<"log", 11>,
  I32EnumAttrCase<"sqrt", 12>, I32EnumAttrCase<"rsqrt", 13>,
  I32EnumAttrCase<"reciprocal", 14>, I32EnumAttrCase<"sin", 15>,
  I32EnumAttrCase<"cos", 16>, I32EnumAttrCase<"tan", 17>,
  I32EnumAttrCase<"asin", 18>, I32EnumAttrCase<"acos", 19>,
  I32EnumAttrCase<"atan", 20>, I32EnumAttrCase<"sinh", 21>,
  I32EnumAttrCase<"cosh", 22>, I32EnumAttrCase<"tanh", 23>,
  I32EnumAttrCase<"asinh", 24>, I32EnumAttrCase<"acosh", 25>,
  I32EnumAttrCase<"atanh", 26>, I32EnumAttrCase<"erf", 27>,
  I32EnumAttrCase<"sigmoid", 28>, I32EnumAttrCase<"floor", 29>,
  I32EnumAttrCase<"ceil", 30>, I32EnumAttrCase<"round", 31>,
  I32EnumAttrCase<"softplus", 32>, I32EnumAttrCase<"softsign", 33>,
  I32EnumAttrCase<"gelu", 34>, I32EnumAttrCase<"gelu_tanh", 35>,
  I32EnumAttrCase<"hard_swish", 36>, I32EnumAttrCase<"mish", 37>,
  // Float only, parameterized by `alpha` (and `beta` where noted).
  I32EnumAttrCase<"leaky_relu", 50>, I32EnumAttrCase<"elu", 51>,
  I32EnumAttrCase<"celu", 52>, I32EnumAttrCase<"thresholded_relu", 53>,
  I32EnumAttrCase<"selu", 54>,        // alpha, beta = gamma
  I32EnumAttrCase<"hard_sigmoid", 55>,// alpha, beta
  I32EnumAttrCase<"shrink", 56>,      // alpha = lambd, beta = bias
  // Booleans and integers.
  I32EnumAttrCase<"logical_not", 70, "not">, I32EnumAttrCase<"bitwise_not", 71>
]>;

def Tile_BinaryKindAttr : Tile_I32Enum<"BinaryKind", "element-wise binary function", [
  I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"sub", 1>,
  I32EnumAttrCase<"mul", 2>, I32EnumAttrCase<"div", 3>,
  I32EnumAttrCase<"max", 4>, I32EnumAttrCase<"min", 5>,
  I32EnumAttrCase<"pow", 6>,
  // Integer remainder with the sign of the divisor (Python `%`).
  I32EnumAttrCase<"mod", 7>,
  // Remainder with the sign of the dividend (C `fmod`).
  I32EnumAttrCase<"rem", 8>,
  // x < 0 ? slope * x : x, with the slope as the right operand.
  I32EnumAttrCase<"prelu", 9>,
  I32EnumAttrCase<"logical_and", 20, "and">,
  I32EnumAttrCase<"logical_or", 21, "or">,
  I32EnumAttrCase<"logical_xor", 22, "xor">,
  I32EnumAttrCase<"bitwise_and", 30>, I32EnumAttrCase<"bitwise_or", 31>,
  I32EnumAttrCase<"bitwise_xor", 32>, I32EnumAttrCase<"shift_left", 33>,
  I32EnumAttrCase<"shift_right", 34>
]>;

def Tile_ComparePredicateAttr : Tile_I32Enum<"ComparePredicate",
    "element-wise comparison", [
  I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
  I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
  I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>
]>;

def Tile_ClassifyKindAttr : Tile_I32Enum<"ClassifyKind",
    "floating-point class test", [
  I32EnumAttrCase<"nan", 0>, I32EnumAttrCase<"inf", 1>,
  I32EnumAttrCase<"pos_inf", 2>, I32EnumAttrCase<"neg_inf", 3>
]>;

def Tile_ReduceKindAttr : Tile_I32Enum<"ReduceKind", "reduction function", [
  I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"mean", 1>,
  I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
  I32EnumAttrCase<"prod", 4>, I32EnumAttrCase<"l1", 5>,
  I32EnumAttrCase<"l2", 6>, I32EnumAttrCase<"log_sum", 7>,
  I32EnumAttrCase<"log_sum_exp", 8>, I32EnumAttrCase<"sum_square", 9>
]>;

def Tile_ArgKindAttr : Tile_I32Enum<"ArgKind", "arg-reduction function", [
  I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"min", 1>
]>;

def Tile_PoolKindAttr : Tile_I32Enum<"PoolKind", "pooling function", [
  I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"avg", 1>,
  I32EnumAttrCase<"lp", 2>
]>;

def Tile_PadModeAttr : Tile_I32Enum<"PadMode", "padding mode", [
  I32EnumAttrCase<"constant", 0>, I32EnumAttrCase<"reflect", 1>,
  I32EnumAttrCase<"edge", 2>, I32EnumAttrCase<"wrap", 3>
]>;

def Tile_ScatterReductionAttr : Tile_I32Enum<"ScatterReduction",
    "how scattered updates combine with the existing value", [
  I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"add", 1>,
  I32EnumAttrCase<"mul", 2>, I32EnumAttrCase<"max", 3>,
  I32EnumAttrCase<"min", 4>
]>;

def Tile_ResizeModeAttr : Tile_I32Enum<"ResizeMode", "resize interpolation", [
  I32EnumAttrCase<"nearest", 0>, I32EnumAttrCase<"linear", 1>,
  I32EnumAttrCase<"cubic", 2>
]>;

def Tile_CoordinateTransformAttr : Tile_I32Enum<"CoordinateTransform",
    "how resize maps output coordinates to input coordinates", [
  I32EnumAttrCase<"half_pixel", 0>, I32EnumAttrCase<"half_pixel_symmetric", 1>,
  I32EnumAttrCase<"pytorch_half_pixel", 2>, I32EnumAttrCase<"align_corners", 3>,
  I32EnumAttrCase<"asymmetric", 4>, I32EnumAttrCase<"tf_crop_and_resize", 5>
]>;

def Tile_NearestModeAttr : Tile_I32Enum<"NearestMode",
    "rounding of nearest-neighbour resize", [
  I32EnumAttrCase<"round_prefer_floor", 0>,
  I32EnumAttrCase<"round_prefer_ceil", 1>,
  I32EnumAttrCase<"floor", 2>, I32EnumAttrCase<"ceil", 3>
]>;

#endif // AICC_DIALECTS_TILE_IR_TILEATTRS_TD
