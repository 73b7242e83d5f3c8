//===- NN.cpp - Convolution, pooling, normalization, resize ---------------===//

#include "../ImporterInternal.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

bool isStatic(int64_t size) { return !ShapedType::isDynamic(size); }

/// The window attributes ONNX's convolution and pooling share, resolved:
/// strides, dilations and explicit padding (auto_pad applied).
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, padding;
};

/// Reads strides, dilations, pads and auto_pad for a window of `kernel` over
/// the spatial dimensions of `input`.
std::optional<Window> readWindow(NodeContext &c, Value input,
                                 ArrayRef<int64_t> kernel,
                                 bool hasDilations = true) {
  RankedTensorType type = NodeContext::typeOf(input);
  if (!type)
    return c.fail(), std::nullopt;
  size_t spatial = kernel.size();
  if (type.getRank() != static_cast<int64_t>(spatial) + 2) {
    c.error() << "input must have rank " << spatial + 2
              << " (N x C and one dimension per kernel dimension), got "
              << type.getRank();
    return std::nullopt;
  }
  Window w;
  w.kernel.assign(kernel.begin(), kernel.end());
  w.strides = c.getInts("strides").value_or(SmallVector<int64_t>(spatial, 1));
  w.dilations =
      hasDilations
          ? c.getInts("dilations").value_or(SmallVector<int64_t>(spatial, 1))
          : SmallVector<int64_t>(spatial, 1);
  w.padding = c.getInts("pads").value_or(SmallVector<int64_t>(2 * spatial, 0));
  if (w.strides.size() != spatial || w.dilations.size() != spatial ||
      w.padding.size() != 2 * spatial) {
    c.error() << "strides, dilations and pads must match the " << spatial
              << " spatial dimensions";
    return std::nullopt;
  }
  std::string autoPad = c.getString("auto_pad", "NOTSET");
  if (autoPad == "VALID") {
    w.padding.assign(2 * spatial, 0);
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t d = 0; d < spatial; ++d) {
      int64_t in = type.getDimSize(d + 2);
      if (!isStatic(in)) {
        c.error() << "auto_pad " << autoPad
                  << " needs static spatial dimensions";
        return std::nullopt;
      }
      int64_t s = w.strides[d];
      int64_t out = llvm::divideCeil(in, s);
      int64_t total = std::max<int64_t>(
          0, (out - 1) * s + (w.kernel[d] - 1) * w.dilations[d] + 1 - in);
      int64_t lo = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.padding[d] = lo;
      w.padding[d + spatial] = total - lo;
    }
  } else if (autoPad != "NOTSET") {
    c.error() << "unknown auto_pad '" << autoPad << "'";
    return std::nullopt;
  }
  return w;
}

/// The kernel shape of a convolution: the attribute, or the filter's
/// spatial dimensions.
std::optional<SmallVector<int64_t>> convKernel(NodeContext &c, Value filter) {
  if (std::optional<SmallVector<int64_t>> kernel = c.getInts("kernel_shape"))
    return kernel;
  RankedTensorType type = NodeContext::typeOf(filter);
  if (!type)
    return c.fail(), std::nullopt;
  if (type.getRank() < 3) {
    c.error() << "the filter has rank " << type.getRank()
              << "; a convolution's filter has rank 3 or more";
    return std::nullopt;
  }
  SmallVector<int64_t> kernel(type.getShape().drop_front(2));
  if (llvm::any_of(kernel, [](int64_t k) { return !isStatic(k); })) {
    c.error() << "the filter's spatial dimensions must be static";
    return std::nullopt;
  }
  return kernel;
}

Value buildConv(NodeContext &c, Value x, Value w, Value bias) {
  std::optional<SmallVector<int64_t>> kernel = convKernel(c, w);
  if (!kernel)
    return c.fail();
  std::optional<Window> window = readWindow(c, x, *kernel);
  if (!window)
    return c.fail();
  ConvOp::Properties properties;
  OpBuilder &b = c.builder();
  properties.setStrides(b.getDenseI64ArrayAttr(window->strides));
  properties.setDilations(b.getDenseI64ArrayAttr(window->dilations));
  properties.setPadding(b.getDenseI64ArrayAttr(window->padding));
  properties.setGroups(b.getI64IntegerAttr(c.getInt("group", 1)));
  SmallVector<Value> operands = {x, w};
  if (bias)
    operands.push_back(bias);
  return c.create<ConvOp>(operands, properties);
}

