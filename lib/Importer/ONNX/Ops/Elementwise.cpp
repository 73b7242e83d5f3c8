//===- Elementwise.cpp - Element-wise ONNX operators ----------------------===//
//
// Unary and binary math, comparisons, logic, casts, clip, softmax-like ops,
// and the identity-like ops (Identity, Dropout in inference).
//
//===----------------------------------------------------------------------===//

#include "../ImporterInternal.h"

#include <cfloat>

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// Before opset 7, binary ops broadcast only with `broadcast = 1`, and then
/// the right operand's dimensions line up with the left one's from `axis`
/// (numpy's trailing alignment when `axis` is absent).
Value legacyBroadcast(NodeContext &c, Value lhs, Value rhs) {
  if (c.opset >= 7 || c.getInt("broadcast", 0) == 0)
    return rhs;
  std::optional<int64_t> axis = c.getOptionalInt("axis");
  RankedTensorType lhsType = NodeContext::typeOf(lhs);
  RankedTensorType rhsType = NodeContext::typeOf(rhs);
  if (!axis || !lhsType || !rhsType)
    return rhs;
  std::optional<int64_t> start = c.normalizeAxis(*axis, lhsType.getRank());
  if (!start)
    return c.fail();
  int64_t trailing = lhsType.getRank() - *start - rhsType.getRank();
  if (trailing < 0) {
    c.error() << "legacy broadcast of rank " << rhsType.getRank()
              << " from axis " << *axis << " does not fit rank "
              << lhsType.getRank();
    return Value();
  }
  SmallVector<int64_t> shape(rhsType.getShape());
  shape.append(trailing, 1);
  return c.reshape(rhs, shape);
}

Converter unaryConverter(UnaryKind kind) {
  return [kind](NodeContext &c) {
    return c.setOutputs({c.unary(kind, c.input(0))});
  };
}

/// A unary kind with an `alpha` (and maybe `beta`) read from attributes.
Converter parameterizedConverter(UnaryKind kind, const char *alphaName,
                                 double alphaDefault,
                                 const char *betaName = nullptr,
                                 double betaDefault = 0.0) {
  return [=](NodeContext &c) {
    double alpha = c.getFloat(alphaName, alphaDefault);
    std::optional<double> beta;
    if (betaName)
      beta = c.getFloat(betaName, betaDefault);
    return c.setOutputs({c.unary(kind, c.input(0), alpha, beta)});
  };
}

Converter binaryConverter(BinaryKind kind) {
  return [kind](NodeContext &c) {
    Value lhs = c.input(0);
    Value rhs = legacyBroadcast(c, lhs, c.input(1));
    return c.setOutputs({c.binary(kind, lhs, rhs)});
  };
}

Converter compareConverter(ComparePredicate predicate) {
  return [predicate](NodeContext &c) {
    Value lhs = c.input(0);
    Value rhs = legacyBroadcast(c, lhs, c.input(1));
    return c.setOutputs({c.compare(predicate, lhs, rhs)});
  };
}

/// Sum, Max, Min, Mean: a left fold over any number of inputs.
Converter variadicConverter(BinaryKind kind, bool mean = false) {
  return [=](NodeContext &c) {
    if (c.numInputs() == 0) {
      c.error() << "needs at least one input";
      return failure();
    }
    Value result = c.input(0);
    for (size_t i = 1; i < c.numInputs(); ++i)
      result = c.binary(kind, result, c.input(i));
    if (mean)
      result = c.binary(BinaryKind::div, result,
                        c.scalarLike(result, double(c.numInputs())));
    return c.setOutputs({result});
  };
}

LogicalResult convertPow(NodeContext &c) {
  Value base = c.input(0), exponent = c.input(1);
  exponent = legacyBroadcast(c, base, exponent);
  RankedTensorType baseType = NodeContext::typeOf(base);
  RankedTensorType expType = NodeContext::typeOf(exponent);
  if (!baseType || !expType)
    return failure();
  Type element = baseType.getElementType();
  if (element == expType.getElementType())
    return c.setOutputs({c.binary(BinaryKind::pow, base, exponent)});
  if (isa<FloatType>(element))
    return c.setOutputs(
        {c.binary(BinaryKind::pow, base, c.cast(exponent, element))});
  // An integer base with a float exponent: compute in f64, keep the base's
  // type (ONNX Pow's result type is the base's).
  Type f64 = c.builder().getF64Type();
  Value result =
      c.binary(BinaryKind::pow, c.cast(base, f64), c.cast(exponent, f64));
  return c.setOutputs({c.cast(result, element)});
}

