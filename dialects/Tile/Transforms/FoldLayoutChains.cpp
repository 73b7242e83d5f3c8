//===- FoldLayoutChains.cpp - Reshapes, transposes and picks, reordered ---===//
//
// Exporters spell a layout change as a chain of reshapes, transposes and
// gathers of one constant position: torchvision's attention splits its
// packed q, k and v projection with a reshape to [1, s, b, 3, e], a
// transpose [3, 1, 2, 0, 4], a reshape, a gather per position, and then a
// reshape, a transpose and a reshape per head split. Each transpose is a
// copy. This pass turns the picks into slices and moves them up to the
// source (a slice along the outer part of a dimension that a reshape split
// is a slice of that dimension), a reshape that only splits dimensions of
// a transposed tensor before the transpose, and a transpose of rows after
// the product with a matrix and the bias: what is
// left is a slice, a reshape and one transpose, which the GPU kernels read
// in place (a view and a permuted map), as they do for BERT's head split.
// On the way out, the head merge's transpose and the transpose of the
// output projection's rows back to batch first compose into one before
// the projection (BERT's head merge).
//
//===----------------------------------------------------------------------===//

#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aicc::tile {
#define GEN_PASS_DEF_TILEFOLDLAYOUTCHAINSPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {

/// The position a gather of one constant index picks along an axis of
/// `extent`, negative positions counted from the end; none for other
/// gathers or a position outside.
std::optional<int64_t> pickedPosition(GatherOp op, int64_t extent) {
  DenseIntElementsAttr constant;
  auto indices = cast<RankedTensorType>(op.getIndices().getType());
  if (indices.getRank() != 0 ||
      !matchPattern(op.getIndices(), m_Constant(&constant)))
    return std::nullopt;
  bool isUnsigned = indices.getElementType().isUnsignedInteger();
  APInt raw = *constant.getValues<APInt>().begin();
  int64_t at = isUnsigned ? static_cast<int64_t>(raw.getZExtValue())
                          : raw.getSExtValue();
  if (at < 0)
    at += extent;
  if (at < 0 || at >= extent)
    return std::nullopt;
  return at;
}

/// The dimensions of a reshape from `from` to `to` (static shapes) grouped
/// into runs of equal element count, as a reassociation pairs them: group
/// i is the dimensions from[i] of `from` and to[i] of `to`. Dimensions of
/// extent 1 form no group and appear in none. Fails on shapes with no such
/// pairing (an empty shape, a zero extent).
struct Grouping {
  SmallVector<SmallVector<int64_t>> from, to;
};
FailureOr<Grouping> groupDimensions(ArrayRef<int64_t> from,
                                    ArrayRef<int64_t> to) {
  Grouping g;
  size_t i = 0, j = 0;
  auto skipUnits = [](ArrayRef<int64_t> shape, size_t &k) {
    while (k < shape.size() && shape[k] == 1)
      ++k;
  };
  while (true) {
    skipUnits(from, i);
    skipUnits(to, j);
    if (i == from.size() || j == to.size())
      break;
    SmallVector<int64_t> fromGroup{int64_t(i)}, toGroup{int64_t(j)};
    int64_t fromCount = from[i++], toCount = to[j++];
    while (fromCount != toCount) {
      if (fromCount <= 0 || toCount <= 0)
        return failure();
      if (fromCount < toCount && i < from.size()) {
        fromCount *= from[i];
        fromGroup.push_back(i++);
      } else if (toCount < fromCount && j < to.size()) {
        toCount *= to[j];
        toGroup.push_back(j++);
      } else {
        return failure();
      }
    }
    g.from.push_back(fromGroup);
    g.to.push_back(toGroup);
  }
  skipUnits(from, i);
  skipUnits(to, j);
  if (i != from.size() || j != to.size())
    return failure();
  return g;
}

RankedTensorType withShape(RankedTensorType type, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, type.getElementType());
}

