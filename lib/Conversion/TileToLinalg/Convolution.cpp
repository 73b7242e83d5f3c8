//===- Convolution.cpp - Convolutions to linalg ---------------------------===//

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::tile_to_linalg {
namespace {

using utils::IteratorType;

/// A grouped convolution as one multiply-accumulate generic (`maps`,
/// `iterators`): `input` split into groups along `inputChannels`, the
/// filter along its first dimension, into a zero-filled output whose
/// dimension `resultChannels` is split the same way and merged back into
/// `resultType`.
Value groupedConvolution(OpBuilder &b, Location loc, Value input, Value filter,
                         int64_t inputChannels, RankedTensorType resultType,
                         int64_t resultChannels, int64_t groups,
                         ArrayRef<AffineMap> maps,
                         ArrayRef<IteratorType> iterators, bool inputUnsigned,
                         bool filterUnsigned) {
  Value groupedInput = splitGroups(b, loc, input, inputChannels, groups);
  Value groupedFilter = splitGroups(b, loc, filter, 0, groups);
  SmallVector<ReassociationIndices> merge;
  RankedTensorType groupedType =
      splitGroupsType(resultType, resultChannels, groups, merge);
  ScalarBuilder scalar{b, loc};
  Value init = filled(b, loc, groupedType,
                      scalar.constant(resultType.getElementType(), 0));
  auto generic = linalg::GenericOp::create(
      b, loc, groupedType, ValueRange{groupedInput, groupedFilter}, init, maps,
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l,
                                multiplyAccumulate(nb, l, args[0], args[1],
                                                   args[2], inputUnsigned,
                                                   filterUnsigned));
      });
  return tensor::CollapseShapeOp::create(b, loc, resultType,
                                         generic.getResult(0), merge);
}

/// Grouped N-d convolution of an already padded input, no bias, as one
/// generic over (n, g, m, o..., c, k..., o_last): the reductions come before
/// the innermost output dimension, so that the innermost loop walks an
/// output row and vectorizes. The form for depthwise and other small-channel
/// convolutions, where a matrix product would be degenerate.
Value convolveDirect(OpBuilder &b, Location loc, Value input, Value filter,
                     RankedTensorType resultType, ArrayRef<int64_t> strides,
                     ArrayRef<int64_t> dilations, int64_t groups,
                     bool inputUnsigned, bool filterUnsigned) {
  MLIRContext *context = b.getContext();
  int64_t spatial = strides.size();
  int64_t dims = 3 + spatial + 1 + spatial;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  // Positions: n 0, g 1, m 2, o_0..o_{s-2} at 3.., c, k_0..k_{s-1}, o_{s-1}.
  auto outDim = [&](int64_t s) { return s + 1 < spatial ? 3 + s : dims - 1; };
  int64_t c = 3 + spatial - 1;
  auto kDim = [&](int64_t s) { return c + 1 + s; };
  SmallVector<AffineExpr> inputExprs = {d(0), d(1), d(c)};
  SmallVector<AffineExpr> filterExprs = {d(1), d(2), d(c)};
  SmallVector<AffineExpr> outputExprs = {d(0), d(1), d(2)};
  for (int64_t s = 0; s < spatial; ++s) {
    AffineExpr o = d(outDim(s)), k = d(kDim(s));
    inputExprs.push_back(o * strides[s] + k * dilations[s]);
    filterExprs.push_back(k);
    outputExprs.push_back(o);
  }
  SmallVector<AffineMap> maps = {AffineMap::get(dims, 0, inputExprs, context),
                                 AffineMap::get(dims, 0, filterExprs, context),
                                 AffineMap::get(dims, 0, outputExprs, context)};
  SmallVector<IteratorType> iterators(dims, IteratorType::reduction);
  for (int64_t i = 0; i < 3; ++i)
    iterators[i] = IteratorType::parallel;
  for (int64_t s = 0; s < spatial; ++s)
    iterators[outDim(s)] = IteratorType::parallel;

  return groupedConvolution(b, loc, input, filter, 1, resultType, 1, groups,
                            maps, iterators, inputUnsigned, filterUnsigned);
}

