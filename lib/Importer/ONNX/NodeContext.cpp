//===- NodeContext.cpp - The converters' view of one node -----------------===//

#include "ImporterInternal.h"

#include "Tile/IR/Constants.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {

NodeContext::NodeContext(GraphImporter &graph, const onnx::NodeProto &node,
                         int64_t opset, Location loc)
    : node(node), opset(opset), loc(loc), graphImporter(graph) {}

OpBuilder &NodeContext::builder() { return graphImporter.model.builder; }
MLIRContext *NodeContext::getContext() { return &graphImporter.model.context; }
const ONNXImportOptions &NodeContext::options() const {
  return graphImporter.model.options;
}

InFlightDiagnostic NodeContext::error() {
  hasFailed = true;
  return emitError(loc);
}

//===----------------------------------------------------------------------===//
// Inputs and outputs
//===----------------------------------------------------------------------===//

bool NodeContext::hasInput(size_t i) const {
  return i < numInputs() && !node.input(i).empty();
}

bool NodeContext::hasOutput(size_t i) const {
  return i < numOutputs() && !node.output(i).empty();
}

Value NodeContext::input(size_t i) {
  if (!hasInput(i)) {
    error() << "input " << i << " is required";
    return Value();
  }
  return optionalInput(i);
}

Value NodeContext::optionalInput(size_t i) {
  if (!hasInput(i))
    return Value();
  Value value = graphImporter.lookup(node.input(i));
  if (!value) {
    error() << "input '" << node.input(i) << "' is not defined";
    return Value();
  }
  return value;
}

