//===- ImporterInternal.h - Shared by the ONNX importer's files -*- C++ -*-===//
//
// The importer walks a graph node by node and hands each node to the
// converter registered for its (op type, opset). Converters see the node
// through a NodeContext, whose builders create tile ops with inferred result
// types, fold them when their operands are constants, and turn every problem
// into an error that names the node.
//
// Errors are sticky: once a builder fails (having reported why), it and every
// later builder of the same node return a null Value, so a converter is
// straight-line code that checks for failure once, in setOutputs().
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_IMPORTER_ONNX_IMPORTERINTERNAL_H
#define AICC_LIB_IMPORTER_ONNX_IMPORTERINTERNAL_H

#include "aicc/Importer/ONNXImporter.h"

#include "Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include "onnx/onnx_pb.h"

#include <functional>
#include <optional>
#include <string>

namespace aicc::onnx_importer {

using mlir::Value;

//===----------------------------------------------------------------------===//
// Types and tensors
//===----------------------------------------------------------------------===//

/// The MLIR element type of an ONNX TensorProto data type; null for types aicc
/// does not support (strings, complex numbers).
mlir::Type convertElementType(mlir::MLIRContext *context, int32_t dataType);

/// The ONNX name of a data type ("float", "int64", ...), for messages.
std::string dataTypeName(int32_t dataType);

/// Where the bytes of external tensors may be read from.
struct ExternalDataPolicy {
  /// The model's folder; empty forbids external data.
  std::string modelDir;
};

/// Converts a TensorProto into an elements attribute of its declared type,
/// reading external data under `policy`. `asResource` stores the data as a
/// blob (for weights) instead of a uniqued dense attribute. Sizes are checked
/// against the declared shape with overflow-checked arithmetic. Errors are
/// reported at `loc`.
mlir::FailureOr<mlir::ElementsAttr>
convertTensor(mlir::MLIRContext *context, mlir::Location loc,
              const onnx::TensorProto &tensor, const ExternalDataPolicy &policy,
              bool asResource);

/// The number of elements of `shape`, or failure when a dimension is negative
/// or the product overflows int64.
mlir::FailureOr<int64_t> checkedElementCount(llvm::ArrayRef<int64_t> shape);

//===----------------------------------------------------------------------===//
// The converter interface
//===----------------------------------------------------------------------===//

class GraphImporter;

/// One node under conversion.
class NodeContext {
public:
  NodeContext(GraphImporter &graph, const onnx::NodeProto &node, int64_t opset,
              mlir::Location loc);

  const onnx::NodeProto &node;
  const int64_t opset;
  const mlir::Location loc;

  mlir::OpBuilder &builder();
  mlir::MLIRContext *getContext();
  GraphImporter &graph() { return graphImporter; }
  const ONNXImportOptions &options() const;

  //--- Inputs and outputs -------------------------------------------------//

  size_t numInputs() const { return node.input_size(); }
  /// Whether input `i` is present (ONNX omits optional inputs with "").
  bool hasInput(size_t i) const;
  /// Input `i`, or a null Value (and an error) when it is absent.
  Value input(size_t i);
  /// Input `i` when present, else a null Value without an error.
  Value optionalInput(size_t i);
  size_t numOutputs() const { return node.output_size(); }
  bool hasOutput(size_t i) const;

  /// Binds the node's outputs in order (extra values are ignored, so a
  /// converter may compute optional outputs the node does not name). Fails
  /// when an earlier step failed or a named output has no value.
  mlir::LogicalResult setOutputs(llvm::ArrayRef<Value> values);

  //--- Attributes ---------------------------------------------------------//

  const onnx::AttributeProto *attribute(llvm::StringRef name) const;
  int64_t getInt(llvm::StringRef name, int64_t defaultValue);
  std::optional<int64_t> getOptionalInt(llvm::StringRef name);
  double getFloat(llvm::StringRef name, double defaultValue);
  std::string getString(llvm::StringRef name, llvm::StringRef defaultValue);
  /// A list attribute; std::nullopt when absent.
  std::optional<llvm::SmallVector<int64_t>> getInts(llvm::StringRef name);
  std::optional<llvm::SmallVector<double>> getFloats(llvm::StringRef name);
  std::optional<llvm::SmallVector<std::string>>
  getStrings(llvm::StringRef name);
  /// A graph attribute (If/Loop/Scan bodies), or null with an error.
  const onnx::GraphProto *getGraph(llvm::StringRef name);

