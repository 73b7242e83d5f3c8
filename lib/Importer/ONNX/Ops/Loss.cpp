//===- Loss.cpp - NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss ------===//
//
// Both are ONNX functions; they are built here from gathers, element-wise
// ops and reductions, with the semantics of their ONNX function bodies.
//
//===----------------------------------------------------------------------===//

#include "../ImporterInternal.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// The negative log-likelihood of `input` (N x C x d...) at the classes in
/// `target` (N x d...), weighted and reduced as the node's attributes say.
Value negativeLogLikelihood(NodeContext &c, Value input, Value target,
                            Value weight) {
  RankedTensorType inputType = NodeContext::typeOf(input);
  RankedTensorType targetType = NodeContext::typeOf(target);
  if (!inputType || !targetType)
    return c.fail();
  if (inputType.getRank() < 2 ||
      targetType.getRank() != inputType.getRank() - 1) {
    c.error() << "input must be N x C x ... and target N x ...";
    return Value();
  }
  std::string reduction = c.getString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    c.error() << "unknown reduction '" << reduction << "'";
    return Value();
  }
  std::optional<int64_t> ignore = c.getOptionalInt("ignore_index");
  Type element = inputType.getElementType();
  Type i64 = c.builder().getI64Type();

  Value classes = c.cast(target, i64);
  Value kept;
  if (ignore) {
    kept = c.compare(ComparePredicate::ne, classes, c.i64Scalar(*ignore));
    // Ignored entries read class 0 and are masked out below.
    classes = c.select(kept, classes, c.i64Scalar(0));
  }
  SmallVector<int64_t> expanded(targetType.getShape());
  expanded.insert(expanded.begin() + 1, 1);
  GatherElementsOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(1));
  Value picked = c.create<GatherElementsOp>(
      {input, c.reshape(classes, expanded)}, properties);
  Value loss =
      c.unary(UnaryKind::neg, c.reshape(picked, targetType.getShape()));

  Value weights;
  if (weight)
    weights = c.gather(weight, classes, 0);
  if (kept) {
    Value mask = c.cast(kept, element);
    weights = weights ? c.binary(BinaryKind::mul, weights, mask) : mask;
  }
  if (weights)
    loss = c.binary(BinaryKind::mul, loss, weights);

  if (reduction == "none")
    return loss;
  SmallVector<int64_t> all =
      llvm::to_vector(llvm::seq<int64_t>(0, targetType.getRank()));
  Value total = c.reduce(ReduceKind::sum, loss, all, false);
  if (reduction == "sum")
    return total;
  if (!weights)
    return c.reduce(ReduceKind::mean, loss, all, false);
  return c.binary(BinaryKind::div, total,
                  c.reduce(ReduceKind::sum, weights, all, false));
}

LogicalResult convertNegativeLogLikelihoodLoss(NodeContext &c) {
  return c.setOutputs(
      {negativeLogLikelihood(c, c.input(0), c.input(1), c.optionalInput(2))});
}

LogicalResult convertSoftmaxCrossEntropyLoss(NodeContext &c) {
  Value scores = c.input(0);
  LogSoftmaxOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(1));
  Value logProb = c.create<LogSoftmaxOp>({scores}, properties);
  Value loss =
      negativeLogLikelihood(c, logProb, c.input(1), c.optionalInput(2));
  return c.setOutputs({loss, logProb});
}

} // namespace

void registerLossOps(OpTable &t) {
  t.add("NegativeLogLikelihoodLoss", 12, convertNegativeLogLikelihoodLoss);
  t.add("SoftmaxCrossEntropyLoss", 12, convertSoftmaxCrossEntropyLoss);
}

} // namespace aicc::onnx_importer
