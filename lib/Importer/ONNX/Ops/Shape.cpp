//===- Shape.cpp - Constants, shapes, reshapes, slicing, padding ----------===//

#include "../ImporterInternal.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

bool isStatic(int64_t size) { return !ShapedType::isDynamic(size); }

LogicalResult convertConstant(NodeContext &c) {
  if (c.node.attribute_size() != 1) {
    c.error() << "needs exactly one value attribute, got "
              << c.node.attribute_size();
    return failure();
  }
  const onnx::AttributeProto &attr = c.node.attribute(0);
  StringRef name = attr.name();
  OpBuilder &b = c.builder();
  if (name == "value") {
    const onnx::TensorProto &tensor = attr.t();
    SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
    FailureOr<int64_t> count = checkedElementCount(shape);
    bool isWeight =
        mlir::succeeded(count) && *count > c.options().constantElementLimit;
    FailureOr<ElementsAttr> value =
        convertTensor(c.getContext(), c.loc, tensor,
                      ExternalDataPolicy{c.graph().model.policy}, isWeight);
    if (mlir::failed(value))
      return c.fail(), failure();
    if (isWeight)
      return c.setOutputs(
          {WeightOp::create(b, c.loc, c.node.output(0), *value).getResult()});
    return c.setOutputs({c.constant(*value)});
  }
  if (name == "value_float")
    return c.setOutputs({c.splat(b.getF32Type(), c.getFloat(name, 0))});
  if (name == "value_int")
    return c.setOutputs({c.constant(DenseElementsAttr::get(
        RankedTensorType::get({}, b.getI64Type()), c.getInt(name, 0)))});
  if (name == "value_floats") {
    SmallVector<float> values;
    for (double v : c.getFloats(name).value_or(SmallVector<double>{}))
      values.push_back(static_cast<float>(v));
    return c.setOutputs({c.constant(DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(values.size())},
                              b.getF32Type()),
        ArrayRef<float>(values)))});
  }
  if (name == "value_ints")
    return c.setOutputs(
        {c.i64Vector(c.getInts(name).value_or(SmallVector<int64_t>{}))});
  c.error() << "attribute '" << name
            << "' is not supported (strings and sparse tensors are not)";
  return failure();
}

LogicalResult convertConstantOfShape(NodeContext &c) {
  std::optional<SmallVector<int64_t>> shape = c.knownInts(0);
  if (!shape && !c.failed())
    shape = c.requireDeclaredShape(0, "the shape");
  if (!shape)
    return c.fail(), failure();
  if (mlir::failed(checkedElementCount(*shape))) {
    c.error() << "shape has a negative dimension or too many elements";
    return failure();
  }
  const onnx::AttributeProto *value = c.attribute("value");
  if (!value)
    return c.setOutputs({c.splat(c.builder().getF32Type(), 0.0, *shape)});
  FailureOr<ElementsAttr> attr =
      convertTensor(c.getContext(), c.loc, value->t(),
                    ExternalDataPolicy{c.graph().model.policy}, false);
  if (mlir::failed(attr))
    return c.fail(), failure();
  auto dense = dyn_cast<DenseElementsAttr>(*attr);
  if (!dense || dense.getNumElements() != 1) {
    c.error() << "attribute 'value' must hold one element";
    return failure();
  }
  auto type = RankedTensorType::get(*shape, dense.getElementType());
  return c.setOutputs({c.constant(
      DenseElementsAttr::get(type, *dense.value_begin<Attribute>()))});
}

LogicalResult convertShape(NodeContext &c) {
  RankedTensorType type = NodeContext::typeOf(c.input(0));
  if (!type)
    return failure();
  int64_t rank = type.getRank();
  int64_t start = c.opset >= 15 ? c.getInt("start", 0) : 0;
  int64_t end = c.opset >= 15 ? c.getInt("end", rank) : rank;
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  ArrayRef<int64_t> dims = type.getShape().slice(start, end - start);
  if (llvm::any_of(dims, ShapedType::isDynamic)) {
    c.error() << "the shape of " << type
              << " is not known at compile time; pin dynamic graph inputs "
                 "with --input-shape";
    return failure();
  }
  return c.setOutputs({c.i64Vector(dims)});
}

LogicalResult convertSize(NodeContext &c) {
  std::optional<SmallVector<int64_t>> shape =
      c.staticShape(c.input(0), "the input");
  if (!shape)
    return failure();
  int64_t count = *checkedElementCount(*shape);
  return c.setOutputs({c.constant(DenseElementsAttr::get(
      RankedTensorType::get({}, c.builder().getI64Type()), count))});
}