  //--- Compile-time values ------------------------------------------------//

  /// The value of `value` when it is a constant or a weight, else null.
  mlir::ElementsAttr constantValue(Value value) const;
  /// The integers held by constant input `i`; an error when the input is not
  /// known at compile time. `what` names it in the message.
  std::optional<llvm::SmallVector<int64_t>> constantInts(size_t i,
                                                         llvm::StringRef what);
  std::optional<llvm::SmallVector<double>> constantFloats(size_t i,
                                                          llvm::StringRef what);

  //--- Building -----------------------------------------------------------//

  /// Creates an op with inferred result types, folds it when its operands are
  /// constants, verifies it, and returns its results. Null values (earlier
  /// failures) propagate.
  template <typename OpTy>
  llvm::SmallVector<Value>
  createMulti(mlir::ValueRange operands,
              const typename OpTy::Properties &properties = {}) {
    if (!ready(operands))
      return {};
    mlir::FailureOr<OpTy> op =
        tile::createInferred<OpTy>(builder(), loc, operands, properties);
    if (mlir::failed(op))
      return fail(), llvm::SmallVector<Value>{};
    return finishOp(*op);
  }
  template <typename OpTy>
  Value create(mlir::ValueRange operands,
               const typename OpTy::Properties &properties = {}) {
    llvm::SmallVector<Value> results = createMulti<OpTy>(operands, properties);
    return results.empty() ? Value() : results.front();
  }
  /// Creates an op whose result type cannot be inferred (reshape, expand,
  /// resize, cast), then folds and verifies it like create().
  template <typename OpTy>
  Value createTyped(mlir::Type resultType, mlir::ValueRange operands,
                    const typename OpTy::Properties &properties = {}) {
    if (!ready(operands) || !resultType)
      return fail();
    auto op = OpTy::create(builder(), loc, mlir::TypeRange{resultType},
                           operands, properties);
    llvm::SmallVector<Value> results = finishOp(op);
    return results.empty() ? Value() : results.front();
  }

  Value unary(tile::UnaryKind kind, Value x,
              std::optional<double> alpha = std::nullopt,
              std::optional<double> beta = std::nullopt);
  Value binary(tile::BinaryKind kind, Value lhs, Value rhs);
  Value compare(tile::ComparePredicate predicate, Value lhs, Value rhs);
  Value select(Value condition, Value onTrue, Value onFalse);
  Value cast(Value x, mlir::Type elementType);
  Value reshape(Value x, llvm::ArrayRef<int64_t> shape);
  Value expand(Value x, llvm::ArrayRef<int64_t> shape);
  Value transpose(Value x, llvm::ArrayRef<int64_t> permutation);
  Value matmul(Value lhs, Value rhs, bool transposeLhs = false,
               bool transposeRhs = false);
  Value reduce(tile::ReduceKind kind, Value x, llvm::ArrayRef<int64_t> axes,
               bool keepDims);
  Value slice(Value x, llvm::ArrayRef<int64_t> starts,
              llvm::ArrayRef<int64_t> sizes, llvm::ArrayRef<int64_t> steps);
  Value concat(mlir::ValueRange inputs, int64_t axis);
  Value gather(Value data, Value indices, int64_t axis);

  /// A constant tensor.
  Value constant(mlir::ElementsAttr value);
  /// A constant of `shape` (default: rank 0) and `elementType` filled with
  /// `value` (converted to the element type).
  Value splat(mlir::Type elementType, double value,
              llvm::ArrayRef<int64_t> shape = {});
  /// A rank-0 constant with `like`'s element type.
  Value scalarLike(Value like, double value);
  /// A 1-D i64 constant.
  Value i64Vector(llvm::ArrayRef<int64_t> values);
  /// A rank-0 i64 constant.
  Value i64Scalar(int64_t value);
  /// The 1-D i64 constant [0, 1, ..., n-1].
  Value iota(int64_t n);
  /// Element `i` of a 1-D tensor, as a rank-0 tensor.
  Value element(Value vector, int64_t i);

  /// The integers of constant input `i`, or std::nullopt (without an error)
  /// when the input is absent or only known at run time.
  std::optional<llvm::SmallVector<int64_t>> knownInts(size_t i);