/// Replaces `op` by the slice of `x` (`starts`, `sizes`, `steps`)
/// reshaped to `op`'s result.
void replaceBySliceReshaped(PatternRewriter &rewriter, Operation *op, Value x,
                            ArrayRef<int64_t> starts, ArrayRef<int64_t> sizes,
                            ArrayRef<int64_t> steps) {
  auto type = cast<RankedTensorType>(x.getType());
  auto slice = SliceOp::create(rewriter, op->getLoc(), withShape(type, sizes),
                               x, rewriter.getDenseI64ArrayAttr(starts),
                               rewriter.getDenseI64ArrayAttr(sizes),
                               rewriter.getDenseI64ArrayAttr(steps));
  rewriter.replaceOpWithNewOp<ReshapeOp>(op, op->getResult(0).getType(),
                                         slice.getResult());
}

/// gather(x, i, a) of one constant position -> reshape(slice(x)): the
/// slice of extent 1 at i along a, the dimension dropped by a reshape.
/// Slices move where gathers cannot (the patterns below).
struct PickAsSlice : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType data = op.getData().getType();
    int64_t axis = op.getAxis();
    if (!data.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    std::optional<int64_t> at = pickedPosition(op, data.getDimSize(axis));
    if (!at)
      return rewriter.notifyMatchFailure(op, "not one constant position");
    SmallVector<int64_t> starts(data.getRank(), 0), sizes(data.getShape()),
        steps(data.getRank(), 1);
    starts[axis] = *at;
    sizes[axis] = 1;
    replaceBySliceReshaped(rewriter, op, op.getData(), starts, sizes, steps);
    return success();
  }
};

/// slice(transpose(x, p)) -> transpose(slice(x), p): the slice along
/// x's dimensions first.
struct SliceBeforeTranspose : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getInput().getDefiningOp<TransposeOp>();
    if (!transpose || !op.getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "input is not a transpose");
    ArrayRef<int64_t> perm = transpose.getPermutation();
    RankedTensorType source = transpose.getInput().getType();
    int64_t rank = source.getRank();
    SmallVector<int64_t> starts(rank), sizes(rank), steps(rank), shape(rank);
    for (auto [j, d] : llvm::enumerate(perm)) {
      starts[d] = op.getStarts()[j];
      sizes[d] = op.getSizes()[j];
      steps[d] = op.getSteps()[j];
      shape[d] = op.getType().getDimSize(j);
    }
    Location loc = op.getLoc();
    auto slice = SliceOp::create(rewriter, loc, withShape(source, shape),
                                 transpose.getInput(),
                                 rewriter.getDenseI64ArrayAttr(starts),
                                 rewriter.getDenseI64ArrayAttr(sizes),
                                 rewriter.getDenseI64ArrayAttr(steps));
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                             slice.getResult(), perm);
    return success();
  }
};

/// slice(reshape(x)) where every dimension the slice cuts (by unit steps)
/// is the outer part of one dimension d of x that the reshape split, the
/// rest of its part whole: the slice of x along those d, reshaped.
struct SliceBeforeReshape : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto reshape = op.getInput().getDefiningOp<ReshapeOp>();
    if (!reshape || !reshape.getType().hasStaticShape() ||
        !reshape.getInput().getType().hasStaticShape() ||
        !op.getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "input is not a static reshape");
    RankedTensorType source = reshape.getInput().getType();
    ArrayRef<int64_t> shaped = reshape.getType().getShape();
    FailureOr<Grouping> g = groupDimensions(source.getShape(), shaped);
    if (failed(g))
      return rewriter.notifyMatchFailure(op, "no reassociation");
    SmallVector<int64_t> starts(source.getRank(), 0), sizes(source.getShape()),
        steps(source.getRank(), 1);
    for (int64_t a = 0; a < int64_t(shaped.size()); ++a) {
      int64_t start = op.getStarts()[a], size = op.getSizes()[a];
      if (start == 0 && size == shaped[a])
        continue;
      if (op.getSteps()[a] != 1)
        return rewriter.notifyMatchFailure(op, "a step");
      auto group = llvm::find_if(g->to, [&](const SmallVector<int64_t> &to) {
        return to.front() == a;
      });
      if (group == g->to.end() || g->from[group - g->to.begin()].size() != 1)
        return rewriter.notifyMatchFailure(op, "cuts inside a split or merge");
      int64_t d = g->from[group - g->to.begin()].front();
      int64_t inner = source.getDimSize(d) / shaped[a];
      starts[d] = start * inner;
      sizes[d] = size * inner;
    }
    replaceBySliceReshaped(rewriter, op, reshape.getInput(), starts, sizes,
                           steps);
    return success();
  }
};

