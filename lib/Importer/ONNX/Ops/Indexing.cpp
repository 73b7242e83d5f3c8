//===- Indexing.cpp - Gather, scatter, compress, non-zero, reverse --------===//

#include "../ImporterInternal.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

LogicalResult convertGather(NodeContext &c) {
  Value data = c.input(0);
  RankedTensorType type = NodeContext::typeOf(data);
  if (!type)
    return failure();
  std::optional<int64_t> axis =
      c.normalizeAxis(c.getInt("axis", 0), type.getRank());
  if (!axis)
    return failure();
  return c.setOutputs({c.gather(data, c.input(1), *axis)});
}

LogicalResult convertGatherElements(NodeContext &c) {
  Value data = c.input(0);
  RankedTensorType type = NodeContext::typeOf(data);
  if (!type)
    return failure();
  std::optional<int64_t> axis =
      c.normalizeAxis(c.getInt("axis", 0), type.getRank());
  if (!axis)
    return failure();
  GatherElementsOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(*axis));
  return c.setOutputs(
      {c.create<GatherElementsOp>({data, c.input(1)}, properties)});
}

LogicalResult convertGatherND(NodeContext &c) {
  GatherNdOp::Properties properties;
  properties.setBatchDims(
      c.builder().getI64IntegerAttr(c.getInt("batch_dims", 0)));
  return c.setOutputs(
      {c.create<GatherNdOp>({c.input(0), c.input(1)}, properties)});
}

std::optional<ScatterReduction> scatterReduction(NodeContext &c) {
  std::string name = c.getString("reduction", "none");
  if (name == "none")
    return ScatterReduction::none;
  if (name == "add")
    return ScatterReduction::add;
  if (name == "mul")
    return ScatterReduction::mul;
  if (name == "max")
    return ScatterReduction::max;
  if (name == "min")
    return ScatterReduction::min;
  c.error() << "unknown reduction '" << name << "'";
  return std::nullopt;
}

LogicalResult convertScatterElements(NodeContext &c) {
  Value data = c.input(0);
  RankedTensorType type = NodeContext::typeOf(data);
  std::optional<ScatterReduction> reduction = scatterReduction(c);
  if (!type || !reduction)
    return c.fail(), failure();
  std::optional<int64_t> axis =
      c.normalizeAxis(c.getInt("axis", 0), type.getRank());
  if (!axis)
    return failure();
  ScatterElementsOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(*axis));
  properties.setReduction(
      ScatterReductionAttr::get(c.getContext(), *reduction));
  return c.setOutputs({c.create<ScatterElementsOp>(
      {data, c.input(1), c.input(2)}, properties)});
}

LogicalResult convertScatterND(NodeContext &c) {
  std::optional<ScatterReduction> reduction = scatterReduction(c);
  if (!reduction)
    return failure();
  ScatterNdOp::Properties properties;
  properties.setReduction(
      ScatterReductionAttr::get(c.getContext(), *reduction));
  return c.setOutputs({c.create<ScatterNdOp>(
      {c.input(0), c.input(1), c.input(2)}, properties)});
}

/// The positions of the first `count` true entries of the 1-D boolean
/// `flags`, as a 1-D i64 tensor: position j is the number of entries whose
/// running count of trues is at most j.
Value truePositions(NodeContext &c, Value flags, int64_t count) {
  RankedTensorType type = NodeContext::typeOf(flags);
  if (!type || type.getRank() != 1 || type.isDynamicDim(0))
    return c.fail();
  int64_t n = type.getDimSize(0);
  Type i64 = c.builder().getI64Type();
  CumsumOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(0));
  Value running = c.create<CumsumOp>({c.cast(flags, i64)}, properties);
  Value below = c.compare(ComparePredicate::le, c.reshape(running, {1, n}),
                          c.reshape(c.iota(count), {count, 1}));
  return c.reduce(ReduceKind::sum, c.cast(below, i64), {1}, false);
}

LogicalResult convertCompress(NodeContext &c) {
  Value x = c.input(0), condition = c.input(1);
  RankedTensorType type = NodeContext::typeOf(x);
  RankedTensorType conditionType = NodeContext::typeOf(condition);
  if (!type || !conditionType)
    return failure();
  std::optional<int64_t> axisAttr = c.getOptionalInt("axis");
  if (!axisAttr) {
    std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
    if (!shape)
      return failure();
    x = c.reshape(x, {*checkedElementCount(*shape)});
    type = x ? NodeContext::typeOf(x) : RankedTensorType();
    if (!type)
      return c.fail(), failure();
  }
  std::optional<int64_t> axis =
      c.normalizeAxis(axisAttr.value_or(0), type.getRank());
  if (!axis)
    return c.fail(), failure();
  if (conditionType.getRank() != 1 || conditionType.isDynamicDim(0)) {
    c.error() << "condition must be a 1-D tensor of static length";
    return failure();
  }
  int64_t dim = type.getDimSize(*axis);
  int64_t length = conditionType.getDimSize(0);
  if (ShapedType::isDynamic(dim) || length > dim) {
    c.error() << "condition is longer than the dimension it selects from";
    return failure();
  }
  if (auto known =
          dyn_cast_or_null<DenseElementsAttr>(c.constantValue(condition))) {
    SmallVector<int64_t> positions;
    for (auto [i, flag] : llvm::enumerate(known.getValues<bool>()))
      if (flag)
        positions.push_back(i);
    return c.setOutputs({c.gather(x, c.i64Vector(positions), *axis)});
  }
  // The condition is run-time data; the declared output says how many
  // entries it selects.
  std::optional<SmallVector<int64_t>> out =
      c.requireDeclaredShape(0, "the condition");
  if (!out)
    return failure();
  if (static_cast<int64_t>(out->size()) != type.getRank()) {
    c.error() << "the declared output rank differs from the input's";
    return failure();
  }
  Value positions = truePositions(c, condition, (*out)[*axis]);
  return c.setOutputs({c.gather(x, positions, *axis)});
}

