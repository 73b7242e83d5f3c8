//===- ConvertTileToLinalg.cpp - tile to linalg in the CPU's forms --------===//
//
// The shared tile-to-linalg conversion with the CPU micro-kernel's forms of
// contractions: the right-hand side of a product, and a convolution's
// patches, gathered into contiguous panels of the register tile's width,
// which aicc-pack-weights evaluates at compile time for weights; and
// depthwise convolutions as one element-wise sum over the window's taps.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/CPU/Passes.h"

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

namespace aicc::cpu {
#define GEN_PASS_DEF_CPUCONVERTTILETOLINALGPASS
#include "aicc/Target/CPU/Passes.h.inc"
} // namespace aicc::cpu

using namespace mlir;
using namespace aicc::tile_to_linalg;

namespace {

using utils::IteratorType;

/// Per kernel tap: its index along each spatial dimension, and the output
/// positions (first, count) whose input position
/// o * stride + tap * dilation - padding lies inside the input.
struct Tap {
  SmallVector<int64_t> index, first, count;
};

struct TapRanges {
  SmallVector<Tap> taps;
  /// Some tap misses some output position: the patches need zeros there.
  bool needsFill = false;
  /// One tap reading the input as it is (1x1, unit stride, no padding).
  bool identity = false;
};

TapRanges tapRangesOf(ArrayRef<int64_t> inSpatial, ArrayRef<int64_t> kernel,
                      ArrayRef<int64_t> outSpatial, ArrayRef<int64_t> strides,
                      ArrayRef<int64_t> dilations, ArrayRef<int64_t> padding) {
  int64_t spatial = strides.size();
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps *= k;
  TapRanges ranges;
  ranges.identity = taps == 1;
  for (int64_t t = 0; t < taps; ++t) {
    Tap tap;
    tap.index = tapIndex(t, kernel);
    for (int64_t s = 0; s < spatial; ++s) {
      int64_t shift = tap.index[s] * dilations[s] - padding[s];
      int64_t lo = shift >= 0 ? 0 : (-shift + strides[s] - 1) / strides[s];
      int64_t last = inSpatial[s] - 1 - shift;
      int64_t hi =
          last >= 0 ? std::min(last / strides[s], outSpatial[s] - 1) : -1;
      tap.first.push_back(lo);
      tap.count.push_back(std::max<int64_t>(hi - lo + 1, 0));
      ranges.needsFill |= tap.count.back() != outSpatial[s];
      ranges.identity &=
          strides[s] == 1 && shift == 0 && inSpatial[s] == outSpatial[s];
    }
    ranges.taps.push_back(std::move(tap));
  }
  return ranges;
}

/// The patches of a grouped N-d convolution as a matrix [n, g, c * taps, P]
/// (P output positions): zero-filled where padding needs it, then written
/// by one copy per kernel tap from the strided slice of the unpadded input
/// that the tap reads, so that the padded input is never built. Every
/// value in the chain is a slice of one buffer, so bufferization writes the
/// patches in place. A 1x1 unit-stride convolution's patches are its input.
Value panelPatches(OpBuilder &b, Location loc, Value groupedInput,
                   ArrayRef<int64_t> kernel, ArrayRef<int64_t> outSpatial,
                   ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                   ArrayRef<int64_t> padding) {
  auto inputType = cast<RankedTensorType>(groupedInput.getType());
  Type element = inputType.getElementType();
  int64_t spatial = strides.size();
  int64_t batch = inputType.getDimSize(0), groups = inputType.getDimSize(1),
          channels = inputType.getDimSize(2);
  ArrayRef<int64_t> inSpatial = inputType.getShape().drop_front(3);
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps *= k;
  SmallVector<ReassociationIndices> toMatrix = {{0}, {1}, {2, 3}, {}};
  for (int64_t s = 0; s < spatial; ++s)
    toMatrix[3].push_back(4 + s);

  TapRanges ranges =
      tapRangesOf(inSpatial, kernel, outSpatial, strides, dilations, padding);
  ArrayRef<Tap> tapRanges = ranges.taps;
  bool needsFill = ranges.needsFill;
  if (ranges.identity) {
    SmallVector<ReassociationIndices> flat = {{0}, {1}, {2}, {}};
    for (int64_t s = 0; s < spatial; ++s)
      flat[3].push_back(3 + s);
    return tensor::CollapseShapeOp::create(b, loc, groupedInput, flat);
  }

  SmallVector<int64_t> patchShape = {batch, groups, channels, taps};
  llvm::append_range(patchShape, outSpatial);
  Value patches =
      emptyTensor(b, loc, RankedTensorType::get(patchShape, element), {});
  if (!needsFill) {
    // Every tap reads inside the input: one copy over [n, g, c, k..., o...]
    // reading input[n, g, c, o * stride + k * dilation - padding].
    MLIRContext *context = b.getContext();
    int64_t loops = 3 + 2 * spatial;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
    SmallVector<AffineExpr> read = {d(0), d(1), d(2)};
    for (int64_t s = 0; s < spatial; ++s)
      read.push_back(d(3 + spatial + s) * strides[s] + d(3 + s) * dilations[s] -
                     padding[s]);
    SmallVector<int64_t> unfolded = {batch, groups, channels};
    llvm::append_range(unfolded, kernel);
    llvm::append_range(unfolded, outSpatial);
    auto unfoldedType = RankedTensorType::get(unfolded, element);
    SmallVector<ReassociationIndices> tapDims = {{0}, {1}, {2}, {}};
    for (int64_t s = 0; s < spatial; ++s)
      tapDims[3].push_back(3 + s);
    for (int64_t s = 0; s < spatial; ++s)
      tapDims.push_back({3 + spatial + s});
    Value target =
        tensor::ExpandShapeOp::create(b, loc, unfoldedType, patches, tapDims);
    Value unfoldedPatches = copyThrough(
        b, loc, groupedInput, target, AffineMap::get(loops, 0, read, context),
        AffineMap::getMultiDimIdentityMap(loops, context));
    patches = tensor::CollapseShapeOp::create(b, loc, patches.getType(),
                                              unfoldedPatches, tapDims);
    return tensor::CollapseShapeOp::create(b, loc, patches, toMatrix);
  }
  if (needsFill)
    patches = linalg::FillOp::create(
                  b, loc, ScalarBuilder{b, loc}.constant(element, 0), patches)
                  .getResult(0);
  for (int64_t t = 0; t < taps; ++t) {
    const Tap &tap = tapRanges[t];
    if (llvm::is_contained(tap.count, 0))
      continue;
    SmallVector<int64_t> srcOffsets = {0, 0, 0},
                         sizes = {batch, groups, channels}, steps = {1, 1, 1};
    SmallVector<int64_t> dstOffsets = {0, 0, 0, t},
                         dstSizes = {batch, groups, channels, 1};
    for (int64_t s = 0; s < spatial; ++s) {
      srcOffsets.push_back(tap.first[s] * strides[s] +
                           tap.index[s] * dilations[s] - padding[s]);
      sizes.push_back(tap.count[s]);
      steps.push_back(strides[s]);
      dstOffsets.push_back(tap.first[s]);
      dstSizes.push_back(tap.count[s]);
    }
    Value source = sliceOf(b, loc, groupedInput, srcOffsets, sizes, steps);
    Value target = sliceOf(b, loc, patches, dstOffsets, dstSizes);
    Value copied = copyIntoUnitExpanded(b, loc, source, target, {3});
    patches = insertInto(b, loc, copied, patches, dstOffsets);
  }
  return tensor::CollapseShapeOp::create(b, loc, patches, toMatrix);
}

/// Packs the patch matrix [n, g, K, P] into panels [n, g, P'/W, K, W] (P'
/// = P rounded up to whole panels of W): the whole panels by one transposing
/// copy, the partial last panel, zero-padded, by another.
Value packPanels(OpBuilder &b, Location loc, Value matrix, int64_t panel) {
  MLIRContext *context = b.getContext();
  auto type = cast<RankedTensorType>(matrix.getType());
  Type element = type.getElementType();
  int64_t batch = type.getDimSize(0), groups = type.getDimSize(1),
          reduction = type.getDimSize(2), positions = type.getDimSize(3);
  int64_t full = positions / panel, rest = positions % panel;
  int64_t panels = full + (rest != 0);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  Value packed = emptyTensor(
      b, loc,
      RankedTensorType::get({batch, groups, panels, reduction, panel}, element),
      {});
  if (full > 0) {
    Value whole = rest == 0 ? matrix
                            : sliceOf(b, loc, matrix, {0, 0, 0, 0},
                                      {batch, groups, reduction, full * panel});
    Value split = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({batch, groups, reduction, full, panel}, element),
        whole, SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
    Value target = rest == 0 ? packed
                             : sliceOf(b, loc, packed, {0, 0, 0, 0, 0},
                                       {batch, groups, full, reduction, panel});
    Value moved = copyThrough(
        b, loc, split, target,
        AffineMap::get(5, 0, {d(0), d(1), d(3), d(2), d(4)}, context),
        AffineMap::getMultiDimIdentityMap(5, context));
    packed =
        rest == 0 ? moved : insertInto(b, loc, moved, packed, {0, 0, 0, 0, 0});
  }
  if (rest != 0) {
    SmallVector<int64_t> tailOffsets = {0, 0, full, 0, 0};
    Value tail = sliceOf(b, loc, packed, tailOffsets,
                         {batch, groups, 1, reduction, panel});
    tail = linalg::FillOp::create(
               b, loc, ScalarBuilder{b, loc}.constant(element, 0), tail)
               .getResult(0);
    Value source = sliceOf(b, loc, matrix, {0, 0, 0, full * panel},
                           {batch, groups, reduction, rest});
    Value target = sliceOf(b, loc, tail, {0, 0, 0, 0, 0},
                           {batch, groups, 1, reduction, rest});
    Value copied = copyIntoUnitExpanded(b, loc, source, target, {2});
    tail = insertInto(b, loc, copied, tail, {0, 0, 0, 0, 0});
    packed = insertInto(b, loc, tail, packed, tailOffsets);
  }
  return packed;
}

/// out[n, g, m, q * W + w] = sum_k weights[g, m, k] * packed[n, g, q, k, w]:
/// the product the CPU micro-kernel computes one contiguous K x W panel of
/// `packed` at a time, as [n, g, M, Q * W].
Value panelProduct(OpBuilder &b, Location loc, Value weights, Value packed,
                   Type resultElement, bool packedUnsigned,
                   bool weightsUnsigned) {
  MLIRContext *context = b.getContext();
  auto weightsType = cast<RankedTensorType>(weights.getType());
  auto packedType = cast<RankedTensorType>(packed.getType());
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  int64_t batch = packedType.getDimSize(0), groups = packedType.getDimSize(1),
          panels = packedType.getDimSize(2), panel = packedType.getDimSize(4);
  int64_t rows = weightsType.getDimSize(1);
  auto productType = RankedTensorType::get({batch, groups, rows, panels, panel},
                                           resultElement);
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0, {d(1), d(2), d(5)}, context),
      AffineMap::get(6, 0, {d(0), d(1), d(3), d(5), d(4)}, context),
      AffineMap::get(6, 0, {d(0), d(1), d(2), d(3), d(4)}, context)};
  SmallVector<IteratorType> iterators(5, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  ScalarBuilder scalar{b, loc};
  Value init = filled(b, loc, productType, scalar.constant(resultElement, 0));
  auto product = linalg::GenericOp::create(
      b, loc, productType, ValueRange{weights, packed}, init, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l,
                                multiplyAccumulate(nb, l, args[1], args[0],
                                                   args[2], packedUnsigned,
                                                   weightsUnsigned));
      });
  return tensor::CollapseShapeOp::create(
      b, loc, product.getResult(0),
      SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
}

