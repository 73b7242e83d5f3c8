//===- Reduction.cpp - Reduce*, ArgMax/ArgMin, CumSum, TopK ---------------===//

#include "../ImporterInternal.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// What ReduceX with noop_with_empty_axes and no axes returns: the input,
/// transformed element-wise as the ONNX reference does.
Value noopReduction(NodeContext &c, ReduceKind kind, Value x) {
  switch (kind) {
  case ReduceKind::sum_square:
    return c.binary(BinaryKind::mul, x, x);
  case ReduceKind::l1:
  case ReduceKind::l2:
    return c.unary(UnaryKind::abs, x);
  case ReduceKind::log_sum:
    return c.unary(UnaryKind::log, x);
  default:
    return x;
  }
}

/// `axes` normalized into [0, rank), at run time.
Value normalizedAxes(NodeContext &c, Value axes, int64_t rank) {
  Value wide = c.cast(axes, c.builder().getI64Type());
  return c.select(c.compare(ComparePredicate::lt, wide, c.i64Scalar(0)),
                  c.binary(BinaryKind::add, wide, c.i64Scalar(rank)), wide);
}

/// Whether dimension `d` is among the run-time `axes` (an i1 scalar).
Value axisSelected(NodeContext &c, Value axes, int64_t d) {
  Value hits = c.cast(c.compare(ComparePredicate::eq, axes, c.i64Scalar(d)),
                      c.builder().getI64Type());
  return c.compare(ComparePredicate::ne,
                   c.reduce(ReduceKind::max, hits, {0}, false), c.i64Scalar(0));
}

/// ReduceX over axes known only at run time. The declared output shape
/// narrows the axes down to a few candidate sets; each is reduced statically
/// and the run-time axes choose among them.
LogicalResult runtimeReduce(NodeContext &c, ReduceKind kind, Value x,
                            bool keepDims) {
  RankedTensorType type = NodeContext::typeOf(x);
  Value axes = c.input(1);
  RankedTensorType axesType = NodeContext::typeOf(axes);
  std::optional<SmallVector<int64_t>> out = c.requireDeclaredShape(0, "axes");
  if (!type || !axesType || !out || !type.hasStaticShape())
    return c.error() << "run-time axes need a static input shape", failure();
  if (axesType.getRank() != 1)
    return c.error() << "axes (input 1) must be 1-D, not of rank "
                     << axesType.getRank(),
           failure();
  int64_t rank = type.getRank();
  ArrayRef<int64_t> in = type.getShape();
  SmallVector<SmallVector<int64_t>> candidates;
  for (uint64_t bits = 1; bits < (uint64_t(1) << rank); ++bits) {
    SmallVector<int64_t> set, shape;
    for (int64_t d = 0; d < rank; ++d) {
      if (bits & (uint64_t(1) << d)) {
        set.push_back(d);
        if (keepDims)
          shape.push_back(1);
      } else {
        shape.push_back(in[d]);
      }
    }
    if (shape != ArrayRef<int64_t>(*out))
      continue;
    if (!axesType.isDynamicDim(0) &&
        axesType.getDimSize(0) != static_cast<int64_t>(set.size()))
      continue;
    candidates.push_back(set);
  }
  if (candidates.empty()) {
    c.error() << "no set of axes turns " << in << " into the declared " << *out;
    return failure();
  }
  Value normalized = normalizedAxes(c, axes, rank);
  Value result = c.reduce(kind, x, candidates.back(), keepDims);
  for (size_t i = candidates.size() - 1; i-- > 0;) {
    Value matches;
    for (int64_t d = 0; d < rank; ++d) {
      Value selected = axisSelected(c, normalized, d);
      if (!llvm::is_contained(candidates[i], d))
        selected = c.unary(UnaryKind::logical_not, selected);
      matches = matches ? c.binary(BinaryKind::logical_and, matches, selected)
                        : selected;
    }
    result =
        c.select(matches, c.reduce(kind, x, candidates[i], keepDims), result);
  }
  return c.setOutputs({result});
}

/// ReduceX: `axes` moved from an attribute to an input at `inputSince`.
Converter reduceConverter(ReduceKind kind, int64_t inputSince) {
  return [=](NodeContext &c) -> LogicalResult {
    Value x = c.input(0);
    RankedTensorType type = NodeContext::typeOf(x);
    if (!type)
      return failure();
    std::optional<SmallVector<int64_t>> axes;
    bool keepDims = c.getInt("keepdims", 1) != 0;
    if (c.opset < inputSince) {
      axes = c.getInts("axes");
    } else if (c.hasInput(1)) {
      axes = c.knownInts(1);
      RankedTensorType axesType = NodeContext::typeOf(c.input(1));
      bool empty = axesType && axesType.hasStaticShape() &&
                   axesType.getNumElements() == 0;
      if (!axes && empty)
        axes = SmallVector<int64_t>{};
      if (!axes && !c.failed())
        return runtimeReduce(c, kind, x, keepDims);
    }
    if (c.failed())
      return failure();
    if (!axes || axes->empty()) {
      if (c.opset >= inputSince && c.getInt("noop_with_empty_axes", 0))
        return c.setOutputs({noopReduction(c, kind, x)});
      axes = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    }
    SmallVector<int64_t> normalized;
    for (int64_t axis : *axes) {
      std::optional<int64_t> d = c.normalizeAxis(axis, type.getRank());
      if (!d)
        return failure();
      normalized.push_back(*d);
    }
    llvm::sort(normalized);
    normalized.erase(llvm::unique(normalized), normalized.end());
    if (normalized.empty()) // A rank-0 input: nothing to reduce.
      return c.setOutputs({noopReduction(c, kind, x)});
    return c.setOutputs({c.reduce(kind, x, normalized, keepDims)});
  };
}