  /// The shape the model declares for output `i` (graph outputs and
  /// value_info), when it declares every dimension. Used only where an
  /// output's shape depends on input values the compiler cannot see.
  std::optional<llvm::SmallVector<int64_t>> declaredShape(size_t i) const;
  /// As declaredShape(), or an error saying why the shape is needed.
  std::optional<llvm::SmallVector<int64_t>>
  requireDeclaredShape(size_t i, llvm::StringRef because);

  //--- Shapes and errors --------------------------------------------------//

  static mlir::RankedTensorType typeOf(Value value);
  /// The static shape of `value`, its element count known to fit in 64
  /// bits, or an error naming `what`.
  std::optional<llvm::SmallVector<int64_t>> staticShape(Value value,
                                                        llvm::StringRef what);
  /// Maps an ONNX axis (negative counts from the end) into [0, rank), or
  /// reports an error.
  std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                       llvm::StringRef what = "axis");

  /// Reports an error at the node and marks the node failed.
  mlir::InFlightDiagnostic error();
  bool failed() const { return hasFailed; }
  /// Marks the node failed without a message (one was already reported) and
  /// returns a null Value for convenience.
  Value fail() {
    hasFailed = true;
    return Value();
  }

private:
  bool ready(mlir::ValueRange operands);
  llvm::SmallVector<Value> finishOp(mlir::Operation *op);

  GraphImporter &graphImporter;
  bool hasFailed = false;
};

/// Converts one node. Outputs are bound through NodeContext::setOutputs.
using Converter = std::function<mlir::LogicalResult(NodeContext &)>;

/// The domain of ONNX Runtime's contributed operators.
constexpr llvm::StringLiteral kMicrosoftDomain = "com.microsoft";

/// Whether `domain` names the default ONNX operator set.
inline bool isDefaultDomain(llvm::StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}

/// The opset-aware table: for each operator of a domain, conversions by the
/// version of the domain's operator set that introduced the semantics they
/// implement.
class OpTable {
public:
  /// Registers `converter` for `opType` of the default domain from opset
  /// `sinceVersion` on (until the next registration of the same operator).
  void add(llvm::StringRef opType, int sinceVersion, Converter converter) {
    add("", opType, sinceVersion, std::move(converter));
  }
  /// As above, for an operator of `domain`.
  void add(llvm::StringRef domain, llvm::StringRef opType, int sinceVersion,
           Converter converter);
  /// The converter for `opType` of `domain` in a model importing `version`
  /// of that domain, or null.
  const Converter *lookup(llvm::StringRef domain, llvm::StringRef opType,
                          int64_t version) const;
  /// The first version any conversion of `opType` covers, or 0 when unknown.
  int firstVersion(llvm::StringRef domain, llvm::StringRef opType) const;
  /// Whether any operator of `domain` is registered.
  bool knowsDomain(llvm::StringRef domain) const;
  void print(llvm::raw_ostream &os) const;

  static const OpTable &get();

private:
  struct Entry {
    int sinceVersion;
    Converter converter;
  };
  /// Keyed by "opType" for the default domain, "domain.opType" otherwise.
  llvm::StringMap<llvm::SmallVector<Entry, 2>> entries;
  llvm::StringSet<> domains;
};

//===----------------------------------------------------------------------===//
// Builders shared by op families
//===----------------------------------------------------------------------===//

/// Whether `value` is known at compile time to hold only zeros (an
/// integer zero point of 0, say).
bool isZeroConstant(NodeContext &c, Value value);

/// ONNX MatMul with numpy's 1-D rules: a 1-D left operand is a row, a 1-D
/// right operand a column, and the added dimension is removed afterwards.
Value numpyMatmul(NodeContext &c, Value lhs, Value rhs);

/// Gemm of the node's inputs: alpha * op(A) @ op(B) + beta * C, with its
/// transA, transB, alpha and beta attributes.
Value buildGemm(NodeContext &c);

/// A MaxPool, AveragePool or LpPool of `x` with the node's window
/// attributes (kernel_shape, strides, pads, auto_pad, dilations,
/// ceil_mode, count_include_pad, p).
Value buildPool(NodeContext &c, Value x, tile::PoolKind kind);