/// Grouped N-d convolution, no bias, as a matrix product whose right-hand
/// side is packed into panels of `panel` output positions:
///
/// 1. the patch matrix [n, g, K, P] (K = c * taps), see panelPatches;
/// 2. packed into panels [n, g, P'/W, K, W], see packPanels;
/// 3. the product [n, g, M, P'/W, W] is computed by the CPU micro-kernel
///    one contiguous K x W panel at a time; its first P positions, viewed
///    as [n, g * M, o...], are the result (a view: no copy).
Value convolveAsPanels(OpBuilder &b, Location loc, Value input, Value filter,
                       RankedTensorType resultType, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> dilations, ArrayRef<int64_t> padding,
                       int64_t groups, int64_t panel, bool inputUnsigned,
                       bool filterUnsigned) {
  MLIRContext *context = b.getContext();
  int64_t spatial = strides.size();
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  ConvolutionSizes sizes =
      convolutionSizes(inputType, filterType, resultType, groups);
  int64_t batch = sizes.batch, outChannels = sizes.outChannels;
  int64_t positions = sizes.positions, reduction = sizes.reduction;
  ArrayRef<int64_t> kernel = sizes.kernel, outSpatial = sizes.outSpatial;
  int64_t panels = (positions + panel - 1) / panel;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };

  Value groupedInput = splitGroups(b, loc, input, 1, groups);
  Value matrix = panelPatches(b, loc, groupedInput, kernel, outSpatial, strides,
                              dilations, padding);
  Value packed = packPanels(b, loc, matrix, panel);

  Value weights =
      reshapeTensor(b, loc, filter,
                    RankedTensorType::get({groups, outChannels, reduction},
                                          filterType.getElementType()));
  Value flat =
      panelProduct(b, loc, weights, packed, resultType.getElementType(),
                   inputUnsigned, filterUnsigned);
  if (panels * panel != positions)
    flat = sliceOf(b, loc, flat, {0, 0, 0, 0},
                   {batch, groups, outChannels, positions});
  // [n, g, m, P] -> [n, g, m, o...] -> [n, g * m, o...]: both views of a
  // buffer whose positions are contiguous.
  SmallVector<int64_t> unflatShape = {batch, groups, outChannels};
  llvm::append_range(unflatShape, outSpatial);
  SmallVector<ReassociationIndices> unflat = {{0}, {1}, {2}, {}};
  SmallVector<ReassociationIndices> merge = {{0}, {1, 2}};
  for (int64_t s = 0; s < spatial; ++s) {
    unflat[3].push_back(3 + s);
    merge.push_back({3 + s});
  }
  Value spatialResult = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(unflatShape, resultType.getElementType()),
      flat, unflat);
  return tensor::CollapseShapeOp::create(b, loc, resultType, spatialResult,
                                         merge);
}