/// PRelu before opset 7 applies a 1-D slope per channel (dimension 1).
LogicalResult convertPRelu(NodeContext &c) {
  Value x = c.input(0), slope = c.input(1);
  RankedTensorType xType = NodeContext::typeOf(x);
  RankedTensorType slopeType = NodeContext::typeOf(slope);
  if (!xType || !slopeType)
    return failure();
  if (c.opset < 7 && slopeType.getRank() == 1 && xType.getRank() >= 2 &&
      slopeType.getDimSize(0) != 1) {
    SmallVector<int64_t> shape(xType.getRank() - 1, 1);
    shape[0] = slopeType.getDimSize(0);
    slope = c.reshape(slope, shape);
  }
  return c.setOutputs({c.binary(BinaryKind::prelu, x, slope)});
}

LogicalResult convertMod(NodeContext &c) {
  BinaryKind kind = c.getInt("fmod", 0) ? BinaryKind::rem : BinaryKind::mod;
  return c.setOutputs({c.binary(kind, c.input(0), c.input(1))});
}

LogicalResult convertBitShift(NodeContext &c) {
  std::string direction = c.getString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") {
    c.error() << "attribute 'direction' must be LEFT or RIGHT, got '"
              << direction << "'";
    return failure();
  }
  BinaryKind kind =
      direction == "LEFT" ? BinaryKind::shift_left : BinaryKind::shift_right;
  return c.setOutputs({c.binary(kind, c.input(0), c.input(1))});
}

/// The element type a Cast's `to` attribute names (an integer, or before
/// opset 6 a string such as "FLOAT").
Type castTarget(NodeContext &c) {
  const onnx::AttributeProto *to = c.attribute("to");
  if (!to) {
    c.error() << "attribute 'to' is required";
    return Type();
  }
  int64_t dataType;
  if (to->type() == onnx::AttributeProto::STRING || to->has_s()) {
    onnx::TensorProto::DataType parsed;
    if (!onnx::TensorProto::DataType_Parse(to->s(), &parsed)) {
      c.error() << "attribute 'to' names unknown type '" << to->s() << "'";
      return Type();
    }
    dataType = parsed;
  } else {
    dataType = c.getInt("to", 0);
  }
  Type element = convertElementType(c.getContext(), dataType);
  if (!element)
    c.error() << "cannot cast to " << dataTypeName(dataType)
              << ", which aicc does not support";
  return element;
}

LogicalResult convertCast(NodeContext &c) {
  Type target = castTarget(c);
  if (!target)
    return failure();
  return c.setOutputs({c.cast(c.input(0), target)});
}

LogicalResult convertCastLike(NodeContext &c) {
  RankedTensorType like = NodeContext::typeOf(c.input(1));
  if (!like)
    return failure();
  return c.setOutputs({c.cast(c.input(0), like.getElementType())});
}

LogicalResult convertClip(NodeContext &c) {
  Value x = c.input(0);
  Value low, high;
  if (c.opset < 11) {
    low = c.scalarLike(x, c.getFloat("min", -FLT_MAX));
    high = c.scalarLike(x, c.getFloat("max", FLT_MAX));
  } else {
    low = c.optionalInput(1);
    high = c.optionalInput(2);
  }
  Value result = x;
  if (low)
    result = c.binary(BinaryKind::max, result, low);
  if (high)
    result = c.binary(BinaryKind::min, result, high);
  return c.setOutputs({result});
}

LogicalResult convertIsInf(NodeContext &c) {
  bool negative = c.getInt("detect_negative", 1);
  bool positive = c.getInt("detect_positive", 1);
  Value x = c.input(0);
  if (!negative && !positive) {
    std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
    if (!shape)
      return failure();
    return c.setOutputs({c.splat(c.builder().getI1Type(), 0, *shape)});
  }
  ClassifyKind kind = negative && positive ? ClassifyKind::inf
                      : positive           ? ClassifyKind::pos_inf
                                           : ClassifyKind::neg_inf;
  ClassifyOp::Properties properties;
  properties.setKind(ClassifyKindAttr::get(c.getContext(), kind));
  return c.setOutputs({c.create<ClassifyOp>({x}, properties)});
}

LogicalResult convertIsNaN(NodeContext &c) {
  ClassifyOp::Properties properties;
  properties.setKind(ClassifyKindAttr::get(c.getContext(), ClassifyKind::nan));
  return c.setOutputs({c.create<ClassifyOp>({c.input(0)}, properties)});
}

LogicalResult convertIdentity(NodeContext &c) {
  return c.setOutputs({c.input(0)});
}

