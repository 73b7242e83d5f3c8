//===- DataMovementOps.cpp - gather/scatter, slicing, shape changes -------===//

#include "Tile/IR/ConstantFold.h"
#include "Tile/IR/TileOpUtils.h"
#include "Tile/IR/TileOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace aicc::tile;
using namespace aicc::tile::detail;

static bool isStatic(int64_t size) { return !ShapedType::isDynamic(size); }

//===----------------------------------------------------------------------===//
// Gather and scatter
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = tensorTypeOf(adaptor.getData());
  RankedTensorType indices = tensorTypeOf(adaptor.getIndices());
  if (!data || !indices)
    return emitOptionalError(loc, "operands must be ranked tensors");
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(loc, "axis", axis, data.getRank())))
    return failure();
  SmallVector<int64_t> shape(data.getShape().take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, data.getShape().drop_front(axis + 1));
  inferred.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  return fold::gather(adaptor.getData(), adaptor.getIndices(), getAxis(),
                      getType());
}

LogicalResult
GatherElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                   Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = tensorTypeOf(adaptor.getData());
  RankedTensorType indices = tensorTypeOf(adaptor.getIndices());
  if (!data || !indices)
    return emitOptionalError(loc, "operands must be ranked tensors");
  if (data.getRank() != indices.getRank())
    return emitOptionalError(loc, "indices have rank ", indices.getRank(),
                             " but data has rank ", data.getRank());
  if (failed(checkAxis(loc, "axis", adaptor.getAxis(), data.getRank())))
    return failure();
  inferred.push_back(
      RankedTensorType::get(indices.getShape(), data.getElementType()));
  return success();
}

/// The length of the index tuples in the last dimension of `indices`, which
/// must be static and fit in `rank - batchDims` data dimensions.
static FailureOr<int64_t> indexTupleLength(Loc loc, RankedTensorType indices,
                                           int64_t rank, int64_t batchDims) {
  if (indices.getRank() < 1)
    return emitOptionalError(loc, "indices must have rank 1 or more");
  int64_t length = indices.getShape().back();
  if (!isStatic(length) || length < 1 || length > rank - batchDims)
    return emitOptionalError(loc, "index tuples have length ",
                             formatShape({length}), ", expected 1 to ",
                             rank - batchDims);
  return length;
}

LogicalResult GatherNdOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = tensorTypeOf(adaptor.getData());
  RankedTensorType indices = tensorTypeOf(adaptor.getIndices());
  if (!data || !indices)
    return emitOptionalError(loc, "operands must be ranked tensors");
  int64_t batchDims = adaptor.getBatchDims();
  if (batchDims < 0 || batchDims >= std::min(data.getRank(), indices.getRank()))
    return emitOptionalError(loc, "batch_dims ", batchDims,
                             " must be less than the ranks of data and "
                             "indices");
  FailureOr<int64_t> length =
      indexTupleLength(loc, indices, data.getRank(), batchDims);
  if (failed(length))
    return failure();
  if (failed(verifyCompatibleShape(data.getShape().take_front(batchDims),
                                   indices.getShape().take_front(batchDims))))
    return emitOptionalError(loc,
                             "batch dimensions of data and indices differ");
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  llvm::append_range(shape, data.getShape().drop_front(batchDims + *length));
  inferred.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

/// Checks that updates match data's element type, and data's type is the
/// result.
static LogicalResult inferScatter(Loc loc, RankedTensorType data,
                                  RankedTensorType updates,
                                  SmallVectorImpl<Type> &inferred) {
  if (data.getElementType() != updates.getElementType())
    return emitOptionalError(loc, "updates have element type ",
                             updates.getElementType(), " but data has ",
                             data.getElementType());
  inferred.push_back(
      RankedTensorType::get(data.getShape(), data.getElementType()));
  return success();
}

LogicalResult
ScatterElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = tensorTypeOf(adaptor.getData());
  RankedTensorType indices = tensorTypeOf(adaptor.getIndices());
  RankedTensorType updates = tensorTypeOf(adaptor.getUpdates());
  if (!data || !indices || !updates)
    return emitOptionalError(loc, "operands must be ranked tensors");
  if (indices.getRank() != data.getRank() ||
      failed(verifyCompatibleShape(indices.getShape(), updates.getShape())))
    return emitOptionalError(loc, "indices (", formatShape(indices.getShape()),
                             ") and updates (", formatShape(updates.getShape()),
                             ") must have one shape of the rank of data");
  if (failed(checkAxis(loc, "axis", adaptor.getAxis(), data.getRank())))
    return failure();
  return inferScatter(loc, data, updates, inferred);
}

