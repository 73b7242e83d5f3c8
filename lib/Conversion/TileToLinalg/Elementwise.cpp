//===- Elementwise.cpp - Element-wise tile ops and constants --------------===//

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::tile_to_linalg {
namespace {

/// The converted result type of `op`'s single result.
RankedTensorType convertedType(const TypeConverter *converter, Operation *op) {
  return cast<RankedTensorType>(
      converter->convertType(op->getResult(0).getType()));
}

/// The most elements a splat constant keeps as a constant (see
/// ConvertConstant).
constexpr int64_t kLargestMaterializedSplat = 4096;

struct ConvertConstant : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    RankedTensorType type = convertedType(getTypeConverter(), op);
    if (!dense)
      return rewriter.notifyMatchFailure(op, "not a dense constant");
    // Unsigned and signless integers share their bits.
    if (dense.getElementType() != type.getElementType())
      dense = dense.bitcast(type.getElementType());
    // A large splat is filled at run time: as a constant it could end up
    // in the bundle, element by element (a 100-byte ConstantOfShape model
    // would ask for gigabytes). Fills fuse into their users like constants.
    if (dense.isSplat() && dense.getNumElements() > kLargestMaterializedSplat) {
      Location loc = op.getLoc();
      Value scalar = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      rewriter.replaceOpWithNewOp<linalg::FillOp>(op, scalar, empty);
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, dense);
    return success();
  }
};

struct ConvertUnary : OpConversionPattern<UnaryOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnaryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type original = op.getType().getElementType();
    auto toDouble = [](std::optional<APFloat> v) -> std::optional<double> {
      return v ? std::optional<double>(v->convertToDouble()) : std::nullopt;
    };
    std::optional<double> alpha = toDouble(op.getAlpha());
    std::optional<double> beta = toDouble(op.getBeta());
    bool ok = true;
    Value result = buildElementwise(
        rewriter, op.getLoc(), convertedType(getTypeConverter(), op),
        adaptor.getInput(), [&](OpBuilder &b, Location loc, ValueRange args) {
          Value v = ScalarBuilder{b, loc}.unary(op.getKind(), args[0], original,
                                                alpha, beta);
          ok &= static_cast<bool>(v);
          return v ? v : args[0];
        });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "unsupported kind for the type");
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertBinary : OpConversionPattern<BinaryOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BinaryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type original = op.getLhs().getType().getElementType();
    bool ok = true;
    Value result = buildElementwise(
        rewriter, op.getLoc(), convertedType(getTypeConverter(), op),
        {adaptor.getLhs(), adaptor.getRhs()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value v = ScalarBuilder{b, loc}.binary(op.getKind(), args[0], args[1],
                                                 original);
          ok &= static_cast<bool>(v);
          return v ? v : args[0];
        });
    if (!ok)
      return rewriter.notifyMatchFailure(op, "unsupported kind for the type");
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertCompare : OpConversionPattern<CompareOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CompareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type original = op.getLhs().getType().getElementType();
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, op.getLoc(), convertedType(getTypeConverter(), op),
                {adaptor.getLhs(), adaptor.getRhs()},
                [&](OpBuilder &b, Location loc, ValueRange args) {
                  return ScalarBuilder{b, loc}.compare(
                      op.getPredicate(), args[0], args[1], original);
                }));
    return success();
  }
};

struct ConvertSelect : OpConversionPattern<SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, op.getLoc(), convertedType(getTypeConverter(), op),
                {adaptor.getCondition(), adaptor.getTrueValue(),
                 adaptor.getFalseValue()},
                [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
                  return arith::SelectOp::create(b, loc, args[0], args[1],
                                                 args[2]);
                }));
    return success();
  }
};

struct ConvertCast : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = op.getInput().getType().getElementType();
    Type to = op.getType().getElementType();
    RankedTensorType type = convertedType(getTypeConverter(), op);
    if (adaptor.getInput().getType() == type) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    rewriter.replaceOp(
        op, buildElementwise(rewriter, op.getLoc(), type, adaptor.getInput(),
                             [&](OpBuilder &b, Location loc, ValueRange args) {
                               return ScalarBuilder{b, loc}.convert(args[0],
                                                                    from, to);
                             }));
    return success();
  }
};

struct ConvertClassify : OpConversionPattern<ClassifyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ClassifyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, op.getLoc(), convertedType(getTypeConverter(), op),
                adaptor.getInput(),
                [&](OpBuilder &b, Location loc, ValueRange args) {
                  return ScalarBuilder{b, loc}.classify(op.getKind(), args[0]);
                }));
    return success();
  }
};

} // namespace

void populateElementwisePatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns) {
  patterns.add<ConvertConstant, ConvertUnary, ConvertBinary, ConvertCompare,
               ConvertSelect, ConvertCast, ConvertClassify>(
      converter, patterns.getContext());
}

} // namespace aicc::tile_to_linalg