/// A rewrite of reshape(transpose(x)), both shapes static.
struct ReshapeOfTransposePattern : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const final {
    auto transpose = op.getInput().getDefiningOp<TransposeOp>();
    if (!transpose || !op.getInput().getType().hasStaticShape() ||
        !op.getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "input is not a transpose");
    return rewriteOfTranspose(op, transpose, rewriter);
  }
  virtual LogicalResult rewriteOfTranspose(ReshapeOp op, TransposeOp transpose,
                                           PatternRewriter &rewriter) const = 0;
};

/// Replaces `op`, a reshape of `transpose`, by the transpose
/// (`permutation`) of the reshape of its input to `shape`.
void reshapeBeforeTranspose(PatternRewriter &rewriter, ReshapeOp op,
                            TransposeOp transpose, ArrayRef<int64_t> shape,
                            ArrayRef<int64_t> permutation) {
  RankedTensorType source = transpose.getInput().getType();
  auto reshaped = ReshapeOp::create(
      rewriter, op.getLoc(), withShape(source, shape), transpose.getInput());
  rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                           reshaped.getResult(), permutation);
}

/// reshape(transpose(x, p)) where the reshape only splits dimensions:
/// transpose(reshape(x), p') with x's dimensions split the same way.
struct SplitBeforeTranspose : ReshapeOfTransposePattern {
  using ReshapeOfTransposePattern::ReshapeOfTransposePattern;
  LogicalResult rewriteOfTranspose(ReshapeOp op, TransposeOp transpose,
                                   PatternRewriter &rewriter) const override {
    RankedTensorType transposed = op.getInput().getType();
    ArrayRef<int64_t> perm = transpose.getPermutation();
    ArrayRef<int64_t> shape = op.getType().getShape();
    // Without units on either side, every group one transposed dimension.
    if (llvm::is_contained(transposed.getShape(), 1) ||
        llvm::is_contained(shape, 1))
      return rewriter.notifyMatchFailure(op, "unit dimensions");
    FailureOr<Grouping> g = groupDimensions(transposed.getShape(), shape);
    if (failed(g) || llvm::any_of(g->from, [](const SmallVector<int64_t> &f) {
          return f.size() != 1;
        }))
      return rewriter.notifyMatchFailure(op, "merges dimensions");
    if (g->from.size() == shape.size())
      return rewriter.notifyMatchFailure(op, "splits nothing");
    // Source dimension perm[j] becomes the extents of group j.
    RankedTensorType source = transpose.getInput().getType();
    SmallVector<SmallVector<int64_t>> parts(source.getRank());
    for (auto [j, to] : llvm::enumerate(g->to))
      for (int64_t r : to)
        parts[perm[j]].push_back(shape[r]);
    SmallVector<int64_t> splitShape, first;
    for (const SmallVector<int64_t> &p : parts) {
      first.push_back(splitShape.size());
      llvm::append_range(splitShape, p);
    }
    SmallVector<int64_t> permutation;
    for (auto [j, to] : llvm::enumerate(g->to))
      for (size_t k = 0; k < to.size(); ++k)
        permutation.push_back(first[perm[j]] + k);
    reshapeBeforeTranspose(rewriter, op, transpose, splitShape, permutation);
    return success();
  }
};

