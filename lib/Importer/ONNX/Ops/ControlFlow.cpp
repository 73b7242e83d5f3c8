//===- ControlFlow.cpp - If, Loop and Scan --------------------------------===//
//
// If becomes scf.if (or just the chosen branch when the condition is a
// constant), Loop becomes scf.while carrying tensors, and Scan is unrolled
// over its static sequence length. Subgraph bodies are imported by the same
// GraphImporter, in a child scope that sees the enclosing graphs' values.
//
//===----------------------------------------------------------------------===//

#include "../ImporterInternal.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// The type both `a` and `b` fit: one rank and element type, dimensions that
/// differ made dynamic. Null when they cannot be joined.
RankedTensorType join(Type a, Type b) {
  auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
  if (!ta || !tb || ta.getRank() != tb.getRank() ||
      ta.getElementType() != tb.getElementType())
    return nullptr;
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip_equal(ta.getShape(), tb.getShape()))
    shape.push_back(x == y ? x : ShapedType::kDynamic);
  return RankedTensorType::get(shape, ta.getElementType());
}

/// `value` as `type` (a tensor.cast when they differ).
Value castTo(NodeContext &c, Value value, Type type) {
  if (!value || value.getType() == type)
    return value;
  return tensor::CastOp::create(c.builder(), c.loc, type, value);
}

/// A rank-0 or single-element boolean tensor as an i1 scalar.
Value scalarCondition(NodeContext &c, Value condition) {
  Value rank0 = c.reshape(c.cast(condition, c.builder().getI1Type()), {});
  if (!rank0)
    return c.fail();
  return tensor::ExtractOp::create(c.builder(), c.loc, rank0, ValueRange{});
}

/// Imports `graph` at the builder's current point with `arguments`.
std::optional<SmallVector<Value>> importBody(NodeContext &c,
                                             const onnx::GraphProto &graph,
                                             ValueRange arguments) {
  std::optional<SmallVector<Value>> outputs =
      c.graph().importSubgraph(graph, arguments, c.loc);
  if (!outputs)
    c.fail();
  return outputs;
}

/// The output types `graph` produces for `arguments`, found by importing it
/// into a scratch block that is then thrown away.
std::optional<SmallVector<Type>> probeTypes(NodeContext &c,
                                            const onnx::GraphProto &graph,
                                            TypeRange argumentTypes) {
  OpBuilder &b = c.builder();
  OpBuilder::InsertionGuard guard(b);
  auto scratch = std::make_unique<Block>();
  for (Type type : argumentTypes)
    scratch->addArgument(type, c.loc);
  b.setInsertionPointToEnd(scratch.get());
  std::optional<SmallVector<Value>> outputs =
      importBody(c, graph, scratch->getArguments());
  std::optional<SmallVector<Type>> types;
  if (outputs)
    types = llvm::to_vector(ValueRange(*outputs).getTypes());
  // Erase in reverse order so that uses go before their definitions.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*scratch))) {
    op.dropAllUses();
    op.erase();
  }
  scratch->dropAllUses();
  return types;
}

