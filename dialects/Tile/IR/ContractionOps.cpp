//===- ContractionOps.cpp - matmul, convolution, pooling ------------------===//

#include "Tile/IR/TileOpUtils.h"
#include "Tile/IR/TileOps.h"

using namespace mlir;
using namespace aicc::tile;
using namespace aicc::tile::detail;

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType lhs = tensorTypeOf(adaptor.getLhs());
  RankedTensorType rhs = tensorTypeOf(adaptor.getRhs());
  if (!lhs || !rhs)
    return emitOptionalError(loc, "operands must be ranked tensors");
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOptionalError(loc, "operands must have rank 2 or more, got ",
                             lhs.getRank(), " and ", rhs.getRank());
  FailureOr<Type> element =
      contractionResultType(loc, lhs.getElementType(), rhs.getElementType());
  if (failed(element))
    return failure();

  ArrayRef<int64_t> l = lhs.getShape(), r = rhs.getShape();
  bool tl = adaptor.getTransposeLhs(), tr = adaptor.getTransposeRhs();
  int64_t m = l[l.size() - (tl ? 1 : 2)], kl = l[l.size() - (tl ? 2 : 1)];
  int64_t kr = r[r.size() - (tr ? 1 : 2)], n = r[r.size() - (tr ? 2 : 1)];
  if (!ShapedType::isDynamic(kl) && !ShapedType::isDynamic(kr) && kl != kr)
    return emitOptionalError(loc, "contraction sizes differ: lhs has ", kl,
                             " and rhs has ", kr);

  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(loc, {l.drop_back(2), r.drop_back(2)}, shape)))
    return failure();
  shape.push_back(m);
  shape.push_back(n);
  inferred.push_back(RankedTensorType::get(shape, *element));
  return success();
}

//===----------------------------------------------------------------------===//
// ConvOp, ConvTransposeOp
//===----------------------------------------------------------------------===//

namespace {
/// The operands and attributes that conv and conv_transpose share, checked.
struct ConvOperands {
  RankedTensorType input, filter;
  Type element;
  int64_t spatial;
};
} // namespace

static FailureOr<ConvOperands>
checkConvOperands(Loc loc, Value input, Value filter, Value bias,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                  ArrayRef<int64_t> padding, int64_t groups) {
  ConvOperands c;
  c.input = tensorTypeOf(input);
  c.filter = tensorTypeOf(filter);
  if (!c.input || !c.filter)
    return emitOptionalError(loc, "operands must be ranked tensors");
  if (c.input.getRank() < 3)
    return emitOptionalError(loc,
                             "input must have rank 3 or more (N x C x "
                             "spatial...), got ",
                             c.input.getRank());
  if (c.filter.getRank() != c.input.getRank())
    return emitOptionalError(loc, "filter has rank ", c.filter.getRank(),
                             " but input has rank ", c.input.getRank());
  c.spatial = c.input.getRank() - 2;
  if (failed(checkArray(loc, "strides", strides, c.spatial, 1)) ||
      failed(checkArray(loc, "dilations", dilations, c.spatial, 1)) ||
      failed(checkArray(loc, "padding", padding, 2 * c.spatial, 0)))
    return failure();
  if (groups < 1)
    return emitOptionalError(loc, "groups must be positive, got ", groups);
  FailureOr<Type> element = contractionResultType(loc, c.input.getElementType(),
                                                  c.filter.getElementType());
  if (failed(element))
    return failure();
  c.element = *element;
  if (bias) {
    RankedTensorType biasType = tensorTypeOf(bias);
    if (!biasType || biasType.getElementType() != c.element)
      return emitOptionalError(loc, "bias element type must be ", c.element);
  }
  return c;
}

static bool isStatic(int64_t size) { return !ShapedType::isDynamic(size); }

LogicalResult ConvOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  int64_t groups = adaptor.getGroups();
  FailureOr<ConvOperands> c =
      checkConvOperands(loc, adaptor.getInput(), adaptor.getFilter(),
                        adaptor.getBias(), adaptor.getStrides(),
                        adaptor.getDilations(), adaptor.getPadding(), groups);
  if (failed(c))
    return failure();
  // Channels first (N x C x D..., M x C/g x K...) or last (N x D... x C,
  // M x K... x C/g): positions of the channel and first spatial dimension.
  bool last = adaptor.getChannelsLast();
  int64_t rank = c->input.getRank();
  int64_t channel = last ? rank - 1 : 1, space = last ? 1 : 2;
  ArrayRef<int64_t> in = c->input.getShape(), f = c->filter.getShape();
  int64_t channels = in[channel], perGroup = f[channel], outChannels = f[0];
  if (isStatic(channels) && channels % groups != 0)
    return emitOptionalError(loc, "input channels ", channels,
                             " are not divisible by groups ", groups);
  if (isStatic(channels) && isStatic(perGroup) && perGroup * groups != channels)
    return emitOptionalError(loc, "filter expects ", perGroup * groups,
                             " input channels (", perGroup, " x ", groups,
                             " groups) but input has ", channels);
  if (isStatic(outChannels) && outChannels % groups != 0)
    return emitOptionalError(loc, "output channels ", outChannels,
                             " are not divisible by groups ", groups);
  if (adaptor.getBias() &&
      failed(checkPerChannel(loc, "bias", adaptor.getBias(), outChannels)))
    return failure();

  SmallVector<int64_t> shape = {in[0]};
  if (!last)
    shape.push_back(outChannels);
  for (int64_t d = 0; d < c->spatial; ++d)
    shape.push_back(
        windowOutputSize(in[d + space], f[d + space], adaptor.getStrides()[d],
                         adaptor.getDilations()[d], adaptor.getPadding()[d],
                         adaptor.getPadding()[d + c->spatial],
                         /*ceilMode=*/false));
  if (last)
    shape.push_back(outChannels);
  if (failed(checkOutputSizes(loc, ArrayRef(shape).drop_back(last ? 1 : 0),
                              space)))
    return failure();
  inferred.push_back(RankedTensorType::get(shape, c->element));
  return success();
}