/// Grouped N-d convolution of an already padded channels-last input
/// (N x D... x C, filter M x K... x C/g), no bias, as one generic over
/// (n, o..., g, m, k..., c): the output's channels innermost among the
/// parallel loops, the input's channels innermost among the reductions, so
/// that both inputs are read along their last dimension (a product of
/// pixels and filters over (k..., c) on tensor cores; a depthwise
/// convolution's threads walk the channels).
Value convolveChannelsLast(OpBuilder &b, Location loc, Value input,
                           Value filter, RankedTensorType resultType,
                           ArrayRef<int64_t> strides,
                           ArrayRef<int64_t> dilations, int64_t groups,
                           bool inputUnsigned, bool filterUnsigned) {
  MLIRContext *context = b.getContext();
  int64_t spatial = strides.size();
  int64_t dims = 3 + 2 * spatial + 1;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  // Positions: n 0, o_s at 1 + s, g, m, k_s, c.
  int64_t g = 1 + spatial, m = g + 1, c = dims - 1;
  auto kDim = [&](int64_t s) { return m + 1 + s; };
  SmallVector<AffineExpr> inputExprs = {d(0)};
  SmallVector<AffineExpr> filterExprs = {d(g), d(m)};
  SmallVector<AffineExpr> outputExprs = {d(0)};
  for (int64_t s = 0; s < spatial; ++s) {
    AffineExpr o = d(1 + s), k = d(kDim(s));
    inputExprs.push_back(o * strides[s] + k * dilations[s]);
    filterExprs.push_back(k);
    outputExprs.push_back(o);
  }
  inputExprs.append({d(g), d(c)});
  filterExprs.push_back(d(c));
  outputExprs.append({d(g), d(m)});
  SmallVector<AffineMap> maps = {AffineMap::get(dims, 0, inputExprs, context),
                                 AffineMap::get(dims, 0, filterExprs, context),
                                 AffineMap::get(dims, 0, outputExprs, context)};
  SmallVector<IteratorType> iterators(dims, IteratorType::reduction);
  for (int64_t i = 0; i <= m; ++i)
    iterators[i] = IteratorType::parallel;

  int64_t last = resultType.getRank() - 1;
  return groupedConvolution(b, loc, input, filter, last, resultType, last,
                            groups, maps, iterators, inputUnsigned,
                            filterUnsigned);
}

/// Depthwise convolution (one input and one output channel per group) of
/// an already padded channels-last input as one element-wise op:
/// out[n, o..., c] = sum over taps t of x[n, o * s + t * d..., c] * w[c, t].
/// The input is read once per tap through a strided slice at the tap's
/// offsets, and the filter (C x K... x 1) through a map of the tap's
/// constants: no
/// reduction loop and no accumulator in memory, so that the ops after it
/// (bias, activation, cast) fuse into it like into any element-wise op.
Value convolveDepthwiseChannelsLast(OpBuilder &b, Location loc, Value padded,
                                    Value filter, RankedTensorType resultType,
                                    ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> dilations) {
  MLIRContext *context = b.getContext();
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t spatial = strides.size(), rank = resultType.getRank();
  ArrayRef<int64_t> kernel = filterType.getShape().slice(1, spatial);
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps *= k;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  auto constant = [&](int64_t v) { return getAffineConstantExpr(v, context); };
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<AffineMap> maps(taps, identity);
  SmallVector<Value> operands;
  for (int64_t t = 0; t < taps; ++t) {
    SmallVector<int64_t> tap = tapIndex(t, kernel);
    SmallVector<int64_t> offsets = {0}, steps = {1};
    SmallVector<AffineExpr> w = {d(rank - 1)};
    for (int64_t s = 0; s < spatial; ++s) {
      offsets.push_back(tap[s] * dilations[s]);
      steps.push_back(strides[s]);
      w.push_back(constant(tap[s]));
    }
    offsets.push_back(0);
    steps.push_back(1);
    w.push_back(constant(0));
    operands.push_back(
        sliceOf(b, loc, padded, offsets, resultType.getShape(), steps));
    maps.push_back(AffineMap::get(rank, 0, w, context));
  }
  maps.push_back(identity);
  operands.append(taps, filter);
  return sumOfTapProducts(b, loc, resultType, operands, maps, taps);
}