/// Depthwise convolution (one input and one output channel per group) of
/// an already padded input as one element-wise op: out[n, c, o...] =
/// sum over taps t of x_t[n, c, o...] * w_t[c], where x_t is the strided
/// slice of the input that tap t reads and w_t the tap's column of the
/// filter. Every operand walks the output's innermost dimension, so the CPU
/// target vectorizes it along output rows like any element-wise op.
///
/// A stride s > 1 along the innermost dimension would make every tap read
/// every s-th element. The input is first split once into its s phases
/// (columns p, p + s, p + 2s, ... as one contiguous tensor each); a tap at
/// column offset k then reads phase k mod s from column k / s onwards,
/// contiguous again.
Value convolveDepthwiseTaps(OpBuilder &b, Location loc, Value padded,
                            Value filter, RankedTensorType resultType,
                            ArrayRef<int64_t> strides,
                            ArrayRef<int64_t> dilations) {
  auto filterType = cast<RankedTensorType>(filter.getType());
  auto paddedType = cast<RankedTensorType>(padded.getType());
  int64_t spatial = strides.size(), rank = resultType.getRank();
  int64_t batch = resultType.getDimSize(0), channels = resultType.getDimSize(1);
  ArrayRef<int64_t> kernel = filterType.getShape().drop_front(2);
  ArrayRef<int64_t> outSpatial = resultType.getShape().drop_front(2);
  int64_t step = strides.back();
  int64_t columns = paddedType.getShape().back();
  // The phases of the innermost dimension, built when a tap first needs
  // one; with unit stride the only phase is the input itself.
  SmallVector<Value> phases(step);
  if (step == 1)
    phases[0] = padded;
  auto phase = [&](int64_t p) {
    if (phases[p])
      return phases[p];
    // Read through (..., w) -> (..., w * step + p) rather than copy a
    // strided slice: an identity copy would fold back into the slice.
    SmallVector<int64_t> sizes(paddedType.getShape());
    sizes.back() = llvm::divideCeil(columns - p, step);
    auto type = RankedTensorType::get(sizes, paddedType.getElementType());
    MLIRContext *context = b.getContext();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
    AffineMap read = identity.replace(
        getAffineDimExpr(rank - 1, context),
        getAffineDimExpr(rank - 1, context) * step + p, rank, 0);
    phases[p] = copyThrough(b, loc, padded, emptyTensor(b, loc, type, {}), read,
                            identity);
    return phases[p];
  };
  int64_t taps = 1;
  for (int64_t k : kernel)
    taps *= k;
  SmallVector<Value> operands;
  SmallVector<Value> weights;
  SmallVector<ReassociationIndices> toColumn = {{0, 1}};
  for (int64_t s = 0; s < spatial; ++s)
    toColumn[0].push_back(2 + s);
  for (int64_t t = 0; t < taps; ++t) {
    SmallVector<int64_t> tap = tapIndex(t, kernel);
    SmallVector<int64_t> offsets = {0, 0}, sizes = {batch, channels},
                         steps = {1, 1};
    SmallVector<int64_t> filterOffsets = {0, 0}, filterSizes = {channels, 1};
    for (int64_t s = 0; s < spatial; ++s) {
      offsets.push_back(tap[s] * dilations[s]);
      sizes.push_back(outSpatial[s]);
      steps.push_back(strides[s]);
      filterOffsets.push_back(tap[s]);
      filterSizes.push_back(1);
    }
    int64_t first = offsets.back();
    offsets.back() = first / step;
    steps.back() = 1;
    operands.push_back(
        sliceOf(b, loc, phase(first % step), offsets, sizes, steps));
    Value column = sliceOf(b, loc, filter, filterOffsets, filterSizes);
    weights.push_back(tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({channels}, filterType.getElementType()),
        column, toColumn));
  }
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps(taps,
                              AffineMap::getMultiDimIdentityMap(rank, context));
  maps.append(taps,
              AffineMap::get(rank, 0, {getAffineDimExpr(1, context)}, context));
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
  llvm::append_range(operands, weights);
  return sumOfTapProducts(b, loc, resultType, operands, maps, taps);
}