LogicalResult convertIf(NodeContext &c) {
  Value condition = c.input(0);
  const onnx::GraphProto *thenGraph = c.getGraph("then_branch");
  const onnx::GraphProto *elseGraph = c.getGraph("else_branch");
  if (!condition || !thenGraph || !elseGraph)
    return failure();

  // A constant condition: the taken branch is all there is.
  if (auto known =
          dyn_cast_or_null<DenseElementsAttr>(c.constantValue(condition))) {
    bool taken = known.getNumElements() > 0 && known.getValues<APInt>()[0] != 0;
    std::optional<SmallVector<Value>> outputs =
        importBody(c, taken ? *thenGraph : *elseGraph, {});
    return outputs ? c.setOutputs(*outputs) : failure();
  }

  Value flag = scalarCondition(c, condition);
  if (!flag)
    return failure();
  OpBuilder &b = c.builder();
  // Import both branches into an scf.if without results, then rebuild it
  // with the joined result types.
  auto draft = scf::IfOp::create(b, c.loc, TypeRange{}, flag,
                                 /*withElseRegion=*/true);
  auto importInto =
      [&](Block &block,
          const onnx::GraphProto &graph) -> std::optional<SmallVector<Value>> {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(block.getTerminator());
    return importBody(c, graph, {});
  };
  std::optional<SmallVector<Value>> thenOut =
      importInto(draft.getThenRegion().front(), *thenGraph);
  std::optional<SmallVector<Value>> elseOut =
      thenOut ? importInto(draft.getElseRegion().front(), *elseGraph)
              : std::nullopt;
  if (!thenOut || !elseOut) {
    draft.erase();
    return failure();
  }
  if (thenOut->size() != elseOut->size()) {
    c.error() << "the branches have " << thenOut->size() << " and "
              << elseOut->size() << " outputs";
    draft.erase();
    return failure();
  }
  SmallVector<Type> types;
  for (auto [t, e] : llvm::zip_equal(*thenOut, *elseOut)) {
    RankedTensorType joined = join(t.getType(), e.getType());
    if (!joined) {
      c.error() << "the branches produce incompatible types " << t.getType()
                << " and " << e.getType();
      draft.erase();
      return failure();
    }
    types.push_back(joined);
  }
  auto result = scf::IfOp::create(b, c.loc, types, flag,
                                  /*withElseRegion=*/true);
  auto finish = [&](Region &to, Region &from, ArrayRef<Value> values) {
    to.takeBody(from);
    Block &block = to.front();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(block.getTerminator());
    SmallVector<Value> yielded;
    for (auto [value, type] : llvm::zip_equal(values, types))
      yielded.push_back(castTo(c, value, type));
    block.getTerminator()->erase();
    b.setInsertionPointToEnd(&block);
    scf::YieldOp::create(b, c.loc, yielded);
  };
  finish(result.getThenRegion(), draft.getThenRegion(), *thenOut);
  finish(result.getElseRegion(), draft.getElseRegion(), *elseOut);
  draft.erase();
  return c.setOutputs(SmallVector<Value>(result.getResults()));
}

