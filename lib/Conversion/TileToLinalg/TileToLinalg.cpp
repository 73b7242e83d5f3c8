//===- TileToLinalg.cpp - The convert-tile-to-linalg pass -----------------===//

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"
#include "aicc/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

namespace aicc {
#define GEN_PASS_DEF_CONVERTTILETOLINALGPASS
#include "aicc/Conversion/Passes.h.inc"
} // namespace aicc

using namespace mlir;

namespace aicc::tile_to_linalg {

SignlessTypeConverter::SignlessTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](IntegerType type) -> Type {
    return IntegerType::get(type.getContext(), type.getWidth());
  });
  addConversion([this](RankedTensorType type) -> Type {
    return RankedTensorType::get(type.getShape(),
                                 convertType(type.getElementType()));
  });
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    if (inputs.size() != 1)
      return Value();
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange like) {
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    Value size;
    for (Value v : like) {
      auto t = cast<RankedTensorType>(v.getType());
      int64_t offset = type.getRank() - t.getRank();
      int64_t dim = d - offset;
      if (dim >= 0 && t.isDynamicDim(dim)) {
        size = tensor::DimOp::create(b, loc, v, dim);
        break;
      }
    }
    if (!size) // No operand knows: the caller guaranteed one does.
      size = arith::ConstantIndexOp::create(b, loc, 0);
    dynamic.push_back(size);
  }
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 dynamic);
}

AffineMap broadcastMap(MLIRContext *context, ArrayRef<int64_t> shape,
                       ArrayRef<int64_t> resultShape) {
  int64_t offset = resultShape.size() - shape.size();
  SmallVector<AffineExpr> exprs;
  for (size_t j = 0; j < shape.size(); ++j) {
    int64_t i = j + offset;
    if (shape[j] == 1 && resultShape[i] != 1)
      exprs.push_back(getAffineConstantExpr(0, context));
    else
      exprs.push_back(getAffineDimExpr(i, context));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, context);
}

Value buildElementwise(
    OpBuilder &b, Location loc, RankedTensorType resultType, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(broadcastMap(
        context, cast<RankedTensorType>(input.getType()).getShape(),
        resultType.getShape()));
  maps.push_back(
      AffineMap::getMultiDimIdentityMap(resultType.getRank(), context));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  Value init = emptyTensor(b, loc, resultType, inputs);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value reshapeTensor(OpBuilder &b, Location loc, Value value,
                    RankedTensorType type) {
  auto source = cast<RankedTensorType>(value.getType());
  if (source == type)
    return value;
  // Where one shape regroups the other, a single collapse or expand; else,
  // where that holds from the source without its unit dimensions, a
  // collapse of those and then one regrouping. Both are views even of a
  // strided value (a slice), which the flat form below is not: at batch 1
  // a head split reshapes [s, 1, e] slices to [1, s, h, d].
  auto regrouping = [](ArrayRef<int64_t> from, ArrayRef<int64_t> to)
      -> std::optional<SmallVector<ReassociationIndices>> {
    if (from.empty() || to.empty() || from.size() == to.size())
      return std::nullopt;
    return from.size() > to.size()
               ? getReassociationIndicesForCollapse(from, to)
               : getReassociationIndicesForCollapse(to, from);
  };
  auto regroup = [&](Value v, ArrayRef<int64_t> to,
                     ArrayRef<ReassociationIndices> groups) -> Value {
    auto from = cast<RankedTensorType>(v.getType());
    auto toType = RankedTensorType::get(to, from.getElementType());
    if (from.getRank() > static_cast<int64_t>(to.size()))
      return tensor::CollapseShapeOp::create(b, loc, toType, v, groups);
    return tensor::ExpandShapeOp::create(b, loc, toType, v, groups);
  };
  if (source.hasStaticShape() && type.hasStaticShape()) {
    if (auto groups = regrouping(source.getShape(), type.getShape()))
      return regroup(value, type.getShape(), *groups);
    SmallVector<int64_t> core;
    for (int64_t extent : source.getShape())
      if (extent != 1)
        core.push_back(extent);
    auto units = regrouping(source.getShape(), core);
    auto rest = regrouping(core, type.getShape());
    if (units && rest)
      return regroup(regroup(value, core, *units), type.getShape(), *rest);
  }
  // Collapse to 1-D (or expand a rank-0 value), then expand to the target.
  Value flat = value;
  if (source.getRank() != 1) {
    SmallVector<ReassociationIndices> all;
    if (source.getRank() > 0)
      all.push_back(llvm::to_vector(llvm::seq<int64_t>(0, source.getRank())));
    int64_t count = source.hasStaticShape() ? source.getNumElements()
                                            : ShapedType::kDynamic;
    auto flatType = RankedTensorType::get({count}, source.getElementType());
    flat = source.getRank() == 0
               ? Value(tensor::ExpandShapeOp::create(
                     b, loc, flatType, value, ArrayRef<ReassociationIndices>{}))
               : Value(tensor::CollapseShapeOp::create(b, loc, flatType, value,
                                                       all));
  }
  if (type.getRank() == 1)
    return flat.getType() == type
               ? flat
               : Value(tensor::CastOp::create(b, loc, type, flat));
  SmallVector<ReassociationIndices> all;
  if (type.getRank() > 0)
    all.push_back(llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())));
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, flat,
                                           ArrayRef<ReassociationIndices>{});
  return tensor::ExpandShapeOp::create(b, loc, type, flat, all);
}