LogicalResult convertConv(NodeContext &c) {
  return c.setOutputs(
      {buildConv(c, c.input(0), c.input(1), c.optionalInput(2))});
}

LogicalResult convertConvInteger(NodeContext &c) {
  Type i32 = c.builder().getI32Type();
  // (Zero points known to be 0 are left out, as for MatMulInteger.)
  Value x = c.cast(c.input(0), i32);
  if (Value zp = c.optionalInput(2); zp && !isZeroConstant(c, zp))
    x = c.binary(BinaryKind::sub, x, c.cast(zp, i32));
  Value w = c.cast(c.input(1), i32);
  if (Value zp = c.optionalInput(3); zp && !isZeroConstant(c, zp)) {
    zp = c.cast(zp, i32);
    RankedTensorType zpType = NodeContext::typeOf(zp);
    RankedTensorType wType = NodeContext::typeOf(w);
    if (zpType && wType && zpType.getRank() == 1 && zpType.getDimSize(0) != 1) {
      // One zero point per output channel.
      SmallVector<int64_t> shape(wType.getRank(), 1);
      shape[0] = zpType.getDimSize(0);
      zp = c.reshape(zp, shape);
    }
    w = c.binary(BinaryKind::sub, w, zp);
  }
  return c.setOutputs({buildConv(c, x, w, Value())});
}

LogicalResult convertConvTranspose(NodeContext &c) {
  Value x = c.input(0), w = c.input(1), bias = c.optionalInput(2);
  std::optional<SmallVector<int64_t>> kernel = convKernel(c, w);
  if (!kernel)
    return failure();
  size_t spatial = kernel->size();
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  SmallVector<int64_t> strides =
      c.getInts("strides").value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> dilations =
      c.getInts("dilations").value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> outputPadding =
      c.getInts("output_padding").value_or(SmallVector<int64_t>(spatial, 0));
  SmallVector<int64_t> pads =
      c.getInts("pads").value_or(SmallVector<int64_t>(2 * spatial, 0));
  if (strides.size() != spatial || dilations.size() != spatial ||
      outputPadding.size() != spatial || pads.size() != 2 * spatial ||
      type.getRank() != static_cast<int64_t>(spatial) + 2) {
    c.error() << "strides, dilations, output_padding and pads must match the "
              << spatial << " spatial dimensions of the input";
    return failure();
  }
  std::string autoPad = c.getString("auto_pad", "NOTSET");
  std::optional<SmallVector<int64_t>> outputShape = c.getInts("output_shape");
  if (outputShape && outputShape->size() > spatial)
    outputShape->erase(outputShape->begin(), outputShape->end() - spatial);
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  if (outputShape || same) {
    for (size_t d = 0; d < spatial; ++d) {
      int64_t in = type.getDimSize(d + 2);
      if (!isStatic(in)) {
        c.error() << "output_shape and auto_pad need static spatial "
                     "dimensions";
        return failure();
      }
      int64_t out = outputShape ? (*outputShape)[d] : in * strides[d];
      int64_t total = strides[d] * (in - 1) + outputPadding[d] +
                      (((*kernel)[d] - 1) * dilations[d] + 1) - out;
      if (total < 0) {
        // The output is larger than the transposed convolution produces:
        // grow it with output padding.
        outputPadding[d] -= total;
        total = 0;
      }
      // ONNX: SAME_UPPER puts the smaller half first; otherwise the larger.
      bool upper = autoPad == "SAME_UPPER";
      pads[d] = upper ? total / 2 : total - total / 2;
      pads[d + spatial] = total - pads[d];
    }
  } else if (autoPad == "VALID") {
    pads.assign(2 * spatial, 0);
  }
  ConvTransposeOp::Properties properties;
  OpBuilder &b = c.builder();
  properties.setStrides(b.getDenseI64ArrayAttr(strides));
  properties.setDilations(b.getDenseI64ArrayAttr(dilations));
  properties.setPadding(b.getDenseI64ArrayAttr(pads));
  properties.setOutputPadding(b.getDenseI64ArrayAttr(outputPadding));
  properties.setGroups(b.getI64IntegerAttr(c.getInt("group", 1)));
  SmallVector<Value> operands = {x, w};
  if (bias)
    operands.push_back(bias);
  return c.setOutputs({c.create<ConvTransposeOp>(operands, properties)});
}

} // namespace