Converter argConverter(ArgKind kind) {
  return [kind](NodeContext &c) -> LogicalResult {
    Value x = c.input(0);
    RankedTensorType type = NodeContext::typeOf(x);
    if (!type)
      return failure();
    std::optional<int64_t> axis =
        c.normalizeAxis(c.getInt("axis", 0), type.getRank());
    if (!axis)
      return failure();
    ArgReduceOp::Properties properties;
    properties.setKind(ArgKindAttr::get(c.getContext(), kind));
    properties.setAxis(c.builder().getI64IntegerAttr(*axis));
    if (c.getInt("keepdims", 1))
      properties.setKeepDims(c.builder().getUnitAttr());
    if (c.opset >= 12 && c.getInt("select_last_index", 0))
      properties.setSelectLastIndex(c.builder().getUnitAttr());
    return c.setOutputs({c.create<ArgReduceOp>({x}, properties)});
  };
}

LogicalResult convertCumSum(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  auto build = [&](int64_t axis) {
    CumsumOp::Properties properties;
    properties.setAxis(c.builder().getI64IntegerAttr(axis));
    if (c.getInt("exclusive", 0))
      properties.setExclusive(c.builder().getUnitAttr());
    if (c.getInt("reverse", 0))
      properties.setReverse(c.builder().getUnitAttr());
    return c.create<CumsumOp>({x}, properties);
  };
  std::optional<SmallVector<int64_t>> axes = c.knownInts(1);
  if (!axes && !c.failed()) {
    // The axis is run-time data: sum along every axis and let it choose.
    int64_t rank = type.getRank();
    if (rank == 0) {
      c.error() << "input must have rank 1 or more";
      return failure();
    }
    Value axis = c.reshape(normalizedAxes(c, c.input(1), rank), {});
    Value result = build(rank - 1);
    for (int64_t d = rank - 1; d-- > 0;)
      result = c.select(c.compare(ComparePredicate::eq, axis, c.i64Scalar(d)),
                        build(d), result);
    return c.setOutputs({result});
  }
  if (!axes)
    return failure();
  if (axes->size() != 1) {
    c.error() << "axis must hold one value";
    return failure();
  }
  std::optional<int64_t> axis = c.normalizeAxis((*axes)[0], type.getRank());
  if (!axis)
    return failure();
  return c.setOutputs({build(*axis)});
}

LogicalResult convertTopK(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  int64_t k;
  if (c.opset < 10) {
    std::optional<int64_t> attr = c.getOptionalInt("k");
    if (!attr) {
      c.error() << "attribute 'k' is required";
      return failure();
    }
    k = *attr;
  } else {
    std::optional<SmallVector<int64_t>> values = c.knownInts(1);
    if (!values && !c.failed()) {
      // K is run-time data; the declared shape of the values gives it.
      std::optional<SmallVector<int64_t>> out = c.requireDeclaredShape(0, "K");
      std::optional<int64_t> at =
          out ? c.normalizeAxis(c.getInt("axis", -1), type.getRank())
              : std::nullopt;
      if (!at || static_cast<int64_t>(out->size()) != type.getRank())
        return c.fail(), failure();
      values = SmallVector<int64_t>{(*out)[*at]};
    }
    if (!values)
      return failure();
    if (values->size() != 1) {
      c.error() << "K must hold one value";
      return failure();
    }
    k = (*values)[0];
  }
  std::optional<int64_t> axis =
      c.normalizeAxis(c.getInt("axis", -1), type.getRank());
  if (!axis)
    return failure();
  TopKOp::Properties properties;
  properties.setK(c.builder().getI64IntegerAttr(k));
  properties.setAxis(c.builder().getI64IntegerAttr(*axis));
  if (c.opset >= 11) {
    properties.setLargest(c.builder().getBoolAttr(c.getInt("largest", 1)));
    properties.setSorted(c.builder().getBoolAttr(c.getInt("sorted", 1)));
  } else {
    properties.setLargest(c.builder().getBoolAttr(true));
    properties.setSorted(c.builder().getBoolAttr(true));
  }
  return c.setOutputs(c.createMulti<TopKOp>({x}, properties));
}

} // namespace

void registerReductionOps(OpTable &t) {
  static const std::tuple<const char *, ReduceKind, int64_t> reductions[] = {
      {"ReduceSum", ReduceKind::sum, 13},
      {"ReduceMean", ReduceKind::mean, 18},
      {"ReduceMax", ReduceKind::max, 18},
      {"ReduceMin", ReduceKind::min, 18},
      {"ReduceProd", ReduceKind::prod, 18},
      {"ReduceL1", ReduceKind::l1, 18},
      {"ReduceL2", ReduceKind::l2, 18},
      {"ReduceLogSum", ReduceKind::log_sum, 18},
      {"ReduceLogSumExp", ReduceKind::log_sum_exp, 18},
      {"ReduceSumSquare", ReduceKind::sum_square, 18}};
  for (const auto &[name, kind, inputSince] : reductions)
    t.add(name, 1, reduceConverter(kind, inputSince));
  t.add("ArgMax", 1, argConverter(ArgKind::max));
  t.add("ArgMin", 1, argConverter(ArgKind::min));
  t.add("CumSum", 11, convertCumSum);
  t.add("TopK", 1, convertTopK);
}

} // namespace aicc::onnx_importer