LogicalResult NodeContext::setOutputs(ArrayRef<Value> values) {
  if (hasFailed)
    return failure();
  for (size_t i = 0; i < numOutputs(); ++i) {
    if (!hasOutput(i))
      continue;
    if (i >= values.size() || !values[i]) {
      error() << "output " << i << " ('" << node.output(i)
              << "') is not supported by this conversion";
      return failure();
    }
    graphImporter.bind(node.output(i), values[i]);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

const onnx::AttributeProto *NodeContext::attribute(StringRef name) const {
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == name)
      return &attr;
  return nullptr;
}

/// Whether `attr` holds a value of `type`. Files written before attribute
/// types were recorded leave the type unset; then the filled field decides.
static bool hasType(const onnx::AttributeProto &attr,
                    onnx::AttributeProto::AttributeType type) {
  if (attr.type() == type)
    return true;
  if (attr.type() != onnx::AttributeProto::UNDEFINED)
    return false;
  switch (type) {
  case onnx::AttributeProto::INT:
    return attr.has_i();
  case onnx::AttributeProto::FLOAT:
    return attr.has_f();
  case onnx::AttributeProto::STRING:
    return attr.has_s();
  case onnx::AttributeProto::GRAPH:
    return attr.has_g();
  case onnx::AttributeProto::TENSOR:
    return attr.has_t();
  case onnx::AttributeProto::INTS:
    return attr.ints_size() > 0;
  case onnx::AttributeProto::FLOATS:
    return attr.floats_size() > 0;
  case onnx::AttributeProto::STRINGS:
    return attr.strings_size() > 0;
  default:
    return false;
  }
}

int64_t NodeContext::getInt(StringRef name, int64_t defaultValue) {
  return getOptionalInt(name).value_or(defaultValue);
}

std::optional<int64_t> NodeContext::getOptionalInt(StringRef name) {
  const onnx::AttributeProto *attr = attribute(name);
  if (!attr)
    return std::nullopt;
  if (!hasType(*attr, onnx::AttributeProto::INT)) {
    error() << "attribute '" << name << "' must be an integer";
    return std::nullopt;
  }
  return attr->i();
}

double NodeContext::getFloat(StringRef name, double defaultValue) {
  const onnx::AttributeProto *attr = attribute(name);
  if (!attr)
    return defaultValue;
  if (!hasType(*attr, onnx::AttributeProto::FLOAT)) {
    error() << "attribute '" << name << "' must be a float";
    return defaultValue;
  }
  return attr->f();
}

std::string NodeContext::getString(StringRef name, StringRef defaultValue) {
  const onnx::AttributeProto *attr = attribute(name);
  if (!attr)
    return defaultValue.str();
  if (!hasType(*attr, onnx::AttributeProto::STRING)) {
    error() << "attribute '" << name << "' must be a string";
    return defaultValue.str();
  }
  return attr->s();
}

std::optional<SmallVector<int64_t>> NodeContext::getInts(StringRef name) {
  const onnx::AttributeProto *attr = attribute(name);
  if (!attr)
    return std::nullopt;
  if (!hasType(*attr, onnx::AttributeProto::INTS)) {
    error() << "attribute '" << name << "' must be a list of integers";
    return std::nullopt;
  }
  return SmallVector<int64_t>(attr->ints().begin(), attr->ints().end());
}

std::optional<SmallVector<double>> NodeContext::getFloats(StringRef name) {
  const onnx::AttributeProto *attr = attribute(name);
  if (!attr)
    return std::nullopt;
  if (!hasType(*attr, onnx::AttributeProto::FLOATS)) {
    error() << "attribute '" << name << "' must be a list of floats";
    return std::nullopt;
  }
  return SmallVector<double>(attr->floats().begin(), attr->floats().end());
}

std::optional<SmallVector<std::string>>
NodeContext::getStrings(StringRef name) {
  const onnx::AttributeProto *attr = attribute(name);
  if (!attr)
    return std::nullopt;
  if (!hasType(*attr, onnx::AttributeProto::STRINGS)) {
    error() << "attribute '" << name << "' must be a list of strings";
    return std::nullopt;
  }
  return SmallVector<std::string>(attr->strings().begin(),
                                  attr->strings().end());
}

const onnx::GraphProto *NodeContext::getGraph(StringRef name) {
  const onnx::AttributeProto *attr = attribute(name);
  if (!attr || !hasType(*attr, onnx::AttributeProto::GRAPH)) {
    error() << "attribute '" << name << "' must be a graph";
    return nullptr;
  }
  return &attr->g();
}

//===----------------------------------------------------------------------===//
// Compile-time values
//===----------------------------------------------------------------------===//

ElementsAttr NodeContext::constantValue(Value value) const {
  return compileTimeValue(value);
}

std::optional<SmallVector<int64_t>> NodeContext::constantInts(size_t i,
                                                              StringRef what) {
  Value value = input(i);
  if (!value)
    return std::nullopt;
  auto dense = dyn_cast_or_null<DenseElementsAttr>(constantValue(value));
  if (!dense) {
    error() << what << " (input " << i
            << ") must be known at compile time, but it is computed from "
               "graph inputs";
    return std::nullopt;
  }
  auto element = dyn_cast<IntegerType>(dense.getElementType());
  if (!element) {
    error() << what << " (input " << i << ") must hold integers";
    return std::nullopt;
  }
  SmallVector<int64_t> result;
  for (const APInt &v : dense.getValues<APInt>())
    result.push_back(element.isUnsigned() || element.getWidth() == 1
                         ? static_cast<int64_t>(v.getZExtValue())
                         : v.getSExtValue());
  return result;
}

std::optional<SmallVector<double>> NodeContext::constantFloats(size_t i,
                                                               StringRef what) {
  Value value = input(i);
  if (!value)
    return std::nullopt;
  auto dense = dyn_cast_or_null<DenseElementsAttr>(constantValue(value));
  if (!dense) {
    error() << what << " (input " << i
            << ") must be known at compile time, but it is computed from "
               "graph inputs";
    return std::nullopt;
  }
  SmallVector<double> result;
  if (isa<FloatType>(dense.getElementType())) {
    for (const APFloat &v : dense.getValues<APFloat>())
      result.push_back(v.convertToDouble());
    return result;
  }
  auto element = llvm::cast<IntegerType>(dense.getElementType());
  for (const APInt &v : dense.getValues<APInt>())
    result.push_back(element.isUnsigned() ? double(v.getZExtValue())
                                          : double(v.getSExtValue()));
  return result;
}

std::optional<SmallVector<int64_t>> NodeContext::knownInts(size_t i) {
  if (!hasInput(i))
    return std::nullopt;
  Value value = optionalInput(i);
  auto dense = dyn_cast_or_null<DenseElementsAttr>(constantValue(value));
  if (!dense || !isa<IntegerType>(dense.getElementType()))
    return std::nullopt;
  return constantInts(i, "");
}

std::optional<SmallVector<int64_t>> NodeContext::declaredShape(size_t i) const {
  if (!hasOutput(i))
    return std::nullopt;
  const auto &declared = graphImporter.model.declaredTypes;
  auto it = declared.find(node.output(i));
  if (it == declared.end() || !it->second->has_tensor_type() ||
      !it->second->tensor_type().has_shape())
    return std::nullopt;
  SmallVector<int64_t> shape;
  for (const auto &dim : it->second->tensor_type().shape().dim()) {
    if (!dim.has_dim_value() || dim.dim_value() < 0)
      return std::nullopt;
    shape.push_back(dim.dim_value());
  }
  if (mlir::failed(checkedElementCount(shape)))
    return std::nullopt;
  return shape;
}

std::optional<SmallVector<int64_t>>
NodeContext::requireDeclaredShape(size_t i, StringRef because) {
  std::optional<SmallVector<int64_t>> shape = declaredShape(i);
  if (!shape)
    error() << because
            << " is computed from graph inputs, so the shape of output " << i
            << " depends on input values; the model must declare that "
               "output's shape, or the input must be a constant";
  return shape;
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

bool NodeContext::ready(ValueRange operands) {
  if (hasFailed)
    return false;
  if (llvm::any_of(operands, [](Value v) { return !v; })) {
    hasFailed = true;
    return false;
  }
  return true;
}

SmallVector<Value> NodeContext::finishOp(Operation *op) {
  ModelImporter &model = graphImporter.model;
  if (++model.operations > model.options.maxOperations) {
    op->erase();
    if (!hasFailed)
      error() << "the model expands to more than "
              << model.options.maxOperations
              << " operations (nested control flow or long unrolled "
                 "sequences); aicc refuses to compile it";
    hasFailed = true;
    return {};
  }
  if (mlir::failed(verify(op, /*verifyRecursively=*/false))) {
    op->erase();
    hasFailed = true;
    return {};
  }
  // Fold ops whose operands are constants (shape sub-graphs, initializer
  // arithmetic); the folders bound the size of what they produce.
  SmallVector<OpFoldResult> folded;
  if (op->getNumRegions() == 0 && mlir::succeeded(op->fold(folded)) &&
      !folded.empty()) {
    SmallVector<Value> results;
    for (auto [result, fold] : llvm::zip_equal(op->getResults(), folded)) {
      if (auto value = dyn_cast<Value>(fold)) {
        results.push_back(value);
        continue;
      }
      auto elements = dyn_cast<ElementsAttr>(llvm::cast<Attribute>(fold));
      if (!elements || elements.getType() != result.getType()) {
        results.clear();
        break;
      }
      results.push_back(ConstantOp::create(builder(), loc, elements));
    }
    if (results.size() == op->getNumResults()) {
      op->erase();
      return results;
    }
  }
  return SmallVector<Value>(op->getResults());
}

RankedTensorType NodeContext::typeOf(Value value) {
  return value ? dyn_cast<RankedTensorType>(value.getType()) : nullptr;
}

Value NodeContext::unary(UnaryKind kind, Value x, std::optional<double> alpha,
                         std::optional<double> beta) {
  UnaryOp::Properties properties;
  properties.setKind(UnaryKindAttr::get(getContext(), kind));
  if (alpha)
    properties.setAlpha(builder().getF64FloatAttr(*alpha));
  if (beta)
    properties.setBeta(builder().getF64FloatAttr(*beta));
  return create<UnaryOp>({x}, properties);
}

Value NodeContext::binary(BinaryKind kind, Value lhs, Value rhs) {
  BinaryOp::Properties properties;
  properties.setKind(BinaryKindAttr::get(getContext(), kind));
  return create<BinaryOp>({lhs, rhs}, properties);
}

Value NodeContext::compare(ComparePredicate predicate, Value lhs, Value rhs) {
  CompareOp::Properties properties;
  properties.setPredicate(ComparePredicateAttr::get(getContext(), predicate));
  return create<CompareOp>({lhs, rhs}, properties);
}

Value NodeContext::select(Value condition, Value onTrue, Value onFalse) {
  return create<SelectOp>({condition, onTrue, onFalse});
}

Value NodeContext::cast(Value x, Type elementType) {
  RankedTensorType type = typeOf(x);
  if (!type)
    return fail();
  if (type.getElementType() == elementType)
    return x;
  return createTyped<CastOp>(type.clone(elementType), {x});
}

Value NodeContext::reshape(Value x, ArrayRef<int64_t> shape) {
  RankedTensorType type = typeOf(x);
  if (!type)
    return fail();
  auto target = RankedTensorType::get(shape, type.getElementType());
  if (target == type)
    return x;
  return createTyped<ReshapeOp>(target, {x});
}

Value NodeContext::expand(Value x, ArrayRef<int64_t> shape) {
  RankedTensorType type = typeOf(x);
  if (!type)
    return fail();
  auto target = RankedTensorType::get(shape, type.getElementType());
  if (target == type)
    return x;
  return createTyped<ExpandOp>(target, {x});
}

Value NodeContext::transpose(Value x, ArrayRef<int64_t> permutation) {
  TransposeOp::Properties properties;
  properties.setPermutation(builder().getDenseI64ArrayAttr(permutation));
  return create<TransposeOp>({x}, properties);
}

Value NodeContext::matmul(Value lhs, Value rhs, bool transposeLhs,
                          bool transposeRhs) {
  MatmulOp::Properties properties;
  if (transposeLhs)
    properties.setTransposeLhs(builder().getUnitAttr());
  if (transposeRhs)
    properties.setTransposeRhs(builder().getUnitAttr());
  return create<MatmulOp>({lhs, rhs}, properties);
}

Value NodeContext::reduce(ReduceKind kind, Value x, ArrayRef<int64_t> axes,
                          bool keepDims) {
  ReduceOp::Properties properties;
  properties.setKind(ReduceKindAttr::get(getContext(), kind));
  properties.setAxes(builder().getDenseI64ArrayAttr(axes));
  if (keepDims)
    properties.setKeepDims(builder().getUnitAttr());
  return create<ReduceOp>({x}, properties);
}

Value NodeContext::slice(Value x, ArrayRef<int64_t> starts,
                         ArrayRef<int64_t> sizes, ArrayRef<int64_t> steps) {
  SliceOp::Properties properties;
  properties.setStarts(builder().getDenseI64ArrayAttr(starts));
  properties.setSizes(builder().getDenseI64ArrayAttr(sizes));
  properties.setSteps(builder().getDenseI64ArrayAttr(steps));
  return create<SliceOp>({x}, properties);
}

Value NodeContext::concat(ValueRange inputs, int64_t axis) {
  ConcatOp::Properties properties;
  properties.setAxis(builder().getI64IntegerAttr(axis));
  return create<ConcatOp>(inputs, properties);
}

Value NodeContext::gather(Value data, Value indices, int64_t axis) {
  GatherOp::Properties properties;
  properties.setAxis(builder().getI64IntegerAttr(axis));
  return create<GatherOp>({data, indices}, properties);
}

Value NodeContext::constant(ElementsAttr value) {
  if (hasFailed || !value)
    return fail();
  return ConstantOp::create(builder(), loc, value);
}

Value NodeContext::splat(Type elementType, double value,
                         ArrayRef<int64_t> shape) {
  return constant(
      numericElements(RankedTensorType::get(shape, elementType), {value}));
}

Value NodeContext::scalarLike(Value like, double value) {
  RankedTensorType type = typeOf(like);
  if (!type)
    return fail();
  return splat(type.getElementType(), value);
}

Value NodeContext::i64Vector(ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    builder().getI64Type());
  return constant(DenseElementsAttr::get(type, values));
}

Value NodeContext::i64Scalar(int64_t value) {
  return constant(DenseElementsAttr::get(
      RankedTensorType::get({}, builder().getI64Type()), value));
}

Value NodeContext::iota(int64_t n) {
  return i64Vector(llvm::to_vector(llvm::seq<int64_t>(0, n)));
}

Value NodeContext::element(Value vector, int64_t i) {
  return gather(vector, i64Scalar(i), 0);
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>> NodeContext::staticShape(Value value,
                                                             StringRef what) {
  RankedTensorType type = typeOf(value);
  if (!type)
    return fail(), std::nullopt;
  if (!type.hasStaticShape()) {
    error() << what << " must have a static shape, got " << type
            << "; pin dynamic graph inputs with --input-shape";
    return std::nullopt;
  }
  if (mlir::failed(checkedElementCount(type.getShape()))) {
    error() << what << " has more elements than a tensor can hold";
    return std::nullopt;
  }
  return SmallVector<int64_t>(type.getShape());
}

std::optional<int64_t> NodeContext::normalizeAxis(int64_t axis, int64_t rank,
                                                  StringRef what) {
  if (axis < -rank || axis >= rank) {
    error() << what << " " << axis << " is out of range for rank " << rank;
    return std::nullopt;
  }
  return axis < 0 ? axis + rank : axis;
}

} // namespace aicc::onnx_importer