/// The CPU's contraction forms for panels of `panel` columns.
class PanelStrategy final : public ContractionStrategy {
public:
  explicit PanelStrategy(int64_t panel) : panel(panel) {}

  Value product(OpBuilder &b, Location loc, Value lhs, Value rhs,
                RankedTensorType type, bool rhsTransposed, bool lhsUnsigned,
                bool rhsUnsigned) const override {
    if (!usePanels(type))
      return {};
    return panelMatmul(b, loc, lhs, rhs, type, rhsTransposed, lhsUnsigned,
                       rhsUnsigned);
  }

  /// Panels where a product is not degenerate; a depthwise convolution of
  /// a small window as one sum over its taps.
  Value convolution(OpBuilder &b, Location loc,
                    const Convolution &c) const override {
    auto inputType = cast<RankedTensorType>(c.input.getType());
    auto filterType = cast<RankedTensorType>(c.filter.getType());
    int64_t spatial = c.strides.size();
    int64_t channels = inputType.getDimSize(1) / c.groups;
    int64_t outChannels = c.resultType.getDimSize(1) / c.groups;
    bool degenerate = channels == 1 || outChannels == 1;
    bool isStatic = c.resultType.hasStaticShape() && inputType.hasStaticShape();
    if (panel <= 0 || !isStatic)
      return {};
    if (!degenerate)
      return convolveAsPanels(b, loc, c.input, c.filter, c.resultType,
                              c.strides, c.dilations, c.padding, c.groups,
                              panel, c.inputUnsigned, c.filterUnsigned);
    bool depthwise = channels == 1 && outChannels == 1 && c.groups > 1;
    int64_t taps = 1;
    for (int64_t k : filterType.getShape().drop_front(2))
      taps *= k;
    Type element = c.resultType.getElementType();
    if (!depthwise || taps > kMaxTaps || !isa<FloatType>(element) ||
        element != inputType.getElementType() ||
        element != filterType.getElementType())
      return {};
    Value zero = ScalarBuilder{b, loc}.constant(inputType.getElementType(), 0);
    Value padded = padSpatial(b, loc, c.input, c.padding.take_front(spatial),
                              c.padding.drop_front(spatial), zero);
    return convolveDepthwiseTaps(b, loc, padded, c.filter, c.resultType,
                                 c.strides, c.dilations);
  }

private:
  /// [m, k] x [k, n]: the right-hand side packed into contiguous k x W
  /// panels, as convolutions do. Where n is not a multiple of W (a short
  /// product, see usePanels), the right-hand side is first padded with
  /// zero columns to one, and the product's extra columns are dropped.
  Value panelMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                    RankedTensorType type, bool rhsTransposed, bool lhsUnsigned,
                    bool rhsUnsigned) const {
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    Type element = rhsType.getElementType();
    int64_t rows = lhsType.getDimSize(0), inner = lhsType.getDimSize(1),
            wanted = type.getDimSize(1);
    int64_t columns = llvm::alignTo(wanted, panel);
    if (columns != wanted) {
      SmallVector<int64_t> high = {0, 0};
      high[rhsTransposed ? 0 : 1] = columns - wanted;
      SmallVector<int64_t> paddedShape(rhsType.getShape());
      paddedShape[rhsTransposed ? 0 : 1] = columns;
      Value zero = ScalarBuilder{b, loc}.constant(element, 0);
      rhs = tensor::PadOp::create(
          b, loc, RankedTensorType::get(paddedShape, element), rhs,
          getAsIndexOpFoldResult(b.getContext(), ArrayRef<int64_t>{0, 0}),
          getAsIndexOpFoldResult(b.getContext(), high), zero);
    }
    Value packed;
    if (rhsTransposed) {
      // [n, k] viewed as [1, 1, n / W, W, k], permuted to [.., k, W].
      MLIRContext *context = b.getContext();
      auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
      Value split = tensor::ExpandShapeOp::create(
          b, loc,
          RankedTensorType::get({1, 1, columns / panel, panel, inner}, element),
          rhs, SmallVector<ReassociationIndices>{{0, 1, 2, 3}, {4}});
      auto packedType =
          RankedTensorType::get({1, 1, columns / panel, inner, panel}, element);
      packed = copyThrough(
          b, loc, split, emptyTensor(b, loc, packedType, {}),
          AffineMap::get(5, 0, {d(0), d(1), d(2), d(4), d(3)}, context),
          AffineMap::getMultiDimIdentityMap(5, context));
    } else {
      Value rhs4 = tensor::ExpandShapeOp::create(
          b, loc, RankedTensorType::get({1, 1, inner, columns}, element), rhs,
          SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
      packed = packPanels(b, loc, rhs4, panel);
    }
    Value weights = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({1, rows, inner}, lhsType.getElementType()), lhs,
        SmallVector<ReassociationIndices>{{0, 1}, {2}});
    Value flat = panelProduct(b, loc, weights, packed, type.getElementType(),
                              rhsUnsigned, lhsUnsigned);
    Value product = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({rows, columns}, type.getElementType()),
        flat, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
    if (columns == wanted)
      return product;
    return sliceOf(b, loc, product, {0, 0}, {rows, wanted});
  }
  bool usePanels(RankedTensorType type) const {
    if (panel <= 0 || type.getRank() != 2 || !type.hasStaticShape() ||
        !isa<FloatType>(type.getElementType()))
      return false;
    int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
    // A short product (a matrix-vector product, say) streams its right-hand
    // side once: contiguous panels matter more there than the zero columns
    // that pad it to whole panels.
    constexpr int64_t kShortRows = 8;
    return (columns % panel == 0 || rows < kShortRows) &&
           columns >= 2 * panel && rows >= 1;
  }

  int64_t panel;
};

struct CPUConvertTileToLinalgPass
    : aicc::cpu::impl::CPUConvertTileToLinalgPassBase<
          CPUConvertTileToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    PanelStrategy strategy(panelWidth);
    if (failed(convertTileToLinalg(getOperation(), &strategy)))
      signalPassFailure();
  }
};
} // namespace