LogicalResult convertReshape(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  std::optional<SmallVector<int64_t>> target =
      c.opset < 5 ? c.getInts("shape") : c.knownInts(1);
  if (!type || c.failed())
    return c.fail(), failure();
  if (!target) {
    // The shape is run-time data: the model's declared output shape says
    // what it must be.
    std::optional<SmallVector<int64_t>> declared =
        c.requireDeclaredShape(0, "the target shape");
    if (!declared)
      return failure();
    return c.setOutputs({c.reshape(x, *declared)});
  }
  bool allowZero = c.opset >= 14 && c.getInt("allowzero", 0);
  SmallVector<int64_t> shape;
  int64_t inferred = -1, known = 1;
  for (auto [i, size] : llvm::enumerate(*target)) {
    if (size == 0 && !allowZero) {
      if (static_cast<int64_t>(i) >= type.getRank()) {
        c.error() << "shape entry " << i
                  << " is 0 (copy the input's size) but the input has rank "
                  << type.getRank();
        return failure();
      }
      size = type.getDimSize(i);
    } else if (size == -1) {
      if (inferred >= 0) {
        c.error() << "shape has more than one -1";
        return failure();
      }
      inferred = i;
      shape.push_back(ShapedType::kDynamic);
      continue;
    } else if (size < -1) {
      c.error() << "shape entry " << i << " is " << size;
      return failure();
    }
    shape.push_back(size);
    if (isStatic(size)) {
      if (size != 0 && known > std::numeric_limits<int64_t>::max() / size) {
        c.error() << "the target shape has more elements than a tensor "
                     "can hold";
        return failure();
      }
      known *= size;
    }
  }
  bool othersStatic = true;
  for (auto [i, size] : llvm::enumerate(shape))
    if (static_cast<int64_t>(i) != inferred && !isStatic(size))
      othersStatic = false;
  if (inferred >= 0 && type.hasStaticShape() && othersStatic) {
    int64_t count = type.getNumElements();
    if (known == 0 || count % known != 0) {
      c.error() << "cannot reshape " << type << " into " << *target;
      return failure();
    }
    shape[inferred] = count / known;
  }
  return c.setOutputs({c.reshape(x, shape)});
}

LogicalResult convertFlatten(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  int64_t rank = type.getRank();
  int64_t axis = c.getInt("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank) {
    c.error() << "axis " << c.getInt("axis", 1) << " is out of range for rank "
              << rank;
    return failure();
  }
  auto product = [&](int64_t from, int64_t to) -> int64_t {
    int64_t p = 1;
    for (int64_t d = from; d < to; ++d) {
      if (type.isDynamicDim(d))
        return ShapedType::kDynamic;
      p *= type.getDimSize(d);
    }
    return p;
  };
  return c.setOutputs({c.reshape(x, {product(0, axis), product(axis, rank)})});
}

LogicalResult convertSqueeze(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  std::optional<SmallVector<int64_t>> axes =
      c.opset < 13 ? c.getInts("axes") : c.knownInts(1);
  if (c.failed())
    return failure();
  if (c.opset >= 13 && c.hasInput(1) && !axes) {
    std::optional<SmallVector<int64_t>> declared =
        c.requireDeclaredShape(0, "axes");
    if (!declared)
      return failure();
    return c.setOutputs({c.reshape(x, *declared)});
  }
  SmallVector<bool> drop(type.getRank(), false);
  if (!axes || axes->empty()) {
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (type.isDynamicDim(d)) {
        c.error() << "cannot tell whether dynamic dimension " << d
                  << " has size 1; give 'axes'";
        return failure();
      }
      drop[d] = type.getDimSize(d) == 1;
    }
  } else {
    for (int64_t axis : *axes) {
      std::optional<int64_t> d = c.normalizeAxis(axis, type.getRank());
      if (!d)
        return failure();
      if (!type.isDynamicDim(*d) && type.getDimSize(*d) != 1) {
        c.error() << "cannot squeeze dimension " << *d << " of size "
                  << type.getDimSize(*d);
        return failure();
      }
      drop[*d] = true;
    }
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!drop[d])
      shape.push_back(type.getDimSize(d));
  return c.setOutputs({c.reshape(x, shape)});
}

LogicalResult convertUnsqueeze(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  std::optional<SmallVector<int64_t>> axes =
      c.opset < 13 ? c.getInts("axes") : c.knownInts(1);
  if (!type || c.failed())
    return c.fail(), failure();
  if (!axes) {
    std::optional<SmallVector<int64_t>> declared =
        c.requireDeclaredShape(0, "axes");
    if (!declared)
      return failure();
    return c.setOutputs({c.reshape(x, *declared)});
  }
  int64_t rank = type.getRank() + axes->size();
  SmallVector<bool> inserted(rank, false);
  for (int64_t axis : *axes) {
    std::optional<int64_t> d = c.normalizeAxis(axis, rank);
    if (!d)
      return failure();
    if (inserted[*d]) {
      c.error() << "axes repeat dimension " << *d;
      return failure();
    }
    inserted[*d] = true;
  }
  SmallVector<int64_t> shape;
  int64_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(inserted[d] ? 1 : type.getDimSize(next++));
  return c.setOutputs({c.reshape(x, shape)});
}

LogicalResult convertTranspose(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  SmallVector<int64_t> permutation = c.getInts("perm").value_or(
      llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(0, type.getRank()))));
  return c.setOutputs({c.transpose(x, permutation)});
}