LogicalResult convertLoop(NodeContext &c) {
  const onnx::GraphProto *body = c.getGraph("body");
  if (!body)
    return failure();
  OpBuilder &b = c.builder();
  Type i64 = b.getI64Type(), i1 = b.getI1Type();
  Value maxTrips = c.hasInput(0)
                       ? c.reshape(c.cast(c.input(0), i64), {})
                       : c.i64Scalar(std::numeric_limits<int64_t>::max());
  Value condition =
      c.hasInput(1) ? c.reshape(c.cast(c.input(1), i1), {}) : c.splat(i1, 1.0);
  SmallVector<Value> initial;
  for (size_t i = 2; i < c.numInputs(); ++i)
    initial.push_back(c.input(i));
  if (c.failed())
    return failure();
  size_t carried = initial.size();
  size_t bodyOutputs = body->output_size();
  if (bodyOutputs < carried + 1) {
    c.error() << "the body has " << bodyOutputs << " outputs for " << carried
              << " loop-carried values";
    return failure();
  }
  size_t scans = bodyOutputs - 1 - carried;

  // First pass: the body's output types for the initial types.
  SmallVector<Type> argumentTypes = {maxTrips.getType(), condition.getType()};
  for (Value v : initial)
    argumentTypes.push_back(v.getType());
  std::optional<SmallVector<Type>> outputTypes =
      probeTypes(c, *body, argumentTypes);
  if (!outputTypes)
    return failure();
  SmallVector<Type> carriedTypes;
  for (size_t i = 0; i < carried; ++i) {
    RankedTensorType joined = join(initial[i].getType(), (*outputTypes)[1 + i]);
    if (!joined) {
      c.error() << "loop-carried value " << i << " changes type from "
                << initial[i].getType() << " to " << (*outputTypes)[1 + i];
      return failure();
    }
    carriedTypes.push_back(joined);
  }
  // Scan outputs accumulate along a new leading dimension.
  SmallVector<RankedTensorType> scanTypes;
  SmallVector<Value> scanInitial;
  for (size_t k = 0; k < scans; ++k) {
    auto slice = dyn_cast<RankedTensorType>((*outputTypes)[1 + carried + k]);
    if (!slice || !slice.hasStaticShape()) {
      c.error() << "scan output " << k << " must have a static shape";
      return failure();
    }
    SmallVector<int64_t> shape = {ShapedType::kDynamic};
    llvm::append_range(shape, slice.getShape());
    scanTypes.push_back(RankedTensorType::get(shape, slice.getElementType()));
    SmallVector<int64_t> empty = {0};
    llvm::append_range(empty, slice.getShape());
    scanInitial.push_back(castTo(c, c.splat(slice.getElementType(), 0.0, empty),
                                 scanTypes.back()));
  }

  SmallVector<Value> operands = {c.i64Scalar(0), condition};
  SmallVector<Type> types = {operands[0].getType(), condition.getType()};
  for (size_t i = 0; i < carried; ++i) {
    operands.push_back(castTo(c, initial[i], carriedTypes[i]));
    types.push_back(carriedTypes[i]);
  }
  for (size_t k = 0; k < scans; ++k) {
    operands.push_back(scanInitial[k]);
    types.push_back(scanTypes[k]);
  }
  if (c.failed())
    return failure();

  auto loop = scf::WhileOp::create(b, c.loc, types, operands);
  SmallVector<Location> locations(types.size(), c.loc);
  Block *before = b.createBlock(&loop.getBefore(), {}, types, locations);
  {
    // Go on while iteration < M and the condition holds.
    b.setInsertionPointToEnd(before);
    Value below =
        c.compare(ComparePredicate::lt, before->getArgument(0), maxTrips);
    Value keep = scalarCondition(
        c, c.binary(BinaryKind::logical_and, below, before->getArgument(1)));
    if (!keep)
      return failure();
    scf::ConditionOp::create(b, c.loc, keep, before->getArguments());
  }
  Block *after = b.createBlock(&loop.getAfter(), {}, types, locations);
  {
    b.setInsertionPointToEnd(after);
    SmallVector<Value> arguments(after->getArguments().take_front(2 + carried));
    std::optional<SmallVector<Value>> outputs = importBody(c, *body, arguments);
    if (!outputs)
      return failure();
    SmallVector<Value> next = {
        c.binary(BinaryKind::add, after->getArgument(0), c.i64Scalar(1)),
        c.reshape(c.cast((*outputs)[0], i1), {})};
    for (size_t i = 0; i < carried; ++i)
      next.push_back(castTo(c, (*outputs)[1 + i], carriedTypes[i]));
    for (size_t k = 0; k < scans; ++k) {
      Value slice = (*outputs)[1 + carried + k];
      SmallVector<int64_t> shape = {1};
      llvm::append_range(shape, NodeContext::typeOf(slice).getShape());
      Value grown = c.concat(
          {after->getArgument(2 + carried + k), c.reshape(slice, shape)}, 0);
      next.push_back(castTo(c, grown, scanTypes[k]));
    }
    if (c.failed())
      return failure();
    scf::YieldOp::create(b, c.loc, next);
  }
  b.setInsertionPointAfter(loop);

  SmallVector<Value> results;
  for (size_t i = 0; i < carried + scans; ++i) {
    Value result = loop.getResult(2 + i);
    // Where the model declares a static shape, state it.
    if (std::optional<SmallVector<int64_t>> declared = c.declaredShape(i)) {
      auto type = cast<RankedTensorType>(result.getType());
      auto refined = RankedTensorType::get(*declared, type.getElementType());
      if (declared->size() == size_t(type.getRank()) &&
          succeeded(verifyCompatibleShape(refined, type)))
        result = castTo(c, result, refined);
    }
    results.push_back(result);
  }
  return c.setOutputs(results);
}

