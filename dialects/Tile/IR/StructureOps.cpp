//===- StructureOps.cpp - constant, weight, fusion, yield -----------------===//

#include "Tile/IR/TileOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace aicc::tile;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult WeightOp::verify() {
  if (getName().empty())
    return emitOpError("weight name must not be empty");
  return success();
}

//===----------------------------------------------------------------------===//
// FusionOp
//===----------------------------------------------------------------------===//

YieldOp FusionOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult FusionOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << body.getNumArguments()
                         << " arguments but the region has "
                         << getInputs().size() << " inputs";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(body.getArgumentTypes(), getInputs()))) {
    auto [argType, input] = pair;
    if (argType != input.getType())
      return emitOpError() << "body argument " << index << " has type "
                           << argType << " but input " << index << " has type "
                           << input.getType();
  }
  auto yield = dyn_cast_or_null<YieldOp>(body.empty() ? nullptr : &body.back());
  if (!yield)
    return emitOpError("body must end with 'tile.yield'");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError() << "yields " << yield.getValues().size()
                         << " values of types " << yield.getValues().getTypes()
                         << " but the region has result types "
                         << getResultTypes();
  return success();
}

namespace {
/// Narrows a fusion region's interface: results that are unused or that
/// merely forward an input are removed (their uses read the input), and
/// inputs that the body no longer reads are dropped. A region left with no
/// results is erased.
struct SimplifyFusionInterface : OpRewritePattern<FusionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FusionOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    YieldOp yield = op.getYield();

    // Results forwarded from block arguments read the matching input.
    bool changed = false;
    for (auto [result, yielded] :
         llvm::zip_equal(op.getResults(), yield.getValues())) {
      auto argument = dyn_cast<BlockArgument>(yielded);
      if (!argument || argument.getOwner() != &body || result.use_empty())
        continue;
      rewriter.replaceAllUsesWith(result,
                                  op.getInputs()[argument.getArgNumber()]);
      changed = true;
    }

    llvm::BitVector keepResult(op.getNumResults());
    for (OpResult result : op.getResults())
      keepResult[result.getResultNumber()] = !result.use_empty();
    if (keepResult.none()) {
      rewriter.eraseOp(op);
      return success();
    }
    if (keepResult.all() && llvm::all_of(body.getArguments(), [](Value arg) {
          return !arg.use_empty();
        })) {
      if (!changed)
        return rewriter.notifyMatchFailure(op, "interface is already minimal");
      return success();
    }

    // The yield decides which block arguments stay alive, so narrow it first.
    SmallVector<Value> keptYields;
    SmallVector<Type> keptTypes;
    for (auto [index, value] : llvm::enumerate(yield.getValues()))
      if (keepResult[index]) {
        keptYields.push_back(value);
        keptTypes.push_back(value.getType());
      }
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<YieldOp>(yield, keptYields);

    llvm::BitVector dropArgument(body.getNumArguments());
    SmallVector<Value> keptInputs;
    for (BlockArgument argument : body.getArguments()) {
      if (argument.use_empty())
        dropArgument.set(argument.getArgNumber());
      else
        keptInputs.push_back(op.getInputs()[argument.getArgNumber()]);
    }

    rewriter.setInsertionPoint(op);
    auto narrowed =
        FusionOp::create(rewriter, op.getLoc(), keptTypes, keptInputs,
                         op->getDiscardableAttrDictionary().getValue());
    rewriter.inlineRegionBefore(op.getBody(), narrowed.getBody(),
                                narrowed.getBody().end());
    rewriter.modifyOpInPlace(narrowed, [&] {
      narrowed.getBody().front().eraseArguments(dropArgument);
    });

    SmallVector<Value> replacements(op.getNumResults(), nullptr);
    unsigned next = 0;
    for (unsigned index = 0; index < op.getNumResults(); ++index)
      if (keepResult[index])
        replacements[index] = narrowed.getResult(next++);
    rewriter.replaceOp(op, replacements);
    return success();
  }
};
} // namespace

void FusionOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<SimplifyFusionInterface>(context);
}