LogicalResult convertNonZero(NodeContext &c) {
  Value x = c.input(0);
  std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
  if (!shape)
    return failure();
  int64_t rank = shape->size();
  int64_t total = *checkedElementCount(*shape);
  Value flags = c.compare(ComparePredicate::ne, x, c.scalarLike(x, 0));
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * (*shape)[d + 1];

  // Constant input: the result is a constant too.
  if (auto known =
          dyn_cast_or_null<DenseElementsAttr>(c.constantValue(flags))) {
    SmallVector<int64_t> positions;
    for (auto [i, flag] : llvm::enumerate(known.getValues<bool>()))
      if (flag)
        positions.push_back(i);
    int64_t count = positions.size();
    SmallVector<int64_t> result(rank * count);
    for (int64_t d = 0; d < rank; ++d)
      for (int64_t j = 0; j < count; ++j)
        result[d * count + j] = (positions[j] / strides[d]) % (*shape)[d];
    return c.setOutputs({c.constant(DenseElementsAttr::get(
        RankedTensorType::get({rank, count}, c.builder().getI64Type()),
        ArrayRef<int64_t>(result)))});
  }
  std::optional<SmallVector<int64_t>> out =
      c.requireDeclaredShape(0, "the input's values");
  if (!out)
    return failure();
  if (out->size() != 2 || (*out)[0] != rank) {
    c.error() << "the declared output must have shape " << rank << "xN";
    return failure();
  }
  int64_t count = (*out)[1];
  Value positions = truePositions(c, c.reshape(flags, {total}), count);
  SmallVector<Value> rows;
  for (int64_t d = 0; d < rank; ++d) {
    Value index =
        c.binary(BinaryKind::mod,
                 c.binary(BinaryKind::div, positions, c.i64Scalar(strides[d])),
                 c.i64Scalar((*shape)[d]));
    rows.push_back(c.reshape(index, {1, count}));
  }
  return c.setOutputs({rank == 0 ? c.fail() : c.concat(rows, 0)});
}

LogicalResult convertReverseSequence(NodeContext &c) {
  Value x = c.input(0);
  std::optional<SmallVector<int64_t>> shape = c.staticShape(x, "the input");
  if (!shape)
    return failure();
  int64_t rank = shape->size();
  int64_t batchAxis = c.getInt("batch_axis", 1);
  int64_t timeAxis = c.getInt("time_axis", 0);
  if (rank < 2 || (batchAxis != 0 && batchAxis != 1) ||
      (timeAxis != 0 && timeAxis != 1) || batchAxis == timeAxis) {
    c.error() << "batch_axis and time_axis must be 0 and 1 in some order";
    return failure();
  }
  int64_t steps = (*shape)[timeAxis], batch = (*shape)[batchAxis];
  // Source time index: t < len ? len - 1 - t : t.
  SmallVector<int64_t> timeShape(rank, 1), batchShape(rank, 1);
  timeShape[timeAxis] = steps;
  batchShape[batchAxis] = batch;
  Value t = c.reshape(c.iota(steps), timeShape);
  Value lengths =
      c.reshape(c.cast(c.input(1), c.builder().getI64Type()), batchShape);
  Value reversed = c.binary(
      BinaryKind::sub, c.binary(BinaryKind::sub, lengths, c.i64Scalar(1)), t);
  Value source =
      c.select(c.compare(ComparePredicate::lt, t, lengths), reversed, t);
  GatherElementsOp::Properties properties;
  properties.setAxis(c.builder().getI64IntegerAttr(timeAxis));
  return c.setOutputs(
      {c.create<GatherElementsOp>({x, c.expand(source, *shape)}, properties)});
}

} // namespace

void registerIndexingOps(OpTable &t) {
  t.add("Gather", 1, convertGather);
  t.add("GatherElements", 11, convertGatherElements);
  t.add("GatherND", 11, convertGatherND);
  t.add("ScatterElements", 11, convertScatterElements);
  t.add("Scatter", 9, convertScatterElements);
  t.add("ScatterND", 11, convertScatterND);
  t.add("Compress", 9, convertCompress);
  t.add("NonZero", 9, convertNonZero);
  t.add("ReverseSequence", 10, convertReverseSequence);
}

} // namespace aicc::onnx_importer