/// Grouped N-d convolution of an already padded input, no bias, as a
/// matrix product per image and group: the filter is an M x K matrix
/// (K = channels x kernel window) and the input is unfolded into K x P
/// patches (P = output positions; a 1x1 convolution with unit strides needs
/// no unfolding, its input already is that matrix). The product's output is
/// the convolution's, row-major, and the CPU target tiles it into its
/// micro-kernel.
/// The patches of a convolution as a [n, g, K, P] matrix: K runs over
/// (channel, kernel window), P over output positions. A 1x1 convolution with
/// unit strides is its input, reshaped; others unfold the input.
Value convolutionPatches(OpBuilder &b, Location loc, Value input,
                         RankedTensorType filterType,
                         RankedTensorType resultType, ArrayRef<int64_t> strides,
                         ArrayRef<int64_t> dilations, int64_t groups) {
  MLIRContext *context = b.getContext();
  int64_t spatial = strides.size();
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t batch = resultType.getDimSize(0);
  int64_t channels = inputType.getDimSize(1) / groups;
  ArrayRef<int64_t> kernel = filterType.getShape().drop_front(2);
  ArrayRef<int64_t> outSpatial = resultType.getShape().drop_front(2);
  Type inputElement = inputType.getElementType();

  // The patches: [batch, groups, channels, k..., o...], then [.., K, P].
  Value groupedInput = splitGroups(b, loc, input, 1, groups);
  bool pointwise = llvm::all_of(kernel, [](int64_t k) { return k == 1; }) &&
                   llvm::all_of(strides, [](int64_t s) { return s == 1; }) &&
                   llvm::equal(inputType.getShape().drop_front(2), outSpatial);
  Value patches;
  if (pointwise) {
    SmallVector<ReassociationIndices> merge = {{0}, {1}, {2}, {}};
    for (int64_t s = 0; s < spatial; ++s)
      merge.back().push_back(3 + s);
    patches = tensor::CollapseShapeOp::create(b, loc, groupedInput, merge);
  } else {
    // One copy per kernel tap: the input positions a tap reads are a
    // strided slice of the input, so each copy is a plain (vectorizable)
    // element-wise op into its rows of the [n, g, c, k..., o...] patches.
    SmallVector<int64_t> unfoldedShape = {batch, groups, channels};
    llvm::append_range(unfoldedShape, kernel);
    llvm::append_range(unfoldedShape, outSpatial);
    auto unfoldedType = RankedTensorType::get(unfoldedShape, inputElement);
    Value unfolded = emptyTensor(b, loc, unfoldedType, {});
    int64_t taps = 1;
    for (int64_t k : kernel)
      taps *= k;
    int64_t rank = unfoldedType.getRank();
    SmallVector<int64_t> tapShape = {batch, groups, channels};
    llvm::append_range(tapShape, outSpatial);
    auto tapType = RankedTensorType::get(tapShape, inputElement);
    for (int64_t t = 0; t < taps; ++t) {
      SmallVector<int64_t> tap = tapIndex(t, kernel);
      // The input positions o * stride + tap * dilation.
      SmallVector<OpFoldResult> offsets(3, b.getIndexAttr(0)), sizes,
          steps(3, b.getIndexAttr(1));
      sizes = {b.getIndexAttr(batch), b.getIndexAttr(groups),
               b.getIndexAttr(channels)};
      for (int64_t s = 0; s < spatial; ++s) {
        offsets.push_back(b.getIndexAttr(tap[s] * dilations[s]));
        sizes.push_back(b.getIndexAttr(outSpatial[s]));
        steps.push_back(b.getIndexAttr(strides[s]));
      }
      Value source = tensor::ExtractSliceOp::create(
          b, loc, tapType, groupedInput, offsets, sizes, steps);
      // Its place in the patches: [n, g, c, tap..., o...].
      SmallVector<OpFoldResult> at(rank, b.getIndexAttr(0)),
          extent(rank, b.getIndexAttr(1)), unit(rank, b.getIndexAttr(1));
      for (int64_t i = 0; i < 3; ++i)
        extent[i] = b.getIndexAttr(unfoldedShape[i]);
      for (int64_t s = 0; s < spatial; ++s) {
        at[3 + s] = b.getIndexAttr(tap[s]);
        extent[3 + spatial + s] = b.getIndexAttr(outSpatial[s]);
      }
      Value target = tensor::ExtractSliceOp::create(b, loc, tapType, unfolded,
                                                    at, extent, unit);
      AffineMap identity =
          AffineMap::getMultiDimIdentityMap(tapType.getRank(), context);
      Value copy = copyThrough(b, loc, source, target, identity, identity);
      unfolded = tensor::InsertSliceOp::create(b, loc, copy, unfolded, at,
                                               extent, unit);
    }
    SmallVector<ReassociationIndices> merge = {{0}, {1}, {}, {}};
    for (int64_t i = 0; i <= spatial; ++i)
      merge[2].push_back(2 + i);
    for (int64_t s = 0; s < spatial; ++s)
      merge[3].push_back(3 + spatial + s);
    patches = tensor::CollapseShapeOp::create(b, loc, unfolded, merge);
  }
  return patches;
}