LogicalResult ScatterNdOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType data = tensorTypeOf(adaptor.getData());
  RankedTensorType indices = tensorTypeOf(adaptor.getIndices());
  RankedTensorType updates = tensorTypeOf(adaptor.getUpdates());
  if (!data || !indices || !updates)
    return emitOptionalError(loc, "operands must be ranked tensors");
  FailureOr<int64_t> length = indexTupleLength(loc, indices, data.getRank(), 0);
  if (failed(length))
    return failure();
  SmallVector<int64_t> expected(indices.getShape().drop_back());
  llvm::append_range(expected, data.getShape().drop_front(*length));
  if (failed(verifyCompatibleShape(expected, updates.getShape())))
    return emitOptionalError(loc, "updates have shape ",
                             formatShape(updates.getShape()), ", expected ",
                             formatShape(expected));
  return inferScatter(loc, data, updates, inferred);
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  size_t rank = input.getRank();
  ArrayRef<int64_t> starts = adaptor.getStarts();
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  ArrayRef<int64_t> steps = adaptor.getSteps();
  if (failed(checkArray(loc, "starts", starts, rank, 0)) ||
      failed(checkArray(loc, "sizes", sizes, rank, -1)) ||
      failed(checkArray(loc, "steps", steps, rank, INT64_MIN)))
    return failure();
  SmallVector<int64_t> shape;
  for (size_t d = 0; d < rank; ++d) {
    int64_t dim = input.getDimSize(d);
    if (steps[d] == 0)
      return emitOptionalError(loc, "step of dimension ", d, " is zero");
    if (sizes[d] == -1) {
      if (starts[d] != 0 || steps[d] != 1)
        return emitOptionalError(loc, "dimension ", d,
                                 " keeps its whole extent (size -1) so it "
                                 "needs start 0 and step 1");
      shape.push_back(dim);
      continue;
    }
    shape.push_back(sizes[d]);
    if (!isStatic(dim) || sizes[d] == 0)
      continue;
    // The first and last positions read must be inside the dimension.
    int64_t last = starts[d] + (sizes[d] - 1) * steps[d];
    if (starts[d] >= dim || last < 0 || last >= dim)
      return emitOptionalError(loc, "dimension ", d, " reads positions ",
                               starts[d], " to ", last, " outside its size ",
                               dim);
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  bool identity =
      getInput().getType() == getType() &&
      llvm::all_of(llvm::zip_equal(getStarts(), getSteps()), [](auto pair) {
        return std::get<0>(pair) == 0 && std::get<1>(pair) == 1;
      });
  if (identity)
    return getInput();
  return fold::slice(adaptor.getInput(), getStarts(), getSteps(), getType());
}

