//===- MicrosoftFusions.cpp - com.microsoft's fused float operators -------===//
//
// The operators ONNX Runtime's graph optimizer writes when a model is
// saved after optimization (quantized models included): a matrix product
// with a scale and transposes, a Gemm with its activation, GELU and its
// bias and tanh forms, and layer normalization of a residual sum. Each
// imports as the default-domain ops it fuses; aicc's own fusion takes
// over from there.
//
//===----------------------------------------------------------------------===//

#include "../ImporterInternal.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// `x` with its last two dimensions swapped.
Value swapLastTwo(NodeContext &c, Value x) {
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type || type.getRank() < 2)
    return c.fail();
  SmallVector<int64_t> perm =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return c.transpose(x, perm);
}

/// FusedMatMul: alpha * op(A) @ op(B), op transposing the last two
/// dimensions (transA, transB).
LogicalResult convertFusedMatMul(NodeContext &c) {
  if (c.getInt("transBatchA", 0) || c.getInt("transBatchB", 0)) {
    c.error() << "transBatchA and transBatchB are not supported";
    return failure();
  }
  Value a = c.input(0), b = c.input(1);
  if (c.getInt("transA", 0))
    a = swapLastTwo(c, a);
  if (c.getInt("transB", 0))
    b = swapLastTwo(c, b);
  Value y = numpyMatmul(c, a, b);
  double alpha = c.getFloat("alpha", 1.0);
  if (alpha != 1.0)
    y = c.binary(BinaryKind::mul, y, c.scalarLike(y, alpha));
  return c.setOutputs({y});
}

/// FusedGemm: Gemm, then `activation` (Relu, LeakyRelu, Sigmoid, Tanh,
/// HardSigmoid) with activation_alpha/activation_beta.
LogicalResult convertFusedGemm(NodeContext &c) {
  Value y = buildGemm(c);
  std::string activation = c.getString("activation", "");
  if (activation.empty())
    return c.setOutputs({y});
  if (activation == "Relu")
    return c.setOutputs({c.unary(UnaryKind::relu, y)});
  if (activation == "Sigmoid")
    return c.setOutputs({c.unary(UnaryKind::sigmoid, y)});
  if (activation == "Tanh")
    return c.setOutputs({c.unary(UnaryKind::tanh, y)});
  if (activation == "LeakyRelu")
    return c.setOutputs({c.unary(UnaryKind::leaky_relu, y,
                                 c.getFloat("activation_alpha", 0.01))});
  if (activation == "HardSigmoid")
    return c.setOutputs({c.unary(UnaryKind::hard_sigmoid, y,
                                 c.getFloat("activation_alpha", 0.2),
                                 c.getFloat("activation_beta", 0.5))});
  c.error() << "activation '" << activation << "' is not supported";
  return failure();
}

/// Gelu, BiasGelu (input + bias first), FastGelu (the tanh form, with an
/// optional bias).
Converter geluConverter(UnaryKind kind, bool bias) {
  return [kind, bias](NodeContext &c) {
    Value x = c.input(0);
    if (bias && c.hasInput(1))
      x = c.binary(BinaryKind::add, x, c.input(1));
    return c.setOutputs({c.unary(kind, x)});
  };
}

/// QuickGelu: x * sigmoid(alpha * x).
LogicalResult convertQuickGelu(NodeContext &c) {
  Value x = c.input(0);
  Value scaled =
      c.binary(BinaryKind::mul, x, c.scalarLike(x, c.getFloat("alpha", 1.702)));
  return c.setOutputs(
      {c.binary(BinaryKind::mul, x, c.unary(UnaryKind::sigmoid, scaled))});
}

/// SkipLayerNormalization: input, skip, gamma, beta, bias (the last two
/// optional); LayerNorm over the last dimension of input + skip (+ bias).
/// Outputs: the normalized value, (mean, inverse standard deviation: not
/// supported), and the sum it normalized.
LogicalResult convertSkipLayerNorm(NodeContext &c) {
  if (c.hasOutput(1) || c.hasOutput(2)) {
    c.error() << "the mean and inverse standard deviation outputs are not "
                 "supported";
    return failure();
  }
  Value sum = c.binary(BinaryKind::add, c.input(0), c.input(1));
  if (Value bias = c.optionalInput(4))
    sum = c.binary(BinaryKind::add, sum, bias);
  RankedTensorType type = NodeContext::typeOf(sum);
  if (!type)
    return c.fail(), failure();
  LayerNormOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(type.getRank() - 1));
  properties.setEpsilon(
      c.builder().getF64FloatAttr(c.getFloat("epsilon", 1e-12)));
  SmallVector<Value> operands = {sum, c.input(2)};
  if (Value beta = c.optionalInput(3))
    operands.push_back(beta);
  Value y = c.create<LayerNormOp>(operands, properties);
  return c.setOutputs({y, Value(), Value(), sum});
}

} // namespace

void registerMicrosoftFusionOps(OpTable &t) {
  StringRef ms = kMicrosoftDomain;
  t.add(ms, "FusedMatMul", 1, convertFusedMatMul);
  t.add(ms, "FusedGemm", 1, convertFusedGemm);
  t.add(ms, "Gelu", 1, geluConverter(UnaryKind::gelu, false));
  t.add(ms, "BiasGelu", 1, geluConverter(UnaryKind::gelu, true));
  t.add(ms, "FastGelu", 1, geluConverter(UnaryKind::gelu_tanh, true));
  t.add(ms, "QuickGelu", 1, convertQuickGelu);
  t.add(ms, "SkipLayerNormalization", 1, convertSkipLayerNorm);
}

} // namespace aicc::onnx_importer