/// Numpy broadcasting of two shapes, or an error.
std::optional<SmallVector<int64_t>>
broadcast(NodeContext &c, ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x == 1)
      result[i] = y;
    else if (y == 1 || x == y)
      result[i] = x;
    else if (!isStatic(x) || !isStatic(y))
      result[i] = isStatic(x) ? x : y;
    else {
      c.error() << "shapes " << a << " and " << b
                << " are not broadcast-compatible";
      return std::nullopt;
    }
  }
  return result;
}

LogicalResult convertExpand(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  std::optional<SmallVector<int64_t>> shape = c.knownInts(1);
  if (!type || c.failed())
    return c.fail(), failure();
  if (!shape)
    shape = c.requireDeclaredShape(0, "the target shape");
  if (!shape)
    return failure();
  std::optional<SmallVector<int64_t>> result =
      broadcast(c, type.getShape(), *shape);
  if (!result)
    return failure();
  return c.setOutputs({c.expand(x, *result)});
}

LogicalResult convertTile(NodeContext &c) {
  std::optional<SmallVector<int64_t>> repeats = c.knownInts(1);
  if (c.failed())
    return failure();
  if (!repeats) {
    // Run-time repeats: each is the declared output size over the input's.
    std::optional<SmallVector<int64_t>> in =
        c.staticShape(c.input(0), "the input");
    std::optional<SmallVector<int64_t>> out =
        c.requireDeclaredShape(0, "repeats");
    if (!in || !out)
      return c.fail(), failure();
    if (in->size() != out->size()) {
      c.error() << "the declared output rank differs from the input's";
      return failure();
    }
    repeats.emplace();
    for (auto [i, o] : llvm::zip_equal(*in, *out)) {
      if ((i == 0 && o != 0) || (i != 0 && o % i != 0)) {
        c.error() << "the declared output shape is not a tiling of the input";
        return failure();
      }
      repeats->push_back(i == 0 ? 1 : o / i);
    }
  }
  TileOp::Properties properties;
  properties.setRepeats(c.builder().getDenseI64ArrayAttr(*repeats));
  return c.setOutputs({c.create<TileOp>({c.input(0)}, properties)});
}

LogicalResult convertConcat(NodeContext &c) {
  SmallVector<Value> inputs;
  for (size_t i = 0; i < c.numInputs(); ++i)
    inputs.push_back(c.input(i));
  if (inputs.empty() || c.failed()) {
    c.error() << "needs at least one input";
    return failure();
  }
  RankedTensorType type = NodeContext::typeOf(inputs.front());
  if (!type)
    return failure();
  std::optional<int64_t> axis =
      c.normalizeAxis(c.getInt("axis", c.opset < 4 ? 1 : 0), type.getRank());
  if (!axis)
    return failure();
  return c.setOutputs({c.concat(inputs, *axis)});
}

LogicalResult convertSplit(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  std::optional<int64_t> axis =
      c.normalizeAxis(c.getInt("axis", 0), type.getRank());
  if (!axis)
    return failure();
  std::optional<SmallVector<int64_t>> sizes =
      c.opset < 13 ? c.getInts("split") : c.knownInts(1);
  if (c.failed())
    return failure();
  if (!sizes && c.opset >= 13 && c.hasInput(1)) {
    // Run-time sizes: the declared output shapes give them.
    sizes.emplace();
    for (size_t i = 0; i < c.numOutputs(); ++i) {
      std::optional<SmallVector<int64_t>> out =
          c.requireDeclaredShape(i, "split");
      if (!out)
        return failure();
      if (static_cast<int64_t>(out->size()) != type.getRank()) {
        c.error() << "declared output " << i << " has the wrong rank";
        return failure();
      }
      sizes->push_back((*out)[*axis]);
    }
  }
  if (!sizes || sizes->empty()) {
    int64_t dim = type.getDimSize(*axis);
    int64_t parts = c.opset >= 18 && c.attribute("num_outputs")
                        ? c.getInt("num_outputs", 0)
                        : static_cast<int64_t>(c.numOutputs());
    if (!isStatic(dim) || parts <= 0) {
      c.error() << "cannot split a dimension of size "
                << (isStatic(dim) ? std::to_string(dim) : "?") << " into "
                << parts << " parts";
      return failure();
    }
    if (c.opset < 18 && dim % parts != 0) {
      c.error() << "cannot split a dimension of size " << dim << " into "
                << parts << " equal parts";
      return failure();
    }
    int64_t chunk = llvm::divideCeil(dim, parts);
    sizes.emplace();
    for (int64_t done = 0; done < dim; done += chunk)
      sizes->push_back(std::min(chunk, dim - done));
  }
  SplitOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(*axis));
  properties.setSizes(c.builder().getDenseI64ArrayAttr(*sizes));
  return c.setOutputs(c.createMulti<SplitOp>({x}, properties));
}

/// Clamps the i64 tensor `x` into [low, high].
Value clamp(NodeContext &c, Value x, int64_t low, int64_t high) {
  return c.binary(BinaryKind::min,
                  c.binary(BinaryKind::max, x, c.i64Scalar(low)),
                  c.i64Scalar(high));
}