LogicalResult
ConvTransposeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                  Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  int64_t groups = adaptor.getGroups();
  FailureOr<ConvOperands> c =
      checkConvOperands(loc, adaptor.getInput(), adaptor.getFilter(),
                        adaptor.getBias(), adaptor.getStrides(),
                        adaptor.getDilations(), adaptor.getPadding(), groups);
  if (failed(c))
    return failure();
  ArrayRef<int64_t> outputPadding = adaptor.getOutputPadding();
  if (failed(checkArray(loc, "output_padding", outputPadding, c->spatial, 0)))
    return failure();
  ArrayRef<int64_t> in = c->input.getShape(), f = c->filter.getShape();
  int64_t channels = in[1];
  if (isStatic(channels) && isStatic(f[0]) && channels != f[0])
    return emitOptionalError(loc, "filter expects ", f[0],
                             " input channels but input has ", channels);
  if (isStatic(channels) && channels % groups != 0)
    return emitOptionalError(loc, "input channels ", channels,
                             " are not divisible by groups ", groups);
  int64_t outChannels = isStatic(f[1])
                            ? f[1] * groups
                            : static_cast<int64_t>(ShapedType::kDynamic);
  if (adaptor.getBias() &&
      failed(checkPerChannel(loc, "bias", adaptor.getBias(), outChannels)))
    return failure();

  SmallVector<int64_t> shape = {in[0], outChannels};
  for (int64_t d = 0; d < c->spatial; ++d) {
    int64_t stride = adaptor.getStrides()[d];
    int64_t dilation = adaptor.getDilations()[d];
    if (outputPadding[d] >= stride && outputPadding[d] >= dilation)
      return emitOptionalError(loc, "output_padding ", outputPadding[d],
                               " must be smaller than the stride or the "
                               "dilation of spatial dimension ",
                               d);
    if (!isStatic(in[d + 2]) || !isStatic(f[d + 2])) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    shape.push_back(stride * (in[d + 2] - 1) + outputPadding[d] +
                    dilation * (f[d + 2] - 1) + 1 - adaptor.getPadding()[d] -
                    adaptor.getPadding()[d + c->spatial]);
  }
  if (failed(checkOutputSizes(loc, shape, 2)))
    return failure();
  inferred.push_back(RankedTensorType::get(shape, c->element));
  return success();
}

//===----------------------------------------------------------------------===//
// PoolOp, GlobalPoolOp
//===----------------------------------------------------------------------===//

/// Checks the element type and the `p` attribute of a pooling kind.
static LogicalResult checkPoolKind(Loc loc, PoolKind kind, Type element,
                                   std::optional<uint64_t> p) {
  if (kind == PoolKind::max ? !isNumeric(element) : !isFloat(element))
    return emitOptionalError(loc, "'", stringifyPoolKind(kind),
                             "' pooling does not take element type ", element);
  if (kind != PoolKind::lp && p)
    return emitOptionalError(loc, "only 'lp' pooling takes 'p'");
  if (kind == PoolKind::lp && p && static_cast<int64_t>(*p) < 1)
    return emitOptionalError(loc, "'p' must be positive, got ",
                             static_cast<int64_t>(*p));
  return success();
}

LogicalResult PoolOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input || input.getRank() < 3)
    return emitOptionalError(loc, "input must have rank 3 or more (N x C x "
                                  "spatial...)");
  int64_t spatial = input.getRank() - 2;
  ArrayRef<int64_t> kernel = adaptor.getKernel();
  ArrayRef<int64_t> strides = adaptor.getStrides();
  ArrayRef<int64_t> dilations = adaptor.getDilations();
  ArrayRef<int64_t> padding = adaptor.getPadding();
  if (failed(checkArray(loc, "kernel", kernel, spatial, 1)) ||
      failed(checkArray(loc, "strides", strides, spatial, 1)) ||
      failed(checkArray(loc, "dilations", dilations, spatial, 1)) ||
      failed(checkArray(loc, "padding", padding, 2 * spatial, 0)))
    return failure();
  // N x C x D... or, channels last, N x D... x C.
  bool last = adaptor.getChannelsLast();
  int64_t first = last ? 1 : 2;
  SmallVector<int64_t> shape(input.getShape().take_front(first));
  for (int64_t d = 0; d < spatial; ++d)
    shape.push_back(windowOutputSize(
        input.getDimSize(d + first), kernel[d], strides[d], dilations[d],
        padding[d], padding[d + spatial], adaptor.getCeilMode()));
  if (last)
    shape.push_back(input.getShape().back());
  if (failed(checkOutputSizes(loc, ArrayRef(shape).drop_back(last ? 1 : 0),
                              first)))
    return failure();
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult PoolOp::verify() {
  if (failed(checkPoolKind(getLoc(), getKind(),
                           getInput().getType().getElementType(), getP())))
    return failure();
  if (getCountIncludePad() && getKind() != PoolKind::avg)
    return emitOpError("only 'avg' pooling takes 'count_include_pad'");
  return success();
}

LogicalResult GlobalPoolOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input || input.getRank() < 3)
    return emitOptionalError(loc, "input must have rank 3 or more (N x C x "
                                  "spatial...)");
  SmallVector<int64_t> shape(input.getShape().take_front(2));
  shape.append(input.getRank() - 2, 1);
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult GlobalPoolOp::verify() {
  return checkPoolKind(getLoc(), getKind(),
                       getInput().getType().getElementType(), getP());
}