/// reshape(transpose(x, p)) where the reshape only drops or inserts
/// dimensions of extent 1: transpose(reshape(x), p') with the units moved
/// to x's side (x's own dropped, the result's first). At batch 1 the batch
/// dimension comes and goes as such reshapes, between transposes that then
/// compose and reshapes that then split before them (ViT's head split
/// [s, h, d] -> [h, s, d] -> [1, h, s, d]).
struct UnitsBeforeTranspose : ReshapeOfTransposePattern {
  using ReshapeOfTransposePattern::ReshapeOfTransposePattern;
  LogicalResult rewriteOfTranspose(ReshapeOp op, TransposeOp transpose,
                                   PatternRewriter &rewriter) const override {
    RankedTensorType transposed = op.getInput().getType();
    ArrayRef<int64_t> shape = op.getType().getShape();
    auto nonUnit = [](ArrayRef<int64_t> dims) {
      SmallVector<int64_t> positions;
      for (auto [i, extent] : llvm::enumerate(dims))
        if (extent != 1)
          positions.push_back(i);
      return positions;
    };
    SmallVector<int64_t> in = nonUnit(transposed.getShape());
    SmallVector<int64_t> out = nonUnit(shape);
    if (in.size() != out.size() ||
        llvm::any_of(llvm::zip(in, out), [&](auto pair) {
          return transposed.getDimSize(std::get<0>(pair)) !=
                 shape[std::get<1>(pair)];
        }))
      return rewriter.notifyMatchFailure(op, "splits or merges dimensions");
    // The result's units (outermost: the innermost dimension stays the
    // one x is contiguous along), then x's dimensions without its units.
    RankedTensorType source = transpose.getInput().getType();
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<int64_t> moved(shape.size() - out.size(), 1);
    SmallVector<int64_t> position(source.getRank(), -1);
    for (auto [d, extent] : llvm::enumerate(source.getShape()))
      if (extent != 1) {
        position[d] = moved.size();
        moved.push_back(extent);
      }
    SmallVector<int64_t> permutation;
    int64_t unit = 0;
    size_t next = 0;
    for (int64_t extent : shape)
      permutation.push_back(extent == 1 ? unit++ : position[perm[in[next++]]]);
    reshapeBeforeTranspose(rewriter, op, transpose, moved, permutation);
    return success();
  }
};

/// Whether `perm` keeps its last dimension last: a transpose of the rows
/// of matrices only.
bool keepsLastDimension(ArrayRef<int64_t> perm) {
  return !perm.empty() && perm.back() == int64_t(perm.size()) - 1;
}

/// matmul(transpose(x, p), w) -> transpose(matmul(x, w), p) for a matrix w
/// and a p that keeps the last dimension: the product of each row does not
/// depend on where the row lies (torchvision's attention transposes its
/// input to sequence first before the packed projection).
struct TransposeAfterMatmul : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getLhs().getDefiningOp<TransposeOp>();
    if (!transpose || op.getTransposeLhs() ||
        op.getRhs().getType().getRank() != 2 ||
        !keepsLastDimension(transpose.getPermutation()) ||
        !op.getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not rows of a transpose");
    ArrayRef<int64_t> perm = transpose.getPermutation();
    RankedTensorType type = op.getType();
    SmallVector<int64_t> shape(type.getRank());
    for (auto [j, d] : llvm::enumerate(perm))
      shape[d] = type.getDimSize(j);
    auto product = MatmulOp::create(
        rewriter, op.getLoc(), withShape(type, shape), transpose.getInput(),
        op.getRhs(), op.getTransposeLhsAttr(), op.getTransposeRhsAttr());
    rewriter.replaceOpWithNewOp<TransposeOp>(op, type, product.getResult(),
                                             perm);
    return success();
  }
};

/// Whether `other` is a bias of a result of type `type`: broadcast along
/// all but the last dimension.
bool isBias(Value other, RankedTensorType type) {
  auto otherType = cast<RankedTensorType>(other.getType());
  if (!otherType.hasStaticShape() || otherType.getRank() > type.getRank())
    return false;
  // (A scalar broadcasts along every dimension.)
  return otherType.getRank() == 0 ||
         llvm::all_of(otherType.getShape().drop_back(),
                      [](int64_t d) { return d == 1; });
}

/// binary(v(y), c) -> v(binary(y, c)) for a view v (`ViewOp`) that
/// `movable` accepts and that keeps y's last dimension, and a c broadcast
/// along all but the last dimension (a bias, a scalar); either operand
/// order. `rebuild` makes the view again, of the moved op's result.
template <typename ViewOp, typename Movable, typename Rebuild>
LogicalResult moveViewAfterBias(BinaryOp op, PatternRewriter &rewriter,
                                Movable movable, Rebuild rebuild) {
  RankedTensorType type = op.getType();
  if (!type.hasStaticShape())
    return failure();
  for (int side = 0; side < 2; ++side) {
    Value operand = op->getOperand(side), other = op->getOperand(1 - side);
    auto view = operand.getDefiningOp<ViewOp>();
    if (!view || operand.getType() != type || !movable(view))
      continue;
    RankedTensorType input = view.getInput().getType();
    if (!input.hasStaticShape() ||
        input.getShape().back() != type.getShape().back() ||
        !isBias(other, input))
      continue;
    Operation *moved = rewriter.clone(*op);
    moved->setOperand(side, view.getInput());
    moved->getResult(0).setType(input.clone(type.getElementType()));
    rewriter.replaceOp(op, rebuild(view, moved->getResult(0)));
    return success();
  }
  return rewriter.notifyMatchFailure(op, "no moved view and bias");
}