Value convolveAsMatmul(OpBuilder &b, Location loc, Value input, Value filter,
                       RankedTensorType resultType, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> dilations, int64_t groups,
                       bool inputUnsigned, bool filterUnsigned) {
  MLIRContext *context = b.getContext();
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  ConvolutionSizes sizes =
      convolutionSizes(inputType, filterType, resultType, groups);
  int64_t batch = sizes.batch, outChannels = sizes.outChannels;
  int64_t positions = sizes.positions, reduction = sizes.reduction;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };

  Value patches = convolutionPatches(b, loc, input, filterType, resultType,
                                     strides, dilations, groups);

  // The filter as [groups, M, K].
  Value matrix =
      reshapeTensor(b, loc, filter,
                    RankedTensorType::get({groups, outChannels, reduction},
                                          filterType.getElementType()));

  // out[n, g, m, p] += filter[g, m, k] * patches[n, g, k, p]
  auto productType = RankedTensorType::get(
      {batch, groups, outChannels, positions}, resultType.getElementType());
  SmallVector<AffineMap> maps = {
      AffineMap::get(5, 0, {d(1), d(2), d(4)}, context),
      AffineMap::get(5, 0, {d(0), d(1), d(4), d(3)}, context),
      AffineMap::get(5, 0, {d(0), d(1), d(2), d(3)}, context)};
  SmallVector<IteratorType> iterators(4, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  ScalarBuilder scalar{b, loc};
  Value init = filled(b, loc, productType,
                      scalar.constant(resultType.getElementType(), 0));
  auto product = linalg::GenericOp::create(
      b, loc, productType, ValueRange{matrix, patches}, init, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l,
                                multiplyAccumulate(nb, l, args[1], args[0],
                                                   args[2], inputUnsigned,
                                                   filterUnsigned));
      });
  return reshapeTensor(b, loc, product.getResult(0), resultType);
}

/// A convolution of an unpadded input in the form that suits it: the
/// strategy's where it has one, else a matrix product of the patches, and
/// the direct form where each group has a single input or output channel
/// (depthwise), where a product would be degenerate, or where the strategy
/// asks for it. `padding` holds the low then the high padding of each
/// spatial dimension.
Value convolve(OpBuilder &b, Location loc, Value input, Value filter,
               RankedTensorType resultType, ArrayRef<int64_t> strides,
               ArrayRef<int64_t> dilations, ArrayRef<int64_t> padding,
               int64_t groups, const ContractionStrategy *strategy,
               bool inputUnsigned, bool filterUnsigned,
               bool channelsLast = false) {
  if (channelsLast) {
    int64_t spatial = strides.size();
    Value zero = ScalarBuilder{b, loc}.constant(
        cast<RankedTensorType>(input.getType()).getElementType(), 0);
    Value padded =
        padSpatial(b, loc, input, padding.take_front(spatial),
                   padding.drop_front(spatial), zero, /*channelsLast=*/true);
    auto filterType = cast<RankedTensorType>(filter.getType());
    int64_t taps = filterType.getNumElements() / filterType.getDimSize(0);
    bool depthwise = groups > 1 && filterType.getDimSize(0) == groups &&
                     filterType.getShape().back() == 1;
    Type element = resultType.getElementType();
    if (depthwise && taps <= kMaxTaps && isa<FloatType>(element) &&
        element == cast<RankedTensorType>(input.getType()).getElementType() &&
        element == filterType.getElementType())
      return convolveDepthwiseChannelsLast(b, loc, padded, filter, resultType,
                                           strides, dilations);
    return convolveChannelsLast(b, loc, padded, filter, resultType, strides,
                                dilations, groups, inputUnsigned,
                                filterUnsigned);
  }
  if (strategy)
    if (Value built = strategy->convolution(
            b, loc,
            Convolution{input, filter, resultType, strides, dilations, padding,
                        groups, inputUnsigned, filterUnsigned}))
      return built;
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t spatial = strides.size();
  int64_t channels = inputType.getDimSize(1) / groups;
  int64_t outChannels = resultType.getDimSize(1) / groups;
  bool degenerate = channels == 1 || outChannels == 1;
  bool isStatic = resultType.hasStaticShape() && inputType.hasStaticShape();
  Value zero = ScalarBuilder{b, loc}.constant(inputType.getElementType(), 0);
  Value padded = padSpatial(b, loc, input, padding.take_front(spatial),
                            padding.drop_front(spatial), zero);
  if ((strategy && strategy->directConvolutions()) || degenerate || !isStatic)
    return convolveDirect(b, loc, padded, filter, resultType, strides,
                          dilations, groups, inputUnsigned, filterUnsigned);
  return convolveAsMatmul(b, loc, padded, filter, resultType, strides,
                          dilations, groups, inputUnsigned, filterUnsigned);
}