/// Softmax-like `along(input, dim)` of `x` at `axis`: along the axis, or,
/// with `legacy` (the semantics before opset 13), on the rows of `x`
/// flattened to 2-D at the axis.
Value alongSoftmaxAxis(NodeContext &c, Value x, int64_t axis, bool legacy,
                       llvm::function_ref<Value(Value, int64_t)> along);

/// Registration, one function per op family (Ops/*.cpp).
void registerElementwiseOps(OpTable &table);
void registerMatrixOps(OpTable &table);
void registerNNOps(OpTable &table);
void registerReductionOps(OpTable &table);
void registerShapeOps(OpTable &table);
void registerIndexingOps(OpTable &table);
void registerControlFlowOps(OpTable &table);
void registerQuantizationOps(OpTable &table);
/// com.microsoft's quantized operators (QLinearAdd, QGemm, MatMulNBits...).
void registerMicrosoftQuantizationOps(OpTable &table);
/// com.microsoft's fused float operators (FusedMatMul, Gelu, ...).
void registerMicrosoftFusionOps(OpTable &table);
void registerRecurrentOps(OpTable &table);
void registerSignalOps(OpTable &table);
void registerLossOps(OpTable &table);

/// The highest default-domain opset the importer knows.
constexpr int64_t kMaxOpset = 21;

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

class ModelImporter;

/// Imports one graph (the main graph or a subgraph) into the current
/// insertion point, resolving names through its own scope and then the
/// scopes of the graphs that enclose it.
class GraphImporter {
public:
  GraphImporter(ModelImporter &model, GraphImporter *parent, int depth);

  /// Binds `name` in this graph's scope.
  void bind(llvm::StringRef name, Value value) { values[name] = value; }
  /// The value `name` denotes here or in an enclosing graph, or null.
  Value lookup(llvm::StringRef name) const;

  /// Converts the initializers and nodes of `graph` at the builder's
  /// insertion point. Inputs must already be bound.
  mlir::LogicalResult importBody(const onnx::GraphProto &graph);

  /// Imports `graph` as the body of a region: binds its inputs to
  /// `arguments` (in order), converts it, and returns its outputs.
  std::optional<llvm::SmallVector<Value>>
  importSubgraph(const onnx::GraphProto &graph, mlir::ValueRange arguments,
                 mlir::Location loc);

  ModelImporter &model;
  GraphImporter *const parent;
  const int depth;

private:
  mlir::LogicalResult importInitializers(const onnx::GraphProto &graph);
  mlir::LogicalResult importNode(const onnx::NodeProto &node, size_t index);

  llvm::StringMap<Value> values;
};

/// State shared by every graph of one model.
class ModelImporter {
public:
  ModelImporter(mlir::MLIRContext &context, const ONNXImportOptions &options,
                ExternalDataPolicy policy, std::string displayName);

  mlir::OwningOpRef<mlir::ModuleOp> importModel(const onnx::ModelProto &model);

  /// The location of a node of a graph.
  mlir::Location nodeLocation(const onnx::NodeProto &node, size_t index);

  mlir::MLIRContext &context;
  mlir::OpBuilder builder;
  const ONNXImportOptions &options;
  const ExternalDataPolicy policy;
  const std::string displayName;
  int64_t opset = 0;
  /// The versions of the other operator sets the model imports, by domain.
  llvm::StringMap<int64_t> domainVersions;
  /// The version of `domain`'s operator set the model imports, 0 if none.
  int64_t domainVersion(llvm::StringRef domain) const {
    return isDefaultDomain(domain) ? opset : domainVersions.lookup(domain);
  }

  /// The node whose conversion is under way (innermost), for messages.
  std::string currentNode;

  /// Operations created so far, against options.maxOperations.
  int64_t operations = 0;

  /// Steps unrolled so far by the recurrent layers (RNN, GRU, LSTM), each
  /// direction counted, against their model-wide limit.
  int64_t unrolledSteps = 0;

  /// The types the model declares for named values (graph inputs, outputs
  /// and value_info, subgraphs included).
  llvm::StringMap<const onnx::TypeProto *> declaredTypes;

private:
  mlir::LogicalResult checkOperators(const onnx::GraphProto &graph);
  void collectDeclaredTypes(const onnx::GraphProto &graph);
};

} // namespace aicc::onnx_importer

#endif // AICC_LIB_IMPORTER_ONNX_IMPORTERINTERNAL_H