/// binary(transpose(y, p), c) -> transpose(binary(y, c), p) where p keeps
/// the last dimension and c is a bias.
struct TransposeAfterBias : OpRewritePattern<BinaryOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BinaryOp op,
                                PatternRewriter &rewriter) const override {
    return moveViewAfterBias<TransposeOp>(
        op, rewriter,
        [](TransposeOp t) { return keepsLastDimension(t.getPermutation()); },
        [&](TransposeOp t, Value moved) {
          return TransposeOp::create(rewriter, op.getLoc(), op.getType(), moved,
                                     t.getPermutation())
              .getResult();
        });
  }
};

/// matmul(reshape(x), w) for a matrix w, where the reshape turns x's
/// trailing dimensions into the product's K and only regroups the others
/// (ViT's head merge, [s, b, h, d] -> [s b, h d]): the product of x with
/// its trailing dimensions merged, then the reshape of the rows. The rows
/// keep their own dimensions, so that a transpose of them later can
/// compose with the product's output.
struct ReshapeRowsAfterMatmul : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto reshape = op.getLhs().getDefiningOp<ReshapeOp>();
    if (!reshape || op.getTransposeLhs() ||
        op.getRhs().getType().getRank() != 2 ||
        !reshape.getInput().getType().hasStaticShape() ||
        !op.getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not a reshape of matrix rows");
    RankedTensorType source = reshape.getInput().getType();
    ArrayRef<int64_t> shaped = reshape.getType().getShape();
    // (Units belong to no group: batch 1's [1, s, e] -> [s, e] keeps K.)
    FailureOr<Grouping> g = groupDimensions(source.getShape(), shaped);
    if (failed(g) || g->to.empty() || g->to.back().size() != 1 ||
        g->to.back().front() != int64_t(shaped.size()) - 1)
      return rewriter.notifyMatchFailure(op, "K is not one trailing group");
    // Nothing to gain when the reshape keeps the rows as they are (it
    // only merges K).
    SmallVector<int64_t> rows(
        source.getShape().take_front(g->from.back().front()));
    // (No rows before K: [1, e] of a vector [e] stays, the product needs
    // a matrix.)
    if (rows.empty())
      return rewriter.notifyMatchFailure(op, "no rows before K");
    if (ArrayRef<int64_t>(rows) == shaped.drop_back())
      return rewriter.notifyMatchFailure(op, "the rows keep their shape");
    SmallVector<int64_t> merged(rows);
    merged.push_back(shaped.back());
    Location loc = op.getLoc();
    Value input = reshape.getInput();
    if (g->from.back() != SmallVector<int64_t>{int64_t(source.getRank()) - 1})
      input =
          ReshapeOp::create(rewriter, loc, withShape(source, merged), input);
    RankedTensorType type = op.getType();
    SmallVector<int64_t> productShape(rows);
    productShape.push_back(type.getShape().back());
    auto product = MatmulOp::create(
        rewriter, loc, withShape(type, productShape), input, op.getRhs(),
        op.getTransposeLhsAttr(), op.getTransposeRhsAttr());
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, type, product.getResult());
    return success();
  }
};

/// binary(reshape(y), c) -> reshape(binary(y, c)) where y is a product's
/// result, the reshape keeps the last dimension and c is a bias.
struct ReshapeRowsAfterBias : OpRewritePattern<BinaryOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BinaryOp op,
                                PatternRewriter &rewriter) const override {
    return moveViewAfterBias<ReshapeOp>(
        op, rewriter,
        [](ReshapeOp r) {
          return bool(r.getInput().getDefiningOp<MatmulOp>());
        },
        [&](ReshapeOp, Value moved) {
          return ReshapeOp::create(rewriter, op.getLoc(), op.getType(), moved)
              .getResult();
        });
  }
};