/// `values` in i64, for index arithmetic.
Value asI64(NodeContext &c, Value values) {
  return c.cast(values, c.builder().getI64Type());
}

/// Slice with starts/ends/axes/steps known only at run time: the output
/// shape is the declared one, and each sliced dimension is gathered at the
/// positions start + i * step, computed at run time.
LogicalResult runtimeSlice(NodeContext &c, Value x) {
  std::optional<SmallVector<int64_t>> in = c.staticShape(x, "the input");
  std::optional<SmallVector<int64_t>> out =
      c.requireDeclaredShape(0, "starts, ends, axes or steps");
  if (!in || !out)
    return c.fail(), failure();
  int64_t rank = in->size();
  if (static_cast<int64_t>(out->size()) != rank) {
    c.error() << "the declared output rank differs from the input's";
    return failure();
  }
  Value starts = asI64(c, c.input(1));
  RankedTensorType startsType = NodeContext::typeOf(starts);
  if (!startsType || startsType.getRank() != 1 || startsType.isDynamicDim(0)) {
    c.error() << "starts must be a 1-D tensor of static length";
    return failure();
  }
  int64_t count = startsType.getDimSize(0);
  std::optional<SmallVector<int64_t>> knownAxes =
      c.hasInput(3) ? c.knownInts(3)
                    : std::optional<SmallVector<int64_t>>(
                          llvm::to_vector(llvm::seq<int64_t>(0, count)));
  Value axes = c.hasInput(3) ? asI64(c, c.input(3)) : c.iota(count);
  Value steps = c.hasInput(4) ? asI64(c, c.input(4))
                              : c.splat(c.builder().getI64Type(), 1, {count});
  axes = c.select(c.compare(ComparePredicate::lt, axes, c.i64Scalar(0)),
                  c.binary(BinaryKind::add, axes, c.i64Scalar(rank)), axes);
  Value zeros = c.splat(c.builder().getI64Type(), 0, {count});
  for (int64_t d = 0; d < rank; ++d) {
    if (knownAxes && !llvm::is_contained(*knownAxes, d) &&
        !llvm::is_contained(*knownAxes, d - rank))
      continue;
    Value match = c.compare(ComparePredicate::eq, axes, c.i64Scalar(d));
    Value sliced = c.compare(
        ComparePredicate::ne,
        c.reduce(ReduceKind::max, asI64(c, match), {0}, false), c.i64Scalar(0));
    Value start =
        c.reduce(ReduceKind::sum, c.select(match, starts, zeros), {0}, false);
    Value step = c.select(
        sliced,
        c.reduce(ReduceKind::sum, c.select(match, steps, zeros), {0}, false),
        c.i64Scalar(1));
    int64_t dim = (*in)[d];
    start = c.select(c.compare(ComparePredicate::lt, start, c.i64Scalar(0)),
                     c.binary(BinaryKind::add, start, c.i64Scalar(dim)), start);
    Value upper =
        c.select(c.compare(ComparePredicate::gt, step, c.i64Scalar(0)),
                 c.i64Scalar(dim), c.i64Scalar(dim - 1));
    start = c.binary(BinaryKind::min,
                     c.binary(BinaryKind::max, start, c.i64Scalar(0)), upper);
    Value positions =
        c.binary(BinaryKind::add, start,
                 c.binary(BinaryKind::mul, c.iota((*out)[d]), step));
    x = c.gather(x, clamp(c, positions, 0, std::max<int64_t>(dim - 1, 0)), d);
  }
  RankedTensorType result = NodeContext::typeOf(x);
  if (result && result.getShape() != ArrayRef<int64_t>(*out)) {
    c.error() << "the declared output shape " << *out
              << " does not match the sliced axes, which give "
              << result.getShape();
    return failure();
  }
  return c.setOutputs({x});
}