//===----------------------------------------------------------------------===//
// ConcatOp, SplitOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitOptionalError(loc, "needs at least one input");
  RankedTensorType first = tensorTypeOf(inputs.front());
  if (!first)
    return emitOptionalError(loc, "inputs must be ranked tensors");
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(loc, "axis", axis, first.getRank())))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  for (Value input : inputs.drop_front()) {
    RankedTensorType type = tensorTypeOf(input);
    if (!type || type.getRank() != first.getRank() ||
        type.getElementType() != first.getElementType())
      return emitOptionalError(loc, "inputs must share rank and element type");
    for (int64_t d = 0; d < first.getRank(); ++d) {
      int64_t size = type.getDimSize(d);
      if (d == axis) {
        shape[d] = isStatic(shape[d]) && isStatic(size)
                       ? shape[d] + size
                       : static_cast<int64_t>(ShapedType::kDynamic);
      } else if (!isStatic(shape[d])) {
        shape[d] = size;
      } else if (isStatic(size) && size != shape[d]) {
        return emitOptionalError(loc, "inputs differ in dimension ", d, " (",
                                 shape[d], " vs ", size,
                                 ") outside the concatenation axis");
      }
    }
  }
  inferred.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  return fold::concat(adaptor.getInputs(), getAxis(), getType());
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  int64_t axis = adaptor.getAxis();
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  if (failed(checkAxis(loc, "axis", axis, input.getRank())) ||
      failed(checkArray(loc, "sizes", sizes, sizes.size(), 0)))
    return failure();
  if (sizes.empty())
    return emitOptionalError(loc, "sizes must not be empty");
  int64_t total = 0;
  for (int64_t size : sizes)
    total += size;
  int64_t dim = input.getDimSize(axis);
  if (isStatic(dim) && total != dim)
    return emitOptionalError(loc, "sizes add up to ", total,
                             " but the dimension has size ", dim);
  for (int64_t size : sizes) {
    SmallVector<int64_t> shape(input.getShape());
    shape[axis] = size;
    inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  int64_t rank = input.getRank();
  ArrayRef<int64_t> padding = adaptor.getPadding();
  if (failed(checkArray(loc, "padding", padding, 2 * rank, 0)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = input.getDimSize(d);
    shape.push_back(isStatic(dim) ? dim + padding[d] + padding[d + rank]
                                  : static_cast<int64_t>(ShapedType::kDynamic));
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult PadOp::verify() {
  RankedTensorType input = getInput().getType();
  if (std::optional<TypedAttr> value = getValue()) {
    if (getMode() != PadMode::constant)
      return emitOpError("only 'constant' padding takes a value");
    if (value->getType() != input.getElementType())
      return emitOpError() << "padding value has type " << value->getType()
                           << " but the elements are "
                           << input.getElementType();
  }
  if (getMode() == PadMode::constant)
    return success();
  int64_t rank = input.getRank();
  ArrayRef<int64_t> padding = getPadding();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = input.getDimSize(d);
    if (!isStatic(dim) || (padding[d] == 0 && padding[d + rank] == 0))
      continue;
    // reflect mirrors around the edge element, so it can add at most dim-1;
    // edge and wrap need something to copy.
    int64_t most = getMode() == PadMode::reflect ? dim - 1
                   : getMode() == PadMode::wrap  ? dim
                                                 : INT64_MAX;
    if (dim == 0 || padding[d] > most || padding[d + rank] > most)
      return emitOpError() << "'" << stringifyPadMode(getMode())
                           << "' padding of dimension " << d
                           << " is larger than its size " << dim << " allows";
  }
  return success();
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() &&
      llvm::all_of(getPadding(), [](int64_t pad) { return pad == 0; }))
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  ArrayRef<int64_t> permutation = adaptor.getPermutation();
  int64_t rank = input.getRank();
  SmallVector<bool> seen(rank, false);
  bool valid = static_cast<int64_t>(permutation.size()) == rank;
  for (int64_t dim : permutation) {
    if (!valid || dim < 0 || dim >= rank || seen[dim]) {
      valid = false;
      break;
    }
    seen[dim] = true;
  }
  if (!valid)
    return emitOptionalError(loc, "permutation is not a permutation of [0, ",
                             rank, ")");
  SmallVector<int64_t> shape;
  for (int64_t dim : permutation)
    shape.push_back(input.getDimSize(dim));
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType() &&
      llvm::equal(getPermutation(),
                  llvm::seq<int64_t>(0, getPermutation().size())))
    return getInput();
  return fold::transpose(adaptor.getInput(), getPermutation(), getType());
}

namespace {
/// transpose(transpose(x, p), q) -> transpose(x, p∘q).
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<TransposeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a transpose");
    SmallVector<int64_t> composed;
    for (int64_t dim : op.getPermutation())
      composed.push_back(inner.getPermutation()[dim]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), inner.getInput(),
                                             composed);
    return success();
  }
};
/// A transpose that moves only dimensions of extent 1 keeps the data's
/// order: a reshape.
struct UnitTransposeToReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType input = op.getInput().getType();
    if (!input.hasStaticShape())
      return failure();
    SmallVector<int64_t> moved;
    for (int64_t d : op.getPermutation())
      if (input.getDimSize(d) != 1)
        moved.push_back(d);
    if (!llvm::is_sorted(moved))
      return rewriter.notifyMatchFailure(op, "moves data");
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};
} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<ComposeTransposes, UnitTransposeToReshape>(context);
}