Value buildPool(NodeContext &c, Value x, PoolKind kind) {
  std::optional<SmallVector<int64_t>> kernel = c.getInts("kernel_shape");
  if (!kernel) {
    c.error() << "attribute 'kernel_shape' is required";
    return c.fail();
  }
  bool hasDilations = kind == PoolKind::max ? c.opset >= 10 : c.opset >= 18;
  std::optional<Window> window = readWindow(c, x, *kernel, hasDilations);
  if (!window)
    return c.fail();
  PoolOp::Properties properties;
  OpBuilder &b = c.builder();
  properties.setKind(PoolKindAttr::get(c.getContext(), kind));
  properties.setKernel(b.getDenseI64ArrayAttr(window->kernel));
  properties.setStrides(b.getDenseI64ArrayAttr(window->strides));
  properties.setDilations(b.getDenseI64ArrayAttr(window->dilations));
  properties.setPadding(b.getDenseI64ArrayAttr(window->padding));
  if (c.getInt("ceil_mode", 0))
    properties.setCeilMode(b.getUnitAttr());
  if (kind == PoolKind::avg && c.getInt("count_include_pad", 0))
    properties.setCountIncludePad(b.getUnitAttr());
  if (kind == PoolKind::lp) {
    // LpPool-1 stored p as a float.
    const onnx::AttributeProto *p = c.attribute("p");
    int64_t norm = !p ? 2 : p->has_f() ? int64_t(p->f()) : p->i();
    properties.setP(b.getI64IntegerAttr(norm));
  }
  return c.create<PoolOp>({x}, properties);
}