LogicalResult convertDropout(NodeContext &c) {
  Value x = c.input(0);
  if (c.opset >= 12 && c.hasInput(2)) {
    std::optional<SmallVector<int64_t>> training =
        c.constantInts(2, "training_mode");
    if (!training)
      return failure();
    if (!training->empty() && (*training)[0] != 0) {
      c.error() << "training mode is not supported";
      return failure();
    }
  }
  if (c.opset < 7 && c.getInt("is_test", 0) == 0) {
    c.error() << "training mode (is_test = 0) is not supported";
    return failure();
  }
  Value mask;
  if (c.hasOutput(1)) {
    std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
    if (!shape)
      return failure();
    mask = c.splat(c.builder().getI1Type(), 1, *shape);
  }
  return c.setOutputs({x, mask});
}

/// Softmax, LogSoftmax and Hardmax before opset 13 flatten their input to
/// 2-D at `axis` and work on rows; from opset 13 they work along `axis`.
Converter softmaxConverter(StringRef which) {
  return [which](NodeContext &c) -> LogicalResult {
    Value x = c.input(0);
    RankedTensorType type = NodeContext::typeOf(x);
    if (!type)
      return failure();
    int64_t rank = type.getRank();
    bool legacy = c.opset < 13;
    std::optional<int64_t> axis =
        c.normalizeAxis(c.getInt("axis", legacy ? 1 : -1), rank);
    if (!axis)
      return failure();

    auto along = [&](Value input, int64_t dim) -> Value {
      if (which == "hardmax") {
        // One-hot of the first maximum: compare positions along the axis
        // with the arg-max.
        ArgReduceOp::Properties arg;
        arg.setKind(ArgKindAttr::get(c.getContext(), ArgKind::max));
        arg.setAxis(c.builder().getI64IntegerAttr(dim));
        arg.setKeepDims(c.builder().getUnitAttr());
        Value index = c.create<ArgReduceOp>({input}, arg);
        RankedTensorType inputType = NodeContext::typeOf(input);
        if (!inputType || inputType.isDynamicDim(dim))
          return c.fail();
        int64_t size = inputType.getDimSize(dim);
        SmallVector<int64_t> iotaShape(inputType.getRank(), 1);
        iotaShape[dim] = size;
        auto iota = DenseElementsAttr::get(
            RankedTensorType::get(iotaShape, c.builder().getI64Type()),
            ArrayRef<int64_t>(llvm::to_vector(llvm::seq<int64_t>(0, size))));
        Value hit = c.compare(ComparePredicate::eq, c.constant(iota), index);
        return c.cast(hit, inputType.getElementType());
      }
      if (which == "softmax") {
        SoftmaxOp::Properties properties;
        properties.setAxis(c.builder().getI64IntegerAttr(dim));
        return c.create<SoftmaxOp>({input}, properties);
      }
      LogSoftmaxOp::Properties properties;
      properties.setAxis(c.builder().getI64IntegerAttr(dim));
      return c.create<LogSoftmaxOp>({input}, properties);
    };

    return c.setOutputs({alongSoftmaxAxis(c, x, *axis, legacy, along)});
  };
}

LogicalResult convertGelu(NodeContext &c) {
  std::string approximate = c.getString("approximate", "none");
  if (approximate != "none" && approximate != "tanh") {
    c.error() << "attribute 'approximate' must be none or tanh";
    return failure();
  }
  return c.setOutputs(
      {c.unary(approximate == "tanh" ? UnaryKind::gelu_tanh : UnaryKind::gelu,
               c.input(0))});
}

} // namespace

Value alongSoftmaxAxis(NodeContext &c, Value x, int64_t axis, bool legacy,
                       function_ref<Value(Value, int64_t)> along) {
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return c.fail();
  int64_t rank = type.getRank();
  if (!legacy || axis == rank - 1)
    return along(x, legacy ? rank - 1 : axis);
  std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
  if (!shape)
    return c.fail();
  int64_t rows = 1, columns = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? rows : columns) *= (*shape)[d];
  return c.reshape(along(c.reshape(x, {rows, columns}), 1), *shape);
}