/// Scan from opset 9: unrolled over the sequence.
LogicalResult scanSequence(NodeContext &c, const onnx::GraphProto &body,
                           ArrayRef<Value> initial, ArrayRef<Value> inputs,
                           ArrayRef<int64_t> inputAxes,
                           ArrayRef<int64_t> inputReverse,
                           ArrayRef<int64_t> outputAxes,
                           ArrayRef<int64_t> outputReverse,
                           SmallVectorImpl<Value> &results) {
  if (inputs.empty()) {
    c.error() << "needs at least one scan input";
    return failure();
  }
  for (auto [j, input] : llvm::enumerate(inputs)) {
    RankedTensorType type = NodeContext::typeOf(input);
    if (!type)
      return c.fail(), failure();
    if (inputAxes[j] < 0 || inputAxes[j] >= type.getRank()) {
      c.error() << "scan input " << j << " has axis " << inputAxes[j]
                << ", outside its " << type.getRank() << " dimensions";
      return failure();
    }
  }
  RankedTensorType first = NodeContext::typeOf(inputs.front());
  if (first.isDynamicDim(inputAxes.front())) {
    c.error() << "the scanned dimension must be static";
    return failure();
  }
  int64_t length = first.getDimSize(inputAxes.front());
  SmallVector<Value> state(initial.begin(), initial.end());
  SmallVector<SmallVector<Value>> slices;
  for (int64_t t = 0; t < length && !c.failed(); ++t) {
    SmallVector<Value> arguments(state);
    for (auto [j, input] : llvm::enumerate(inputs)) {
      RankedTensorType type = NodeContext::typeOf(input);
      int64_t axis = inputAxes[j];
      if (!type || type.getDimSize(axis) != length) {
        c.error() << "scan inputs differ in length";
        return failure();
      }
      int64_t at = inputReverse[j] ? length - 1 - t : t;
      SmallVector<int64_t> starts(type.getRank(), 0), sizes(type.getShape()),
          steps(type.getRank(), 1);
      starts[axis] = at;
      sizes[axis] = 1;
      SmallVector<int64_t> dropped(type.getShape());
      dropped.erase(dropped.begin() + axis);
      arguments.push_back(
          c.reshape(c.slice(input, starts, sizes, steps), dropped));
    }
    std::optional<SmallVector<Value>> outputs = importBody(c, body, arguments);
    if (!outputs)
      return failure();
    if (outputs->size() < state.size()) {
      c.error() << "the body has too few outputs";
      return failure();
    }
    for (size_t i = 0; i < state.size(); ++i)
      state[i] = (*outputs)[i];
    slices.push_back(
        SmallVector<Value>(ArrayRef<Value>(*outputs).drop_front(state.size())));
  }
  results.assign(state.begin(), state.end());
  size_t scanOutputs = slices.empty() ? 0 : slices.front().size();
  for (size_t k = 0; k < scanOutputs; ++k) {
    SmallVector<Value> parts;
    int64_t axis = k < outputAxes.size() ? outputAxes[k] : 0;
    bool reverse = k < outputReverse.size() && outputReverse[k];
    for (int64_t t = 0; t < length; ++t) {
      Value slice = slices[reverse ? length - 1 - t : t][k];
      RankedTensorType type = NodeContext::typeOf(slice);
      if (!type)
        return c.fail(), failure();
      if (axis < 0)
        axis += type.getRank() + 1;
      if (axis < 0 || axis > type.getRank()) {
        c.error() << "scan output " << k << " has an axis outside its "
                  << type.getRank() + 1 << " dimensions";
        return failure();
      }
      SmallVector<int64_t> shape(type.getShape());
      shape.insert(shape.begin() + axis, 1);
      parts.push_back(c.reshape(slice, shape));
    }
    results.push_back(c.concat(parts, axis));
  }
  return success(!c.failed());
}