/// Pad with pads (or the value) known only at run time: gathers each
/// dimension at its source positions and masks the padding.
LogicalResult runtimePad(NodeContext &c, Value x, PadMode mode) {
  std::optional<SmallVector<int64_t>> in = c.staticShape(x, "the input");
  std::optional<SmallVector<int64_t>> out =
      c.requireDeclaredShape(0, "the pads");
  if (!in || !out)
    return c.fail(), failure();
  int64_t rank = in->size();
  if (static_cast<int64_t>(out->size()) != rank) {
    c.error() << "the declared output rank differs from the input's";
    return failure();
  }
  if (c.opset >= 18 && c.hasInput(3)) {
    c.error() << "run-time pads with an axes input are not supported";
    return failure();
  }
  Value pads = asI64(c, c.input(1));
  Value mask;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t n = (*in)[d];
    Value index =
        c.binary(BinaryKind::sub, c.iota((*out)[d]), c.element(pads, d));
    if (n == 0) {
      c.error() << "cannot pad an empty dimension";
      return failure();
    }
    switch (mode) {
    case PadMode::constant: {
      Value valid =
          c.binary(BinaryKind::logical_and,
                   c.compare(ComparePredicate::ge, index, c.i64Scalar(0)),
                   c.compare(ComparePredicate::lt, index, c.i64Scalar(n)));
      SmallVector<int64_t> shape(rank, 1);
      shape[d] = (*out)[d];
      valid = c.reshape(valid, shape);
      mask = mask ? c.binary(BinaryKind::logical_and, mask, valid) : valid;
      index = clamp(c, index, 0, n - 1);
      break;
    }
    case PadMode::edge:
      index = clamp(c, index, 0, n - 1);
      break;
    case PadMode::reflect: {
      if (n == 1) {
        index = clamp(c, index, 0, 0);
        break;
      }
      Value period = c.i64Scalar(2 * (n - 1));
      Value folded = c.binary(BinaryKind::mod, index, period);
      index = c.select(c.compare(ComparePredicate::lt, folded, c.i64Scalar(n)),
                       folded, c.binary(BinaryKind::sub, period, folded));
      break;
    }
    case PadMode::wrap:
      index = c.binary(BinaryKind::mod, index, c.i64Scalar(n));
      break;
    }
    x = c.gather(x, index, d);
  }
  if (mask) {
    Type element = NodeContext::typeOf(x)
                       ? NodeContext::typeOf(x).getElementType()
                       : Type();
    Value value = c.hasInput(2) ? c.reshape(c.cast(c.input(2), element), {})
                                : c.scalarLike(x, 0.0);
    x = c.select(mask, x, value);
  }
  return c.setOutputs({x});
}

LogicalResult convertSlice(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  int64_t rank = type.getRank();
  std::optional<SmallVector<int64_t>> starts, ends, axes, steps;
  if (c.opset < 10) {
    starts = c.getInts("starts");
    ends = c.getInts("ends");
    axes = c.getInts("axes");
  } else {
    starts = c.knownInts(1);
    ends = c.knownInts(2);
    if (c.hasInput(3))
      axes = c.knownInts(3);
    if (c.hasInput(4))
      steps = c.knownInts(4);
    if (!c.failed() && (!starts || !ends || (c.hasInput(3) && !axes) ||
                        (c.hasInput(4) && !steps)))
      return runtimeSlice(c, x);
  }
  if (c.failed())
    return failure();
  if (!starts || !ends) {
    c.error() << "needs starts and ends";
    return failure();
  }
  if (!axes)
    axes = llvm::to_vector(llvm::seq<int64_t>(0, starts->size()));
  if (!steps)
    steps = SmallVector<int64_t>(starts->size(), 1);
  if (ends->size() != starts->size() || axes->size() != starts->size() ||
      steps->size() != starts->size()) {
    c.error() << "starts, ends, axes and steps differ in length";
    return failure();
  }

  SmallVector<int64_t> outStarts(rank, 0), outSizes(rank, -1),
      outSteps(rank, 1);
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < starts->size(); ++i) {
    std::optional<int64_t> axis = c.normalizeAxis((*axes)[i], rank);
    if (!axis)
      return failure();
    if (seen[*axis]) {
      c.error() << "axes repeat dimension " << *axis;
      return failure();
    }
    seen[*axis] = true;
    int64_t step = (*steps)[i];
    if (step == 0) {
      c.error() << "step of axis " << *axis << " is zero";
      return failure();
    }
    int64_t dim = type.getDimSize(*axis);
    int64_t start = (*starts)[i], end = (*ends)[i];
    if (!isStatic(dim)) {
      if (start == 0 && step == 1 && end >= INT32_MAX)
        continue; // The whole dynamic dimension.
      c.error() << "cannot slice dynamic dimension " << *axis
                << "; pin dynamic graph inputs with --input-shape";
      return failure();
    }
    if (start < 0)
      start = start < -dim ? 0 : start + dim;
    if (end < 0)
      end = end < -dim ? -1 : end + dim;
    int64_t size;
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      size = end > start ? llvm::divideCeil(end - start, step) : 0;
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      size = start > end ? llvm::divideCeil(start - end, -step) : 0;
    }
    outStarts[*axis] = size == 0 ? 0 : start;
    outSizes[*axis] = size;
    outSteps[*axis] = size == 0 ? 1 : step;
  }
  return c.setOutputs({c.slice(x, outStarts, outSizes, outSteps)});
}

std::optional<PadMode> padMode(NodeContext &c) {
  std::string name = c.getString("mode", "constant");
  if (name == "constant")
    return PadMode::constant;
  if (name == "reflect")
    return PadMode::reflect;
  if (name == "edge")
    return PadMode::edge;
  if (name == "wrap")
    return PadMode::wrap;
  c.error() << "unknown mode '" << name << "'";
  return std::nullopt;
}