void registerElementwiseOps(OpTable &t) {
  static const std::pair<const char *, UnaryKind> unaries[] = {
      {"Abs", UnaryKind::abs},
      {"Neg", UnaryKind::neg},
      {"Sign", UnaryKind::sign},
      {"Relu", UnaryKind::relu},
      {"Exp", UnaryKind::exp},
      {"Log", UnaryKind::log},
      {"Sqrt", UnaryKind::sqrt},
      {"Reciprocal", UnaryKind::reciprocal},
      {"Sin", UnaryKind::sin},
      {"Cos", UnaryKind::cos},
      {"Tan", UnaryKind::tan},
      {"Asin", UnaryKind::asin},
      {"Acos", UnaryKind::acos},
      {"Atan", UnaryKind::atan},
      {"Sinh", UnaryKind::sinh},
      {"Cosh", UnaryKind::cosh},
      {"Asinh", UnaryKind::asinh},
      {"Acosh", UnaryKind::acosh},
      {"Atanh", UnaryKind::atanh},
      {"Tanh", UnaryKind::tanh},
      {"Erf", UnaryKind::erf},
      {"Sigmoid", UnaryKind::sigmoid},
      {"Floor", UnaryKind::floor},
      {"Ceil", UnaryKind::ceil},
      {"Round", UnaryKind::round},
      {"Softplus", UnaryKind::softplus},
      {"Softsign", UnaryKind::softsign},
      {"HardSwish", UnaryKind::hard_swish},
      {"Mish", UnaryKind::mish},
      {"Not", UnaryKind::logical_not},
      {"BitwiseNot", UnaryKind::bitwise_not}};
  // The opset that introduced each operator, where it is not 1.
  static const llvm::StringMap<int> since = {
      {"Sign", 9},       {"Sin", 7},    {"Cos", 7},        {"Tan", 7},
      {"Asin", 7},       {"Acos", 7},   {"Atan", 7},       {"Sinh", 9},
      {"Cosh", 9},       {"Asinh", 9},  {"Acosh", 9},      {"Atanh", 9},
      {"Erf", 9},        {"Round", 11}, {"HardSwish", 14}, {"Mish", 18},
      {"BitwiseNot", 18}};
  for (const auto &[name, kind] : unaries)
    t.add(name, since.lookup(name) ? since.lookup(name) : 1,
          unaryConverter(kind));

  t.add("LeakyRelu", 1,
        parameterizedConverter(UnaryKind::leaky_relu, "alpha", 0.01));
  t.add("Elu", 1, parameterizedConverter(UnaryKind::elu, "alpha", 1.0));
  t.add("Celu", 12, parameterizedConverter(UnaryKind::celu, "alpha", 1.0));
  t.add("ThresholdedRelu", 10,
        parameterizedConverter(UnaryKind::thresholded_relu, "alpha", 1.0));
  t.add("Selu", 1,
        parameterizedConverter(UnaryKind::selu, "alpha",
                               1.67326319217681884765625, "gamma",
                               1.05070102214813232421875));
  t.add("HardSigmoid", 1,
        parameterizedConverter(UnaryKind::hard_sigmoid, "alpha", 0.2, "beta",
                               0.5));
  t.add("Shrink", 9,
        parameterizedConverter(UnaryKind::shrink, "lambd", 0.5, "bias", 0.0));
  t.add("Gelu", 20, convertGelu);

  static const std::pair<const char *, BinaryKind> binaries[] = {
      {"Add", BinaryKind::add},         {"Sub", BinaryKind::sub},
      {"Mul", BinaryKind::mul},         {"Div", BinaryKind::div},
      {"And", BinaryKind::logical_and}, {"Or", BinaryKind::logical_or},
      {"Xor", BinaryKind::logical_xor}};
  for (const auto &[name, kind] : binaries)
    t.add(name, 1, binaryConverter(kind));
  t.add("BitwiseAnd", 18, binaryConverter(BinaryKind::bitwise_and));
  t.add("BitwiseOr", 18, binaryConverter(BinaryKind::bitwise_or));
  t.add("BitwiseXor", 18, binaryConverter(BinaryKind::bitwise_xor));
  t.add("Pow", 1, convertPow);
  t.add("PRelu", 1, convertPRelu);
  t.add("Mod", 10, convertMod);
  t.add("BitShift", 11, convertBitShift);

  t.add("Equal", 1, compareConverter(ComparePredicate::eq));
  t.add("Greater", 1, compareConverter(ComparePredicate::gt));
  t.add("Less", 1, compareConverter(ComparePredicate::lt));
  t.add("GreaterOrEqual", 12, compareConverter(ComparePredicate::ge));
  t.add("LessOrEqual", 12, compareConverter(ComparePredicate::le));
  t.add("Where", 9, [](NodeContext &c) {
    return c.setOutputs({c.select(c.input(0), c.input(1), c.input(2))});
  });

  t.add("Sum", 1, variadicConverter(BinaryKind::add));
  t.add("Max", 1, variadicConverter(BinaryKind::max));
  t.add("Min", 1, variadicConverter(BinaryKind::min));
  t.add("Mean", 1, variadicConverter(BinaryKind::add, /*mean=*/true));

  t.add("Cast", 1, convertCast);
  t.add("CastLike", 15, convertCastLike);
  t.add("Clip", 1, convertClip);
  t.add("IsNaN", 9, convertIsNaN);
  t.add("IsInf", 10, convertIsInf);
  t.add("Identity", 1, convertIdentity);
  t.add("Dropout", 1, convertDropout);

  t.add("Softmax", 1, softmaxConverter("softmax"));
  t.add("LogSoftmax", 1, softmaxConverter("log_softmax"));
  t.add("Hardmax", 1, softmaxConverter("hardmax"));
}

} // namespace aicc::onnx_importer