//===----------------------------------------------------------------------===//
// ReshapeOp, ExpandOp, TileOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getType();
  if (input.getElementType() != result.getElementType())
    return emitOpError() << "changes the element type from "
                         << input.getElementType() << " to "
                         << result.getElementType();
  int64_t dynamic = llvm::count_if(result.getShape(), ShapedType::isDynamic);
  if (dynamic > 1)
    return emitOpError() << "result may have at most one dynamic dimension, "
                            "got "
                         << formatShape(result.getShape());
  if (!input.hasStaticShape())
    return success();
  int64_t count = input.getNumElements();
  int64_t known = 1;
  for (int64_t size : result.getShape())
    if (isStatic(size))
      known *= size;
  if (dynamic ? (known == 0 ? count != 0 : count % known != 0) : known != count)
    return emitOpError() << "cannot reshape " << count << " elements ("
                         << formatShape(input.getShape()) << ") into "
                         << formatShape(result.getShape());
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    if (getType().hasStaticShape() && !getType().getEncoding())
      return dense.reshape(getType());
  return {};
}

LogicalResult ExpandOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getType();
  if (input.getElementType() != result.getElementType())
    return emitOpError() << "changes the element type from "
                         << input.getElementType() << " to "
                         << result.getElementType();
  if (input.getRank() > result.getRank())
    return emitOpError() << "cannot broadcast rank " << input.getRank()
                         << " to the smaller rank " << result.getRank();
  int64_t offset = result.getRank() - input.getRank();
  for (int64_t d = 0; d < input.getRank(); ++d) {
    int64_t from = input.getDimSize(d), to = result.getDimSize(d + offset);
    if (isStatic(from) && from != 1 && isStatic(to) && from != to)
      return emitOpError() << "cannot broadcast "
                           << formatShape(input.getShape()) << " to "
                           << formatShape(result.getShape());
  }
  return success();
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return fold::broadcast(adaptor.getInput(), getType());
}

LogicalResult TileOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  RankedTensorType input = tensorTypeOf(adaptor.getInput());
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor");
  ArrayRef<int64_t> repeats = adaptor.getRepeats();
  if (failed(checkArray(loc, "repeats", repeats, input.getRank(), 0)))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [size, repeat] : llvm::zip_equal(input.getShape(), repeats))
    shape.push_back(repeat == 0 ? 0
                    : isStatic(size)
                        ? size * repeat
                        : static_cast<int64_t>(ShapedType::kDynamic));
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult TileOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType() &&
      llvm::all_of(getRepeats(), [](int64_t repeat) { return repeat == 1; }))
    return getInput();
  return fold::tile(adaptor.getInput(), getType());
}

//===----------------------------------------------------------------------===//
// ResizeOp
//===----------------------------------------------------------------------===//

LogicalResult ResizeOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getType();
  int64_t rank = input.getRank();
  if (result.getRank() != rank)
    return emitOpError() << "result rank " << result.getRank()
                         << " differs from input rank " << rank;
  if (result.getElementType() != input.getElementType())
    return emitOpError() << "changes the element type from "
                         << input.getElementType() << " to "
                         << result.getElementType();
  Type element = input.getElementType();
  if (getMode() == ResizeMode::nearest ? !isNumeric(element)
                                       : !isFloat(element))
    return emitOpError() << "'" << stringifyResizeMode(getMode())
                         << "' resize does not take element type " << element;
  if (static_cast<int64_t>(getScales().size()) != rank)
    return emitOpError() << "scales has " << getScales().size()
                         << " entries, expected " << rank;
  for (double scale : getScales())
    if (!(scale > 0.0))
      return emitOpError() << "scales must be positive, got " << scale;
  bool crop =
      getCoordinateTransform() == CoordinateTransform::tf_crop_and_resize;
  if (crop != getRoi().has_value())
    return emitOpError(crop ? "'tf_crop_and_resize' requires a roi"
                            : "only 'tf_crop_and_resize' takes a roi");
  if (crop && static_cast<int64_t>(getRoi()->size()) != 2 * rank)
    return emitOpError() << "roi has " << getRoi()->size()
                         << " entries, expected " << 2 * rank;
  if (getAntialias() && getMode() == ResizeMode::nearest)
    return emitOpError("'nearest' resize does not take 'antialias'");
  if (Value dynamic = getDynamicScales()) {
    auto type = cast<RankedTensorType>(dynamic.getType());
    if (type.getRank() != 1 || !isFloat(type.getElementType()) ||
        (!type.isDynamicDim(0) && type.getDimSize(0) != rank))
      return emitOpError() << "dynamic_scales must be a 1-D float tensor of "
                           << rank << " values, got " << type;
  }
  return success();
}