LogicalResult convertPad(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  int64_t rank = type.getRank();
  std::optional<SmallVector<int64_t>> pads;
  std::optional<double> value;
  if (c.opset < 11) {
    pads = c.getInts(c.attribute("paddings") ? "paddings" : "pads");
    value = c.getFloat("value", 0.0);
  } else {
    pads = c.knownInts(1);
    bool runtimeValue = c.hasInput(2) && !c.constantValue(c.optionalInput(2));
    if (!c.failed() && (!pads || runtimeValue)) {
      std::optional<PadMode> mode = padMode(c);
      return mode ? runtimePad(c, x, *mode) : failure();
    }
    if (c.hasInput(2)) {
      std::optional<SmallVector<double>> v =
          c.constantFloats(2, "constant_value");
      if (!v)
        return failure();
      if (v->size() != 1) {
        c.error() << "constant_value must hold one value";
        return failure();
      }
      value = (*v)[0];
    }
  }
  if (!pads)
    return c.fail(), failure();
  SmallVector<int64_t> all(2 * rank, 0);
  if (c.opset >= 18 && c.hasInput(3)) {
    std::optional<SmallVector<int64_t>> axes = c.constantInts(3, "axes");
    if (!axes)
      return failure();
    if (pads->size() != 2 * axes->size()) {
      c.error() << "pads has " << pads->size() << " entries for "
                << axes->size() << " axes";
      return failure();
    }
    for (auto [i, axis] : llvm::enumerate(*axes)) {
      std::optional<int64_t> d = c.normalizeAxis(axis, rank);
      if (!d)
        return failure();
      all[*d] = (*pads)[i];
      all[*d + rank] = (*pads)[i + axes->size()];
    }
  } else if (static_cast<int64_t>(pads->size()) == 2 * rank) {
    all = *pads;
  } else {
    c.error() << "pads has " << pads->size() << " entries, expected "
              << 2 * rank;
    return failure();
  }

  std::optional<PadMode> padModeValue = padMode(c);
  if (!padModeValue)
    return failure();
  PadMode mode = *padModeValue;

  // Negative pads remove elements: pad with the positive part, then slice.
  SmallVector<int64_t> positive, starts(rank, 0), sizes(rank, -1),
      steps(rank, 1);
  bool crop = false;
  for (int64_t pad : all)
    positive.push_back(std::max<int64_t>(pad, 0));
  PadOp::Properties properties;
  properties.setMode(PadModeAttr::get(c.getContext(), mode));
  properties.setPadding(c.builder().getDenseI64ArrayAttr(positive));
  Type element = type.getElementType();
  if (mode == PadMode::constant && value && *value != 0.0) {
    if (auto floatType = dyn_cast<FloatType>(element))
      properties.setValue(c.builder().getFloatAttr(floatType, *value));
    else
      properties.setValue(
          c.builder().getIntegerAttr(element, static_cast<int64_t>(*value)));
  }
  Value padded = c.create<PadOp>({x}, properties);
  RankedTensorType paddedType = NodeContext::typeOf(padded);
  for (int64_t d = 0; d < rank && paddedType; ++d) {
    int64_t lo = all[d], hi = all[d + rank];
    if (lo >= 0 && hi >= 0)
      continue;
    int64_t dim = paddedType.getDimSize(d);
    if (!isStatic(dim)) {
      c.error() << "cannot crop dynamic dimension " << d;
      return failure();
    }
    crop = true;
    starts[d] = std::max<int64_t>(-lo, 0);
    sizes[d] = dim - starts[d] - std::max<int64_t>(-hi, 0);
    if (sizes[d] < 0) {
      c.error() << "negative pads remove more than dimension " << d << " has";
      return failure();
    }
  }
  return c.setOutputs({crop ? c.slice(padded, starts, sizes, steps) : padded});
}

/// DepthToSpace and SpaceToDepth as reshape, transpose, reshape.
LogicalResult convertDepthToSpace(NodeContext &c) {
  Value x = c.input(0);
  std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
  if (!shape)
    return failure();
  if (shape->size() != 4) {
    c.error() << "input must have rank 4 (N x C x H x W)";
    return failure();
  }
  int64_t b = c.getInt("blocksize", 0);
  int64_t n = (*shape)[0], ch = (*shape)[1], h = (*shape)[2], w = (*shape)[3];
  if (b <= 0 || ch % (b * b) != 0) {
    c.error() << "blocksize " << b << " does not divide " << ch
              << " channels into squares";
    return failure();
  }
  bool crd = c.getString("mode", "DCR") == "CRD";
  Value split = crd ? c.reshape(x, {n, ch / (b * b), b, b, h, w})
                    : c.reshape(x, {n, b, b, ch / (b * b), h, w});
  Value moved = crd ? c.transpose(split, {0, 1, 4, 2, 5, 3})
                    : c.transpose(split, {0, 3, 4, 1, 5, 2});
  return c.setOutputs({c.reshape(moved, {n, ch / (b * b), h * b, w * b})});
}