namespace {

/// Converts the result and operand types of any op of the tensor, scf or
/// arith dialects that the structural patterns do not cover (tensor.extract
/// of an unsigned tensor, tensor.cast, ...), by recreating it.
struct ConvertAnyOpTypes : ConversionPattern {
  ConvertAnyOpTypes(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0,
                          context) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumRegions() != 0 || isa<tile::TileDialect>(op->getDialect()) ||
        getTypeConverter()->isLegal(op))
      return rewriter.notifyMatchFailure(op, "nothing to convert");
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return rewriter.notifyMatchFailure(op, "unconvertible result types");
    OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                         types, op->getAttrs(), op->getSuccessors());
    Operation *created = rewriter.create(state);
    rewriter.replaceOp(op, created->getResults());
    return success();
  }
};

} // namespace

LogicalResult convertTileToLinalg(ModuleOp module,
                                  const ContractionStrategy *strategy) {
  MLIRContext *context = module.getContext();
  SignlessTypeConverter converter;
  RewritePatternSet patterns(context);
  ConversionTarget target(*context);
  target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                         math::MathDialect, tensor::TensorDialect,
                         scf::SCFDialect>();
  target.addIllegalDialect<tile::TileDialect>();
  // tile-fuse's regions stay, their bodies lowered, until the pipeline
  // dissolves them (tile-inline-fusions mark-groups).
  target.addLegalOp<tile::FusionOp, tile::YieldOp>();
  target.markUnknownOpDynamicallyLegal(
      [&](Operation *op) { return converter.isLegal(op); });
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
    return converter.isSignatureLegal(op.getFunctionType());
  });
  target.addDynamicallyLegalDialect<tensor::TensorDialect, arith::ArithDialect>(
      [&](Operation *op) { return converter.isLegal(op); });
  target.addLegalOp<ModuleOp>();

  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  patterns.add<ConvertAnyOpTypes>(converter, context);
  populateElementwisePatterns(converter, patterns);
  populateMatmulPatterns(converter, patterns, strategy);
  populateConvolutionPatterns(converter, patterns, strategy);
  populatePoolingPatterns(converter, patterns);
  populateReductionPatterns(converter, patterns);
  populateDataMovementPatterns(converter, patterns);
  return applyFullConversion(module, target, std::move(patterns));
}

namespace {
/// convert-tile-to-linalg: the plain contraction forms. Targets run their
/// own pass with their strategy (aicc-cpu-convert-tile-to-linalg,
/// aicc-gpu-convert-tile-to-linalg).
struct ConvertTileToLinalgPass
    : aicc::impl::ConvertTileToLinalgPassBase<ConvertTileToLinalgPass> {
  void runOnOperation() override {
    if (failed(convertTileToLinalg(getOperation(), nullptr)))
      signalPassFailure();
  }
};
} // namespace
} // namespace aicc::tile_to_linalg