namespace {

Converter poolConverter(PoolKind kind) {
  return [kind](NodeContext &c) -> LogicalResult {
    if (c.hasOutput(1)) {
      c.error() << "the Indices output is not supported";
      return failure();
    }
    return c.setOutputs({buildPool(c, c.input(0), kind)});
  };
}

Converter globalPoolConverter(PoolKind kind) {
  return [kind](NodeContext &c) {
    GlobalPoolOp::Properties properties;
    properties.setKind(PoolKindAttr::get(c.getContext(), kind));
    if (kind == PoolKind::lp) {
      const onnx::AttributeProto *p = c.attribute("p");
      int64_t norm = !p ? 2 : p->has_f() ? int64_t(p->f()) : p->i();
      properties.setP(c.builder().getI64IntegerAttr(norm));
    }
    return c.setOutputs({c.create<GlobalPoolOp>({c.input(0)}, properties)});
  };
}

LogicalResult convertMaxUnpool(NodeContext &c) {
  Value x = c.input(0), indices = c.input(1);
  std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
  std::optional<SmallVector<int64_t>> kernel = c.getInts("kernel_shape");
  if (!shape || !kernel)
    return c.fail(), failure();
  size_t spatial = kernel->size();
  SmallVector<int64_t> strides =
      c.getInts("strides").value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> pads =
      c.getInts("pads").value_or(SmallVector<int64_t>(2 * spatial, 0));
  // The attributes and shapes come from the file: checked before use.
  if (spatial == 0 || shape->size() != spatial + 2 ||
      strides.size() != spatial || pads.size() != 2 * spatial) {
    c.error() << "kernel_shape, strides and pads must describe the "
              << (shape->size() >= 2 ? shape->size() - 2 : 0)
              << " spatial dimensions of the input";
    return failure();
  }
  if (llvm::any_of(*kernel, [](int64_t k) { return k < 1; }) ||
      llvm::any_of(strides, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(pads, [](int64_t v) { return v < 0; })) {
    c.error() << "kernel sizes and strides must be positive and pads "
                 "non-negative";
    return failure();
  }
  std::optional<SmallVector<int64_t>> indexShape =
      c.staticShape(indices, "the indices");
  if (!indexShape)
    return c.fail(), failure();
  if (*indexShape != *shape) {
    c.error() << "the indices must have the input's shape";
    return failure();
  }
  // MaxPool's indices address the output shape the pooling parameters
  // imply; an explicit output_shape only enlarges the result around it.
  SmallVector<int64_t> defaultShape = {(*shape)[0], (*shape)[1]};
  for (size_t d = 0; d < spatial; ++d) {
    __int128 size = (__int128((*shape)[d + 2]) - 1) * strides[d] +
                    (*kernel)[d] - pads[d] - pads[d + spatial];
    if (size < 1 || size > std::numeric_limits<int64_t>::max()) {
      c.error() << "spatial dimension " << d << " of the output would have "
                << "size " << static_cast<double>(size);
      return failure();
    }
    defaultShape.push_back(static_cast<int64_t>(size));
  }
  SmallVector<int64_t> outShape = defaultShape;
  if (c.hasInput(2)) {
    std::optional<SmallVector<int64_t>> given = c.knownInts(2);
    if (!given && !c.failed())
      given = c.requireDeclaredShape(0, "output_shape");
    if (!given)
      return failure();
    outShape = *given;
    if (outShape.size() != defaultShape.size()) {
      c.error() << "output_shape has " << outShape.size()
                << " entries for rank " << defaultShape.size();
      return failure();
    }
  }
  FailureOr<int64_t> outCount = checkedElementCount(outShape);
  FailureOr<int64_t> inElements = checkedElementCount(*shape);
  if (mlir::failed(outCount) || mlir::failed(inElements)) {
    c.error() << "invalid output shape";
    return failure();
  }
  // The indices address the output as one flat row (as MaxPool made them).
  Type element = NodeContext::typeOf(x).getElementType();
  Value zeros = c.splat(element, 0.0, {*outCount});
  ScatterElementsOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(0));
  properties.setReduction(
      ScatterReductionAttr::get(c.getContext(), ScatterReduction::none));
  int64_t inCount = *inElements;
  Value flatIndices = c.reshape(indices, {inCount});
  if (c.failed())
    return failure();
  if (outShape != defaultShape) {
    // Re-address: flat index in the default shape -> coordinates -> flat
    // index in the output shape.
    Type indexType = NodeContext::typeOf(flatIndices).getElementType();
    if (indexType != c.builder().getI64Type())
      flatIndices = c.cast(flatIndices, c.builder().getI64Type());
    Value remaining = flatIndices;
    Value relocated = c.i64Scalar(0);
    int64_t outStride = 1;
    for (int64_t d = static_cast<int64_t>(defaultShape.size()) - 1; d >= 0;
         --d) {
      Value size = c.i64Scalar(defaultShape[d]);
      Value coordinate = c.binary(BinaryKind::mod, remaining, size);
      remaining = c.binary(BinaryKind::div, remaining, size);
      relocated = c.binary(
          BinaryKind::add, relocated,
          c.binary(BinaryKind::mul, coordinate, c.i64Scalar(outStride)));
      outStride *= outShape[d];
    }
    flatIndices = relocated;
  }
  Value flat = c.create<ScatterElementsOp>(
      {zeros, flatIndices, c.reshape(x, {inCount})}, properties);
  return c.setOutputs({c.reshape(flat, outShape)});
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

double epsilonOf(NodeContext &c) { return c.getFloat("epsilon", 1e-5); }

LogicalResult convertBatchNorm(NodeContext &c) {
  if (c.opset < 7 && c.getInt("spatial", 1) == 0) {
    c.error() << "spatial = 0 (per-activation statistics) is not supported";
    return failure();
  }
  if (c.opset >= 14 && c.getInt("training_mode", 0)) {
    c.error() << "training mode is not supported";
    return failure();
  }
  for (size_t i = 1; i < c.numOutputs(); ++i)
    if (c.hasOutput(i)) {
      c.error() << "the running-statistics outputs exist only in training "
                   "mode, which is not supported";
      return failure();
    }
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  SmallVector<Value> operands = {x};
  for (size_t i = 1; i < 5; ++i)
    operands.push_back(c.cast(c.input(i), type.getElementType()));
  BatchNormOp::Properties properties;
  properties.setEpsilon(c.builder().getF64FloatAttr(epsilonOf(c)));
  return c.setOutputs({c.create<BatchNormOp>(operands, properties)});
}

LogicalResult convertInstanceNorm(NodeContext &c) {
  InstanceNormOp::Properties properties;
  properties.setEpsilon(c.builder().getF64FloatAttr(epsilonOf(c)));
  return c.setOutputs({c.create<InstanceNormOp>(
      {c.input(0), c.input(1), c.input(2)}, properties)});
}

LogicalResult convertLayerNorm(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  std::optional<int64_t> axis =
      c.normalizeAxis(c.getInt("axis", -1), type.getRank());
  if (!axis)
    return failure();
  double epsilon = epsilonOf(c);
  LayerNormOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(*axis));
  properties.setEpsilon(c.builder().getF64FloatAttr(epsilon));
  SmallVector<Value> operands = {x, c.input(1)};
  if (Value bias = c.optionalInput(2))
    operands.push_back(bias);
  Value y = c.create<LayerNormOp>(operands, properties);

  // The optional Mean and InvStdDev outputs, in the stash type (f32).
  Value mean, invStdDev;
  if (c.hasOutput(1) || c.hasOutput(2)) {
    Value wide = c.cast(x, c.builder().getF32Type());
    SmallVector<int64_t> axes =
        llvm::to_vector(llvm::seq<int64_t>(*axis, type.getRank()));
    mean = c.reduce(ReduceKind::mean, wide, axes, true);
    Value centered = c.binary(BinaryKind::sub, wide, mean);
    Value variance =
        c.reduce(ReduceKind::mean,
                 c.binary(BinaryKind::mul, centered, centered), axes, true);
    invStdDev =
        c.unary(UnaryKind::rsqrt, c.binary(BinaryKind::add, variance,
                                           c.scalarLike(variance, epsilon)));
  }
  return c.setOutputs({y, mean, invStdDev});
}

LogicalResult convertGroupNorm(NodeContext &c) {
  Value x = c.input(0), scale = c.input(1), bias = c.input(2);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  int64_t groups = c.getInt("num_groups", 0);
  int64_t channels = type.getRank() >= 2 ? type.getDimSize(1) : -1;
  RankedTensorType scaleType = NodeContext::typeOf(scale);
  if (scaleType && scaleType.getRank() == 1 && groups > 0 &&
      isStatic(channels) && channels % groups == 0 &&
      scaleType.getDimSize(0) == groups && groups != channels) {
    // Opset 18 gives one scale and bias per group: repeat them per channel.
    auto perChannel = [&](Value v) {
      Value column = c.reshape(v, {groups, 1});
      return c.reshape(c.expand(column, {groups, channels / groups}),
                       {channels});
    };
    scale = perChannel(scale);
    bias = perChannel(bias);
  }
  GroupNormOp::Properties properties;
  properties.setNumGroups(c.builder().getI64IntegerAttr(groups));
  properties.setEpsilon(c.builder().getF64FloatAttr(epsilonOf(c)));
  return c.setOutputs(
      {c.create<GroupNormOp>({x, c.cast(scale, type.getElementType()),
                              c.cast(bias, type.getElementType())},
                             properties)});
}

LogicalResult convertLRN(NodeContext &c) {
  LrnOp::Properties properties;
  OpBuilder &b = c.builder();
  std::optional<int64_t> size = c.getOptionalInt("size");
  if (!size) {
    c.error() << "attribute 'size' is required";
    return failure();
  }
  properties.setSize(b.getI64IntegerAttr(*size));
  properties.setAlpha(b.getF64FloatAttr(c.getFloat("alpha", 1e-4)));
  properties.setBeta(b.getF64FloatAttr(c.getFloat("beta", 0.75)));
  properties.setBias(b.getF64FloatAttr(c.getFloat("bias", 1.0)));
  return c.setOutputs({c.create<LrnOp>({c.input(0)}, properties)});
}

LogicalResult convertLpNormalization(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  std::optional<int64_t> axis =
      c.normalizeAxis(c.getInt("axis", -1), type.getRank());
  int64_t p = c.getInt("p", 2);
  if (!axis)
    return failure();
  if (p != 1 && p != 2) {
    c.error() << "p must be 1 or 2, got " << p;
    return failure();
  }
  Value norm =
      c.reduce(p == 1 ? ReduceKind::l1 : ReduceKind::l2, x, {*axis}, true);
  return c.setOutputs({c.binary(BinaryKind::div, x, norm)});
}

LogicalResult convertMeanVarianceNormalization(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  SmallVector<int64_t> axes =
      c.getInts("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  for (int64_t &axis : axes) {
    std::optional<int64_t> d = c.normalizeAxis(axis, type.getRank());
    if (!d)
      return failure();
    axis = *d;
  }
  llvm::sort(axes);
  // As ONNX's function body: (x - E[x]) / (sqrt(E[x²] - E[x]²) + 1e-9).
  Value mean = c.reduce(ReduceKind::mean, x, axes, true);
  Value meanOfSquares =
      c.reduce(ReduceKind::mean, c.binary(BinaryKind::mul, x, x), axes, true);
  Value variance = c.binary(BinaryKind::sub, meanOfSquares,
                            c.binary(BinaryKind::mul, mean, mean));
  Value deviation =
      c.binary(BinaryKind::add, c.unary(UnaryKind::sqrt, variance),
               c.scalarLike(x, 1e-9));
  return c.setOutputs({c.binary(
      BinaryKind::div, c.binary(BinaryKind::sub, x, mean), deviation)});
}

//===----------------------------------------------------------------------===//
// Resize and Upsample
//===----------------------------------------------------------------------===//

std::optional<ResizeMode> resizeMode(NodeContext &c, StringRef name) {
  if (name == "nearest")
    return ResizeMode::nearest;
  if (name == "linear" || name == "bilinear" || name == "trilinear")
    return ResizeMode::linear;
  if (name == "cubic" || name == "bicubic")
    return ResizeMode::cubic;
  c.error() << "unknown mode '" << name << "'";
  return std::nullopt;
}

/// Builds tile.resize of `x` to `outShape` with `scales` and the mode
/// attributes read from the node.
Value buildResize(NodeContext &c, Value x, ResizeMode mode,
                  ArrayRef<int64_t> outShape, ArrayRef<double> scales,
                  CoordinateTransform transform, NearestMode nearest,
                  std::optional<SmallVector<double>> roi,
                  Value dynamicScales = Value()) {
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return c.fail();
  OpBuilder &b = c.builder();
  ResizeOp::Properties properties;
  properties.setMode(ResizeModeAttr::get(c.getContext(), mode));
  properties.setScales(b.getDenseF64ArrayAttr(scales));
  properties.setCoordinateTransform(
      CoordinateTransformAttr::get(c.getContext(), transform));
  properties.setNearestMode(NearestModeAttr::get(c.getContext(), nearest));
  properties.setCubicCoeffA(
      b.getF64FloatAttr(c.getFloat("cubic_coeff_a", -0.75)));
  if (c.getInt("exclude_outside", 0))
    properties.setExcludeOutside(b.getUnitAttr());
  if (mode != ResizeMode::nearest && c.getInt("antialias", 0))
    properties.setAntialias(b.getUnitAttr());
  properties.setExtrapolationValue(
      b.getF64FloatAttr(c.getFloat("extrapolation_value", 0.0)));
  if (roi)
    properties.setRoi(b.getDenseF64ArrayAttr(*roi));
  SmallVector<Value> operands = {x};
  if (dynamicScales)
    operands.push_back(c.cast(dynamicScales, c.builder().getF32Type()));
  return c.createTyped<ResizeOp>(
      RankedTensorType::get(outShape, type.getElementType()), operands,
      properties);
}

LogicalResult convertUpsample(NodeContext &c) {
  Value x = c.input(0);
  std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
  if (!shape)
    return failure();
  std::optional<ResizeMode> mode =
      resizeMode(c, c.getString("mode", "nearest"));
  if (!mode)
    return failure();
  if (c.opset >= 9 && !c.constantValue(c.input(1))) {
    std::optional<SmallVector<int64_t>> out =
        c.requireDeclaredShape(0, "scales");
    if (!out || out->size() != shape->size())
      return c.fail(), failure();
    SmallVector<double> ratios;
    for (auto [o, i] : llvm::zip_equal(*out, *shape))
      ratios.push_back(double(o) / double(i));
    return c.setOutputs(
        {buildResize(c, x, *mode, *out, ratios, CoordinateTransform::asymmetric,
                     NearestMode::floor, std::nullopt, c.input(1))});
  }
  std::optional<SmallVector<double>> scales =
      c.opset < 9 ? c.getFloats("scales") : c.constantFloats(1, "scales");
  if (!scales)
    return c.fail(), failure();
  if (scales->size() != shape->size()) {
    c.error() << "scales has " << scales->size() << " entries for rank "
              << shape->size();
    return failure();
  }
  SmallVector<int64_t> out;
  for (auto [size, scale] : llvm::zip_equal(*shape, *scales))
    out.push_back(int64_t(std::floor(size * scale)));
  return c.setOutputs(
      {buildResize(c, x, *mode, out, *scales, CoordinateTransform::asymmetric,
                   NearestMode::floor, std::nullopt)});
}

LogicalResult convertResize(NodeContext &c) {
  Value x = c.input(0);
  std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
  std::optional<ResizeMode> mode =
      resizeMode(c, c.getString("mode", "nearest"));
  if (!shape || !mode)
    return c.fail(), failure();
  int64_t rank = shape->size();
  if (c.opset < 11) {
    std::optional<SmallVector<double>> scales = c.constantFloats(1, "scales");
    if (!scales)
      return failure();
    if (static_cast<int64_t>(scales->size()) != rank) {
      c.error() << "scales has " << scales->size() << " entries for rank "
                << rank;
      return failure();
    }
    SmallVector<int64_t> out;
    for (auto [size, scale] : llvm::zip_equal(*shape, *scales))
      out.push_back(int64_t(std::floor(size * scale)));
    return c.setOutputs(
        {buildResize(c, x, *mode, out, *scales, CoordinateTransform::asymmetric,
                     NearestMode::floor, std::nullopt)});
  }

  // The axes the scales/sizes/roi speak of (opset 18), all by default.
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (c.opset >= 18)
    if (std::optional<SmallVector<int64_t>> given = c.getInts("axes")) {
      axes.clear();
      for (int64_t axis : *given) {
        std::optional<int64_t> d = c.normalizeAxis(axis, rank);
        if (!d)
          return failure();
        axes.push_back(*d);
      }
    }
  // An input counts when present and not empty (opsets 11 and 12 pass an
  // empty tensor for the one that is not used).
  auto given = [&](size_t i) {
    if (!c.hasInput(i))
      return false;
    RankedTensorType type = NodeContext::typeOf(c.optionalInput(i));
    return type && !(type.hasStaticShape() && type.getNumElements() == 0);
  };
  auto known = [&](size_t i) {
    return given(i) && c.constantValue(c.input(i));
  };
  SmallVector<double> scales(rank, 1.0);
  SmallVector<int64_t> out(*shape);
  Value dynamicScales;
  if ((given(3) && !known(3)) || (!given(3) && given(2) && !known(2))) {
    // Run-time sizes or scales: the declared shape is the output's. Sizes
    // then fix the scales (output over input); run-time scales are passed on
    // for the coordinate mapping.
    std::optional<SmallVector<int64_t>> declared =
        c.requireDeclaredShape(0, given(3) ? "sizes" : "scales");
    if (!declared)
      return failure();
    if (static_cast<int64_t>(declared->size()) != rank) {
      c.error() << "the declared output rank differs from the input's";
      return failure();
    }
    if (!given(3) && axes.size() != static_cast<size_t>(rank)) {
      c.error() << "run-time scales for a subset of axes are not supported";
      return failure();
    }
    out = *declared;
    for (int64_t d = 0; d < rank; ++d)
      scales[d] = double(out[d]) / double((*shape)[d]);
    if (!given(3))
      dynamicScales = c.input(2);
  } else if (known(3)) {
    std::optional<SmallVector<int64_t>> sizes = c.constantInts(3, "sizes");
    if (!sizes)
      return failure();
    if (sizes->size() != axes.size()) {
      c.error() << "sizes has " << sizes->size() << " entries for "
                << axes.size() << " axes";
      return failure();
    }
    std::string policy = c.getString("keep_aspect_ratio_policy", "stretch");
    if (policy == "stretch") {
      for (auto [i, axis] : llvm::enumerate(axes)) {
        out[axis] = (*sizes)[i];
        scales[axis] = double(out[axis]) / double((*shape)[axis]);
      }
    } else if (policy == "not_larger" || policy == "not_smaller") {
      double scale = policy == "not_larger" ? INFINITY : 0.0;
      for (auto [i, axis] : llvm::enumerate(axes)) {
        double s = double((*sizes)[i]) / double((*shape)[axis]);
        scale =
            policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
      }
      for (int64_t axis : axes) {
        scales[axis] = scale;
        out[axis] = int64_t(std::round(scale * (*shape)[axis]));
      }
    } else {
      c.error() << "unknown keep_aspect_ratio_policy '" << policy << "'";
      return failure();
    }
  } else if (known(2)) {
    std::optional<SmallVector<double>> given = c.constantFloats(2, "scales");
    if (!given)
      return failure();
    if (given->size() != axes.size()) {
      c.error() << "scales has " << given->size() << " entries for "
                << axes.size() << " axes";
      return failure();
    }
    for (auto [i, axis] : llvm::enumerate(axes)) {
      scales[axis] = (*given)[i];
      out[axis] = int64_t(std::floor((*shape)[axis] * scales[axis]));
    }
  } else {
    c.error() << "needs constant scales or sizes";
    return failure();
  }

  static const std::pair<const char *, CoordinateTransform> transforms[] = {
      {"half_pixel", CoordinateTransform::half_pixel},
      {"half_pixel_symmetric", CoordinateTransform::half_pixel_symmetric},
      {"pytorch_half_pixel", CoordinateTransform::pytorch_half_pixel},
      {"align_corners", CoordinateTransform::align_corners},
      {"asymmetric", CoordinateTransform::asymmetric},
      {"tf_crop_and_resize", CoordinateTransform::tf_crop_and_resize}};
  std::string transformName =
      c.getString("coordinate_transformation_mode", "half_pixel");
  std::optional<CoordinateTransform> transform;
  for (const auto &[name, value] : transforms)
    if (transformName == name)
      transform = value;
  if (!transform) {
    c.error() << "coordinate_transformation_mode '" << transformName
              << "' is not supported";
    return failure();
  }
  static const std::pair<const char *, NearestMode> roundings[] = {
      {"round_prefer_floor", NearestMode::round_prefer_floor},
      {"round_prefer_ceil", NearestMode::round_prefer_ceil},
      {"floor", NearestMode::floor},
      {"ceil", NearestMode::ceil}};
  std::string nearestName = c.getString("nearest_mode", "round_prefer_floor");
  std::optional<NearestMode> nearest;
  for (const auto &[name, value] : roundings)
    if (nearestName == name)
      nearest = value;
  if (!nearest) {
    c.error() << "unknown nearest_mode '" << nearestName << "'";
    return failure();
  }
  std::optional<SmallVector<double>> roi;
  if (*transform == CoordinateTransform::tf_crop_and_resize) {
    std::optional<SmallVector<double>> given = c.constantFloats(1, "roi");
    if (!given)
      return failure();
    roi = SmallVector<double>(2 * rank, 0.0);
    for (int64_t d = 0; d < rank; ++d)
      (*roi)[d + rank] = 1.0;
    if (given->size() != 2 * axes.size()) {
      c.error() << "roi has " << given->size() << " entries for " << axes.size()
                << " axes";
      return failure();
    }
    for (auto [i, axis] : llvm::enumerate(axes)) {
      (*roi)[axis] = (*given)[i];
      (*roi)[axis + rank] = (*given)[i + axes.size()];
    }
  }
  return c.setOutputs({buildResize(c, x, *mode, out, scales, *transform,
                                   *nearest, roi, dynamicScales)});
}

} // namespace