LogicalResult convertSpaceToDepth(NodeContext &c) {
  Value x = c.input(0);
  std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
  if (!shape)
    return failure();
  if (shape->size() != 4) {
    c.error() << "input must have rank 4 (N x C x H x W)";
    return failure();
  }
  int64_t b = c.getInt("blocksize", 0);
  int64_t n = (*shape)[0], ch = (*shape)[1], h = (*shape)[2], w = (*shape)[3];
  if (b <= 0 || h % b != 0 || w % b != 0) {
    c.error() << "blocksize " << b << " does not divide " << h << "x" << w;
    return failure();
  }
  Value split = c.reshape(x, {n, ch, h / b, b, w / b, b});
  Value moved = c.transpose(split, {0, 3, 5, 1, 2, 4});
  return c.setOutputs({c.reshape(moved, {n, ch * b * b, h / b, w / b})});
}

LogicalResult convertRange(NodeContext &c) {
  RankedTensorType type = NodeContext::typeOf(c.input(0));
  if (!type)
    return failure();
  bool known = c.constantValue(c.input(0)) && c.constantValue(c.input(1)) &&
               c.constantValue(c.input(2));
  if (!known) {
    // start + i * delta over the declared length.
    std::optional<SmallVector<int64_t>> out =
        c.requireDeclaredShape(0, "start, limit or delta");
    if (!out)
      return failure();
    if (out->size() != 1) {
      c.error() << "the declared output must be 1-D";
      return failure();
    }
    Type element = type.getElementType();
    Value steps = c.binary(BinaryKind::mul, c.cast(c.iota((*out)[0]), element),
                           c.reshape(c.input(2), {}));
    return c.setOutputs(
        {c.binary(BinaryKind::add, c.reshape(c.input(0), {}), steps)});
  }
  std::optional<SmallVector<double>> start = c.constantFloats(0, "start");
  std::optional<SmallVector<double>> limit = c.constantFloats(1, "limit");
  std::optional<SmallVector<double>> delta = c.constantFloats(2, "delta");
  if (!start || !limit || !delta)
    return c.fail(), failure();
  if (start->size() != 1 || limit->size() != 1 || delta->size() != 1 ||
      (*delta)[0] == 0.0) {
    c.error() << "start, limit and delta must be scalars and delta non-zero";
    return failure();
  }
  double count =
      std::max(std::ceil(((*limit)[0] - (*start)[0]) / (*delta)[0]), 0.0);
  if (count > double(c.options().foldElementLimit)) {
    c.error() << "the range has " << count << " elements, more than the "
              << c.options().foldElementLimit
              << " the compiler evaluates at compile time";
    return failure();
  }
  Type element = type.getElementType();
  auto result = RankedTensorType::get({int64_t(count)}, element);
  if (auto floatType = dyn_cast<FloatType>(element)) {
    SmallVector<APFloat> values;
    for (int64_t i = 0; i < int64_t(count); ++i) {
      APFloat v((*start)[0] + i * (*delta)[0]);
      bool lost;
      v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
      values.push_back(v);
    }
    return c.setOutputs({c.constant(DenseElementsAttr::get(result, values))});
  }
  SmallVector<APInt> values;
  int64_t first = int64_t((*start)[0]), step = int64_t((*delta)[0]);
  for (int64_t i = 0; i < int64_t(count); ++i)
    values.push_back(APInt(element.getIntOrFloatBitWidth(),
                           uint64_t(first + i * step), /*isSigned=*/true,
                           /*implicitTrunc=*/true));
  return c.setOutputs({c.constant(DenseElementsAttr::get(result, values))});
}

/// An i1 [rows x columns] mask with `keep(row, column)`.
Value matrixMask(NodeContext &c, int64_t rows, int64_t columns,
                 function_ref<bool(int64_t, int64_t)> keep) {
  SmallVector<bool> values;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j)
      values.push_back(keep(i, j));
  return c.constant(DenseElementsAttr::get(
      RankedTensorType::get({rows, columns}, c.builder().getI1Type()),
      ArrayRef<bool>(values)));
}

LogicalResult convertEyeLike(NodeContext &c) {
  Value x = c.input(0);
  std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
  if (!shape)
    return failure();
  if (shape->size() != 2) {
    c.error() << "input must be 2-D";
    return failure();
  }
  Type element = NodeContext::typeOf(x).getElementType();
  if (std::optional<int64_t> dtype = c.getOptionalInt("dtype")) {
    element = convertElementType(c.getContext(), *dtype);
    if (!element) {
      c.error() << "dtype " << dataTypeName(*dtype) << " is not supported";
      return failure();
    }
  }
  int64_t k = c.getInt("k", 0);
  Value mask = matrixMask(c, (*shape)[0], (*shape)[1],
                          [&](int64_t i, int64_t j) { return j - i == k; });
  return c.setOutputs({c.cast(mask, element)});
}