LogicalResult convertScan(NodeContext &c) {
  const onnx::GraphProto *body = c.getGraph("body");
  std::optional<int64_t> scanInputs = c.getOptionalInt("num_scan_inputs");
  if (!body || !scanInputs)
    return c.error() << "needs a body and num_scan_inputs", failure();
  bool legacy = c.opset < 9; // Batch dimension first, optional lengths.
  size_t first = legacy ? 1 : 0;
  if (legacy && c.hasInput(0)) {
    c.error() << "sequence_lens is not supported";
    return failure();
  }
  // At least one scan input, and no more than the node has (a fuzz
  // finding: a count past the inputs left none to scan).
  if (*scanInputs < 1 ||
      static_cast<uint64_t>(*scanInputs) > c.numInputs() - first)
    return c.error() << "num_scan_inputs is " << *scanInputs
                     << ", but the node has " << c.numInputs() - first
                     << " state and scan inputs (it needs at least one scan "
                        "input)",
           failure();
  size_t stateCount = c.numInputs() - first - *scanInputs;
  SmallVector<Value> initial, inputs;
  for (size_t i = first; i < c.numInputs(); ++i)
    (i < first + stateCount ? initial : inputs).push_back(c.input(i));
  if (c.failed())
    return failure();
  auto attr = [&](StringRef name, size_t count) {
    SmallVector<int64_t> values =
        c.getInts(name).value_or(SmallVector<int64_t>{});
    values.resize(std::max(values.size(), count), 0);
    return values;
  };
  SmallVector<int64_t> inputAxes = attr("scan_input_axes", inputs.size());
  SmallVector<int64_t> inputReverse =
      attr(legacy ? "directions" : "scan_input_directions", inputs.size());
  SmallVector<int64_t> outputAxes = attr("scan_output_axes", 0);
  SmallVector<int64_t> outputReverse = attr("scan_output_directions", 0);
  for (size_t j = 0; j < inputAxes.size() && j < inputs.size(); ++j) {
    RankedTensorType type = NodeContext::typeOf(inputs[j]);
    if (type && inputAxes[j] < 0)
      inputAxes[j] += type.getRank() - (legacy ? 1 : 0);
  }

  if (!legacy) {
    SmallVector<Value> results;
    if (failed(scanSequence(c, *body, initial, inputs, inputAxes, inputReverse,
                            outputAxes, outputReverse, results)))
      return failure();
    return c.setOutputs(results);
  }
  // Opset 8: the body runs per batch element.
  RankedTensorType firstType = NodeContext::typeOf(inputs.front());
  if (!firstType || firstType.getRank() == 0 || firstType.isDynamicDim(0))
    return c.error() << "the batch dimension must be static", failure();
  int64_t batch = firstType.getDimSize(0);
  auto rowOf = [&](Value v, int64_t i) {
    RankedTensorType type = NodeContext::typeOf(v);
    SmallVector<int64_t> starts(type.getRank(), 0), sizes(type.getShape()),
        steps(type.getRank(), 1);
    starts[0] = i;
    sizes[0] = 1;
    return c.reshape(c.slice(v, starts, sizes, steps),
                     type.getShape().drop_front());
  };
  SmallVector<SmallVector<Value>> perBatch;
  for (int64_t i = 0; i < batch && !c.failed(); ++i) {
    SmallVector<Value> rowInitial, rowInputs, results;
    for (Value v : initial)
      rowInitial.push_back(rowOf(v, i));
    for (Value v : inputs)
      rowInputs.push_back(rowOf(v, i));
    if (failed(scanSequence(c, *body, rowInitial, rowInputs, inputAxes,
                            inputReverse, outputAxes, outputReverse, results)))
      return failure();
    perBatch.push_back(results);
  }
  SmallVector<Value> stacked;
  for (size_t k = 0; !perBatch.empty() && k < perBatch.front().size(); ++k) {
    SmallVector<Value> parts;
    for (auto &results : perBatch) {
      RankedTensorType type = NodeContext::typeOf(results[k]);
      if (!type)
        return c.fail(), failure();
      SmallVector<int64_t> shape = {1};
      llvm::append_range(shape, type.getShape());
      parts.push_back(c.reshape(results[k], shape));
    }
    stacked.push_back(c.concat(parts, 0));
  }
  return c.setOutputs(stacked);
}

} // namespace

void registerControlFlowOps(OpTable &t) {
  t.add("If", 1, convertIf);
  t.add("Loop", 1, convertLoop);
  t.add("Scan", 8, convertScan);
}

} // namespace aicc::onnx_importer