/// Adds a per-channel bias to an N x M x spatial result (or N x spatial x
/// M, `channelsLast`, where the bias broadcasts as it is).
Value addBias(OpBuilder &b, Location loc, Value result, Value bias,
              bool channelsLast = false) {
  if (!bias)
    return result;
  auto type = cast<RankedTensorType>(result.getType());
  Value shaped = bias;
  if (!channelsLast) {
    SmallVector<int64_t> shape(type.getRank() - 1, 1);
    shape[0] = type.getDimSize(1);
    shaped = reshapeTensor(b, loc, bias,
                           RankedTensorType::get(shape, type.getElementType()));
  }
  return buildElementwise(b, loc, type, {result, shaped},
                          [&](OpBuilder &nb, Location l, ValueRange args) {
                            return ScalarBuilder{nb, l}.binary(
                                BinaryKind::add, args[0], args[1],
                                type.getElementType());
                          });
}

struct ConvertConv : OpConversionPattern<ConvOp> {
  ConvertConv(TypeConverter &converter, MLIRContext *context,
              const ContractionStrategy *strategy)
      : OpConversionPattern(converter, context), strategy(strategy) {}
  const ContractionStrategy *strategy;
  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    if (!type.hasStaticShape() ||
        !cast<RankedTensorType>(adaptor.getInput().getType()).hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Location loc = op.getLoc();
    Value result = convolve(
        rewriter, loc, adaptor.getInput(), adaptor.getFilter(), type,
        op.getStrides(), op.getDilations(), op.getPadding(), op.getGroups(),
        strategy, isUnsigned(op.getInput().getType().getElementType()),
        isUnsigned(op.getFilter().getType().getElementType()),
        op.getChannelsLast());
    rewriter.replaceOp(op, addBias(rewriter, loc, result, adaptor.getBias(),
                                   op.getChannelsLast()));
    return success();
  }
};