void registerNNOps(OpTable &t) {
  t.add("Conv", 1, convertConv);
  t.add("ConvInteger", 10, convertConvInteger);
  t.add("ConvTranspose", 1, convertConvTranspose);
  t.add("MaxPool", 1, poolConverter(PoolKind::max));
  t.add("AveragePool", 1, poolConverter(PoolKind::avg));
  t.add("LpPool", 1, poolConverter(PoolKind::lp));
  t.add("GlobalMaxPool", 1, globalPoolConverter(PoolKind::max));
  t.add("GlobalAveragePool", 1, globalPoolConverter(PoolKind::avg));
  t.add("GlobalLpPool", 2, globalPoolConverter(PoolKind::lp));
  t.add("MaxUnpool", 9, convertMaxUnpool);
  t.add("BatchNormalization", 1, convertBatchNorm);
  t.add("InstanceNormalization", 1, convertInstanceNorm);
  t.add("LayerNormalization", 17, convertLayerNorm);
  t.add("GroupNormalization", 18, convertGroupNorm);
  t.add("LRN", 1, convertLRN);
  t.add("LpNormalization", 1, convertLpNormalization);
  t.add("MeanVarianceNormalization", 9, convertMeanVarianceNormalization);
  t.add("Upsample", 7, convertUpsample);
  t.add("Resize", 10, convertResize);
}

} // namespace aicc::onnx_importer