/// transpose(bias(matmul(reshape(transpose(x, q)), w)), p) -> bias(matmul(
/// reshape(transpose(x, q')), w)) for a p that keeps the last dimension, a
/// matrix w, any number of biases, and a reshape that keeps the product's
/// rows as the inner transpose leaves them and merges the rest into K: the
/// rows transposed before the product, where p composes with q (q' is q
/// after p). ViT's head merge ([b, h, s, d] -> [s, b, h d]) and the
/// transpose back to batch first after its output projection become BERT's
/// [b, s, h, d], read in place, and the projection's result comes out
/// batch first, where its bias and the residual sum are its epilogue.
struct TransposeBeforeMergedProduct : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> perm = op.getPermutation();
    if (!keepsLastDimension(perm) || !op.getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not a transpose of rows");
    // The biases between the product and the transpose, last first, and
    // which of their operands the product's rows are.
    SmallVector<std::pair<BinaryOp, unsigned>> biases;
    Value v = op.getInput();
    while (auto binary = v.getDefiningOp<BinaryOp>()) {
      if (!binary->hasOneUse())
        return rewriter.notifyMatchFailure(op, "a bias read twice");
      RankedTensorType type = binary.getType();
      unsigned side = 0;
      while (side < 2 && (binary->getOperand(side).getType() != type ||
                          !isBias(binary->getOperand(1 - side), type)))
        ++side;
      if (side == 2)
        return rewriter.notifyMatchFailure(op, "not a bias");
      v = binary->getOperand(side);
      biases.push_back({binary, side});
    }
    auto product = v.getDefiningOp<MatmulOp>();
    if (!product || !product->hasOneUse() || product.getTransposeLhs() ||
        product.getRhs().getType().getRank() != 2 ||
        product.getType() != cast<RankedTensorType>(v.getType()))
      return rewriter.notifyMatchFailure(op, "not a product with a matrix");
    auto reshape = product.getLhs().getDefiningOp<ReshapeOp>();
    auto inner = reshape ? reshape.getInput().getDefiningOp<TransposeOp>()
                         : TransposeOp();
    if (!inner || !inner.getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not a reshape of a transpose");
    // The reshape keeps the t rows and merges the rest into K.
    ArrayRef<int64_t> transposed = inner.getType().getShape();
    ArrayRef<int64_t> merged = reshape.getType().getShape();
    int64_t t = int64_t(merged.size()) - 1;
    if (int64_t(perm.size()) != t + 1 || int64_t(transposed.size()) <= t ||
        transposed.take_front(t) != merged.drop_back())
      return rewriter.notifyMatchFailure(op, "the reshape changes the rows");
    // q' = q after p on the rows.
    ArrayRef<int64_t> q = inner.getPermutation();
    SmallVector<int64_t> composed, shape;
    for (int64_t j = 0; j < int64_t(transposed.size()); ++j) {
      int64_t from = j < t ? perm[j] : j;
      composed.push_back(q[from]);
      shape.push_back(transposed[from]);
    }
    SmallVector<int64_t> rows;
    for (int64_t j = 0; j < t; ++j)
      rows.push_back(merged[perm[j]]);
    rows.push_back(merged.back());
    Location loc = op.getLoc();
    RankedTensorType source = inner.getInput().getType();
    Value x = TransposeOp::create(rewriter, loc, withShape(source, shape),
                                  inner.getInput(), composed);
    x = ReshapeOp::create(rewriter, loc, withShape(source, rows), x);
    RankedTensorType resultType = op.getType();
    Value result = MatmulOp::create(
        rewriter, loc, product.getType().clone(resultType.getShape()), x,
        product.getRhs(), product.getTransposeLhsAttr(),
        product.getTransposeRhsAttr());
    for (auto [bias, side] : llvm::reverse(biases)) {
      Operation *moved = rewriter.clone(*bias);
      moved->setOperand(side, result);
      moved->getResult(0).setType(bias.getType().clone(resultType.getShape()));
      result = moved->getResult(0);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct TileFoldLayoutChainsPass
    : aicc::tile::impl::TileFoldLayoutChainsPassBase<TileFoldLayoutChainsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns
        .add<PickAsSlice, SliceBeforeTranspose, SliceBeforeReshape,
             SplitBeforeTranspose, UnitsBeforeTranspose, TransposeAfterMatmul,
             TransposeAfterBias, ReshapeRowsAfterMatmul, ReshapeRowsAfterBias,
             TransposeBeforeMergedProduct>(context);
    TransposeOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