struct ConvertConvTranspose : OpConversionPattern<ConvTransposeOp> {
  ConvertConvTranspose(TypeConverter &converter, MLIRContext *context,
                       const ContractionStrategy *strategy)
      : OpConversionPattern(converter, context), strategy(strategy) {}
  const ContractionStrategy *strategy;
  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto filterType = cast<RankedTensorType>(adaptor.getFilter().getType());
    if (!type.hasStaticShape() || !inputType.hasStaticShape() ||
        !filterType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    int64_t spatial = op.getStrides().size();
    int64_t groups = op.getGroups();
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
    ArrayRef<int64_t> padding = op.getPadding();
    ArrayRef<int64_t> outputPadding = op.getOutputPadding();
    Type element = inputType.getElementType();
    ScalarBuilder scalar{rewriter, loc};
    Value zero = scalar.constant(element, 0);

    // 1. Insert stride - 1 zeros between input elements.
    Value x = adaptor.getInput();
    if (llvm::any_of(strides, [](int64_t s) { return s > 1; })) {
      SmallVector<int64_t> shape(inputType.getShape().take_front(2));
      for (int64_t s = 0; s < spatial; ++s)
        shape.push_back((inputType.getDimSize(s + 2) - 1) * strides[s] + 1);
      auto dilatedType = RankedTensorType::get(shape, element);
      Value base = filled(rewriter, loc, dilatedType, zero);
      SmallVector<int64_t> offsets(shape.size(), 0), steps = {1, 1};
      llvm::append_range(steps, strides);
      x = tensor::InsertSliceOp::create(
          rewriter, loc, x, base, getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, inputType.getShape()),
          getAsIndexOpFoldResult(context, steps));
    }
    // 2. Pad by dilation * (K - 1) minus the convolution's own padding, plus
    //    the output padding at the end; negative amounts crop.
    SmallVector<int64_t> low, high, cropLow, cropHigh;
    for (int64_t s = 0; s < spatial; ++s) {
      int64_t full = dilations[s] * (filterType.getDimSize(s + 2) - 1);
      int64_t lo = full - padding[s];
      int64_t hi = full - padding[s + spatial] + outputPadding[s];
      low.push_back(std::max<int64_t>(lo, 0));
      high.push_back(std::max<int64_t>(hi, 0));
      cropLow.push_back(std::max<int64_t>(-lo, 0));
      cropHigh.push_back(std::max<int64_t>(-hi, 0));
    }
    x = padSpatial(rewriter, loc, x, low, high, zero);
    if (llvm::any_of(cropLow, [](int64_t c) { return c > 0; }) ||
        llvm::any_of(cropHigh, [](int64_t c) { return c > 0; })) {
      auto paddedType = cast<RankedTensorType>(x.getType());
      SmallVector<int64_t> offsets = {0, 0}, sizes(paddedType.getShape()),
                           steps(paddedType.getRank(), 1);
      for (int64_t s = 0; s < spatial; ++s) {
        offsets.push_back(cropLow[s]);
        sizes[s + 2] -= cropLow[s] + cropHigh[s];
      }
      x = tensor::ExtractSliceOp::create(
          rewriter, loc, x, getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, sizes),
          getAsIndexOpFoldResult(context, steps));
    }
    // 3. The equivalent convolution's filter: C x M/G x K... becomes
    //    M x C/G x K..., spatially flipped, group by group.
    int64_t channels = filterType.getDimSize(0);
    int64_t perGroupOut = filterType.getDimSize(1);
    Value groupedW = splitGroups(rewriter, loc, adaptor.getFilter(), 0,
                                 groups); // G x C/G x M/G x K...
    SmallVector<int64_t> newShape = {groups, perGroupOut, channels / groups};
    llvm::append_range(newShape, filterType.getShape().drop_front(2));
    int64_t dims = 3 + spatial;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
    SmallVector<AffineExpr> readExprs = {d(0), d(2), d(1)};
    for (int64_t s = 0; s < spatial; ++s)
      readExprs.push_back(filterType.getDimSize(s + 2) - 1 - d(3 + s));
    Value flip =
        copyThrough(rewriter, loc, groupedW,
                    tensor::EmptyOp::create(rewriter, loc, newShape, element),
                    AffineMap::get(dims, 0, readExprs, context),
                    AffineMap::getMultiDimIdentityMap(dims, context));
    SmallVector<ReassociationIndices> merge = {{0, 1}, {2}};
    for (int64_t s = 0; s < spatial; ++s)
      merge.push_back({3 + s});
    SmallVector<int64_t> filterShape = {groups * perGroupOut,
                                        channels / groups};
    llvm::append_range(filterShape, filterType.getShape().drop_front(2));
    Value filter = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get(filterShape, element), flip,
        merge);
    // 4. A stride-1 convolution with the same dilation.
    SmallVector<int64_t> ones(spatial, 1);
    Value result =
        convolve(rewriter, loc, x, filter, type, ones, dilations,
                 SmallVector<int64_t>(2 * spatial, 0), groups, strategy,
                 isUnsigned(op.getInput().getType().getElementType()),
                 isUnsigned(op.getFilter().getType().getElementType()));
    rewriter.replaceOp(op, addBias(rewriter, loc, result, adaptor.getBias()));
    return success();
  }
};

} // namespace

void populateConvolutionPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 const ContractionStrategy *strategy) {
  patterns.add<ConvertConv, ConvertConvTranspose>(
      converter, patterns.getContext(), strategy);
}

} // namespace aicc::tile_to_linalg