LogicalResult convertTrilu(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  if (type.getRank() < 2) {
    c.error() << "input must have rank 2 or more";
    return failure();
  }
  int64_t rows = type.getDimSize(type.getRank() - 2);
  int64_t columns = type.getDimSize(type.getRank() - 1);
  if (!isStatic(rows) || !isStatic(columns)) {
    c.error() << "the last two dimensions must be static";
    return failure();
  }
  bool upper = c.getInt("upper", 1);
  if (c.hasInput(1) && !c.constantValue(c.input(1))) {
    // k at run time: keep where (column - row) compares with k.
    SmallVector<int64_t> diagonal;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < columns; ++j)
        diagonal.push_back(j - i);
    Value offsets = c.constant(DenseElementsAttr::get(
        RankedTensorType::get({rows, columns}, c.builder().getI64Type()),
        ArrayRef<int64_t>(diagonal)));
    Value k = c.reshape(asI64(c, c.input(1)), {});
    Value mask = c.compare(upper ? ComparePredicate::ge : ComparePredicate::le,
                           offsets, k);
    return c.setOutputs({c.select(mask, x, c.scalarLike(x, 0))});
  }
  int64_t k = 0;
  if (c.hasInput(1)) {
    std::optional<SmallVector<int64_t>> values = c.constantInts(1, "k");
    if (!values)
      return failure();
    k = values->empty() ? 0 : (*values)[0];
  }
  Value mask = matrixMask(c, rows, columns, [&](int64_t i, int64_t j) {
    return upper ? j - i >= k : j - i <= k;
  });
  return c.setOutputs({c.select(mask, x, c.scalarLike(x, 0))});
}

LogicalResult convertOneHot(NodeContext &c) {
  Value indices = c.input(0), values = c.input(2);
  RankedTensorType indexType = NodeContext::typeOf(indices);
  std::optional<SmallVector<double>> depths;
  if (c.constantValue(c.input(1))) {
    depths = c.constantFloats(1, "depth");
  } else if (indexType) {
    // The depth is run-time data; the declared output shape gives it.
    std::optional<SmallVector<int64_t>> out =
        c.requireDeclaredShape(0, "depth");
    std::optional<int64_t> at =
        out ? c.normalizeAxis(c.getInt("axis", -1), indexType.getRank() + 1)
            : std::nullopt;
    if (out && at &&
        static_cast<int64_t>(out->size()) == indexType.getRank() + 1)
      depths = SmallVector<double>{double((*out)[*at])};
  }
  if (!indexType || !depths || !values)
    return c.fail(), failure();
  if (depths->size() != 1 || (*depths)[0] < 1) {
    c.error() << "depth must be one positive value";
    return failure();
  }
  int64_t depth = int64_t((*depths)[0]);
  int64_t rank = indexType.getRank() + 1;
  std::optional<int64_t> axis = c.normalizeAxis(c.getInt("axis", -1), rank);
  if (!axis)
    return failure();

  Type i64 = c.builder().getI64Type();
  Value index = c.cast(indices, i64);
  if (isa<FloatType>(indexType.getElementType()))
    index = c.cast(c.unary(UnaryKind::floor, indices), i64);
  Value depthValue = c.splat(i64, double(depth));
  index = c.select(c.compare(ComparePredicate::lt, index, c.splat(i64, 0)),
                   c.binary(BinaryKind::add, index, depthValue), index);
  SmallVector<int64_t> expanded(indexType.getShape());
  expanded.insert(expanded.begin() + *axis, 1);
  SmallVector<int64_t> iotaShape(rank, 1);
  iotaShape[*axis] = depth;
  auto iota = DenseElementsAttr::get(
      RankedTensorType::get(iotaShape, i64),
      ArrayRef<int64_t>(llvm::to_vector(llvm::seq<int64_t>(0, depth))));
  Value hit = c.compare(ComparePredicate::eq, c.reshape(index, expanded),
                        c.constant(iota));
  Value off = c.gather(values,
                       c.constant(DenseElementsAttr::get(
                           RankedTensorType::get({}, i64), int64_t(0))),
                       0);
  Value on = c.gather(values,
                      c.constant(DenseElementsAttr::get(
                          RankedTensorType::get({}, i64), int64_t(1))),
                      0);
  return c.setOutputs({c.select(hit, on, off)});
}

} // namespace

void registerShapeOps(OpTable &t) {
  t.add("Constant", 1, convertConstant);
  t.add("ConstantOfShape", 9, convertConstantOfShape);
  t.add("Shape", 1, convertShape);
  t.add("Size", 1, convertSize);
  t.add("Reshape", 1, convertReshape);
  t.add("Flatten", 1, convertFlatten);
  t.add("Squeeze", 1, convertSqueeze);
  t.add("Unsqueeze", 1, convertUnsqueeze);
  t.add("Transpose", 1, convertTranspose);
  t.add("Expand", 8, convertExpand);
  t.add("Tile", 6, convertTile);
  t.add("Concat", 1, convertConcat);
  t.add("Split", 1, convertSplit);
  t.add("Slice", 1, convertSlice);
  t.add("Pad", 1, convertPad);
  t.add("DepthToSpace", 1, convertDepthToSpace);
  t.add("SpaceToDepth", 1, convertSpaceToDepth);
  t.add("Range", 11, convertRange);
  t.add("EyeLike", 9, convertEyeLike);
  t.add("Trilu", 14, convertTrilu);
  t.add("OneHot", 9, convertOneHot);
}

} // namespace aicc::onnx_importer
