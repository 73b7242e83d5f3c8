//===- Importer.cpp - ONNX models and graphs into the tile dialect --------===//

#include "ImporterInternal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <google/protobuf/io/coded_stream.h>

#include <queue>

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {

/// The oldest and newest IR versions the importer reads.
constexpr int64_t kMinIrVersion = 3;
constexpr int64_t kMaxIrVersion = 11;

/// "node 'name' (Op, opset N)", or "node #index (Op, opset N)" when unnamed.
static std::string describeNode(const onnx::NodeProto &node, size_t index,
                                int64_t opset) {
  std::string text = node.name().empty() ? "node #" + std::to_string(index)
                                         : "node '" + node.name() + "'";
  return text + " (" + node.op_type() + ", opset " + std::to_string(opset) +
         ")";
}

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

GraphImporter::GraphImporter(ModelImporter &model, GraphImporter *parent,
                             int depth)
    : model(model), parent(parent), depth(depth) {}

Value GraphImporter::lookup(StringRef name) const {
  for (const GraphImporter *scope = this; scope; scope = scope->parent) {
    auto it = scope->values.find(name);
    if (it != scope->values.end())
      return it->second;
  }
  return Value();
}

LogicalResult GraphImporter::importInitializers(const onnx::GraphProto &graph) {
  if (graph.sparse_initializer_size() > 0)
    return emitError(UnknownLoc::get(&model.context))
           << "sparse initializer '"
           << graph.sparse_initializer(0).values().name()
           << "' is not supported";
  OpBuilder &builder = model.builder;
  for (const onnx::TensorProto &tensor : graph.initializer()) {
    Location loc = NameLoc::get(builder.getStringAttr(tensor.name()));
    SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
    FailureOr<int64_t> count = checkedElementCount(shape);
    bool isWeight =
        succeeded(count) && *count > model.options.constantElementLimit;
    FailureOr<ElementsAttr> value =
        convertTensor(&model.context, loc, tensor, model.policy, isWeight);
    if (failed(value))
      return failure();
    Value result;
    if (isWeight)
      result = WeightOp::create(
          builder, loc, tensor.name().empty() ? "weight" : tensor.name(),
          *value);
    else
      result = ConstantOp::create(builder, loc, *value);
    bind(tensor.name(), result);
  }
  return success();
}

/// Names a node reads, including those its subgraphs read from enclosing
/// scopes (an If branch may use a value of the graph that holds the If).
static void collectReads(const onnx::NodeProto &node,
                         llvm::StringSet<> &reads) {
  for (const std::string &input : node.input())
    if (!input.empty())
      reads.insert(input);
  for (const onnx::AttributeProto &attr : node.attribute()) {
    SmallVector<const onnx::GraphProto *> graphs;
    if (attr.has_g())
      graphs.push_back(&attr.g());
    for (const onnx::GraphProto &g : attr.graphs())
      graphs.push_back(&g);
    for (const onnx::GraphProto *graph : graphs) {
      llvm::StringSet<> inner, defined;
      for (const onnx::ValueInfoProto &input : graph->input())
        defined.insert(input.name());
      for (const onnx::TensorProto &init : graph->initializer())
        defined.insert(init.name());
      for (const onnx::NodeProto &n : graph->node()) {
        collectReads(n, inner);
        for (const std::string &output : n.output())
          defined.insert(output);
      }
      for (const onnx::ValueInfoProto &output : graph->output())
        inner.insert(output.name());
      for (const auto &name : inner)
        if (!defined.contains(name.getKey()))
          reads.insert(name.getKey());
    }
  }
}

/// Checks that `graph` defines every name once (ONNX graphs are in SSA
/// form): its inputs, its initializers (an input may share its name with
/// an initializer, which gives it a default) and its nodes' outputs.
static LogicalResult checkSingleDefinitions(const onnx::GraphProto &graph,
                                            ModelImporter &model) {
  Location loc = FileLineColLoc::get(&model.context, model.displayName, 0, 0);
  llvm::StringMap<std::string> definedBy;
  auto define = [&](StringRef name, std::string what,
                    Location at) -> LogicalResult {
    auto [it, inserted] = definedBy.try_emplace(name, what);
    if (inserted)
      return success();
    return emitError(at) << "'" << name << "' is defined twice, by "
                         << it->second << " and by " << what
                         << "; an ONNX graph defines each name once";
  };
  for (const onnx::ValueInfoProto &input : graph.input())
    if (failed(define(input.name(), "an input of graph '" + graph.name() + "'",
                      loc)))
      return failure();
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &tensor : graph.initializer()) {
    if (!initializers.insert(tensor.name()).second)
      return emitError(loc)
             << "initializer '" << tensor.name()
             << "' is defined twice in graph '" << graph.name() << "'";
    // An input of the same name: the initializer is its default.
    if (!definedBy.contains(tensor.name()) &&
        failed(define(tensor.name(), "an initializer", loc)))
      return failure();
  }
  for (int i = 0, e = graph.node_size(); i < e; ++i) {
    const onnx::NodeProto &node = graph.node(i);
    for (const std::string &output : node.output())
      if (!output.empty() &&
          failed(define(output, describeNode(node, i, model.opset),
                        model.nodeLocation(node, i))))
        return failure();
  }
  return success();
}

LogicalResult GraphImporter::importBody(const onnx::GraphProto &graph) {
  if (failed(checkSingleDefinitions(graph, model)))
    return failure();
  if (failed(importInitializers(graph)))
    return failure();

  // Order the nodes topologically, keeping the file's order where it already
  // is one. A name no node defines and no scope knows is an error, and so is
  // a cycle.
  size_t count = graph.node_size();
  llvm::StringMap<size_t> producer;
  for (size_t i = 0; i < count; ++i)
    for (const std::string &output : graph.node(i).output())
      if (!output.empty())
        producer.try_emplace(output, i);

  std::vector<SmallVector<size_t>> users(count);
  std::vector<size_t> waiting(count, 0);
  for (size_t i = 0; i < count; ++i) {
    const onnx::NodeProto &node = graph.node(i);
    llvm::StringSet<> reads;
    collectReads(node, reads);
    for (const auto &entry : reads) {
      StringRef name = entry.getKey();
      auto it = producer.find(name);
      if (it != producer.end() && !lookup(name)) {
        users[it->second].push_back(i);
        ++waiting[i];
        continue;
      }
      if (!lookup(name))
        return emitError(model.nodeLocation(node, i))
               << describeNode(node, i, model.opset) << ": reads '" << name
               << "', which no node, initializer or graph input defines";
    }
  }

  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < count; ++i)
    if (waiting[i] == 0)
      ready.push(i);
  size_t converted = 0;
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    if (failed(importNode(graph.node(i), i)))
      return failure();
    ++converted;
    for (size_t user : users[i])
      if (--waiting[user] == 0)
        ready.push(user);
  }
  if (converted != count) {
    for (size_t i = 0; i < count; ++i)
      if (waiting[i] != 0)
        return emitError(model.nodeLocation(graph.node(i), i))
               << describeNode(graph.node(i), i, model.opset)
               << ": the graph has a cycle through this node";
  }
  return success();
}

LogicalResult GraphImporter::importNode(const onnx::NodeProto &node,
                                        size_t index) {
  const Converter *converter = OpTable::get().lookup(
      node.domain(), node.op_type(), model.domainVersion(node.domain()));
  Location loc = model.nodeLocation(node, index);
  if (!converter) // checkOperators reported it already.
    return failure();

  std::string saved = model.currentNode;
  model.currentNode = describeNode(node, index, model.opset);
  auto restore = llvm::make_scope_exit([&] { model.currentNode = saved; });

  NodeContext context(*this, node, model.opset, loc);
  if (failed((*converter)(context)) || context.failed()) {
    if (!context.failed())
      emitError(loc) << "conversion failed";
    return failure();
  }
  return success();
}

std::optional<SmallVector<Value>>
GraphImporter::importSubgraph(const onnx::GraphProto &graph,
                              ValueRange arguments, Location loc) {
  if (depth + 1 > model.options.maxSubgraphDepth) {
    emitError(loc) << "subgraphs nest deeper than "
                   << model.options.maxSubgraphDepth << " levels";
    return std::nullopt;
  }
  if (static_cast<size_t>(graph.input_size()) != arguments.size()) {
    emitError(loc) << "subgraph '" << graph.name() << "' has "
                   << graph.input_size() << " inputs, expected "
                   << arguments.size();
    return std::nullopt;
  }
  GraphImporter inner(model, this, depth + 1);
  for (auto [input, argument] : llvm::zip_equal(graph.input(), arguments))
    inner.bind(input.name(), argument);
  if (failed(inner.importBody(graph)))
    return std::nullopt;
  SmallVector<Value> outputs;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    Value value = inner.lookup(output.name());
    if (!value) {
      emitError(loc) << "subgraph output '" << output.name()
                     << "' is not defined";
      return std::nullopt;
    }
    outputs.push_back(value);
  }
  return outputs;
}

//===----------------------------------------------------------------------===//
// ModelImporter
//===----------------------------------------------------------------------===//

ModelImporter::ModelImporter(MLIRContext &context,
                             const ONNXImportOptions &options,
                             ExternalDataPolicy policy, std::string displayName)
    : context(context), builder(&context), options(options),
      policy(std::move(policy)), displayName(std::move(displayName)) {}

Location ModelImporter::nodeLocation(const onnx::NodeProto &node,
                                     size_t index) {
  std::string name = node.name().empty()
                         ? node.op_type() + "#" + std::to_string(index)
                         : node.name();
  return NameLoc::get(builder.getStringAttr(name),
                      FileLineColLoc::get(&context, displayName, 0, 0));
}

void ModelImporter::collectDeclaredTypes(const onnx::GraphProto &graph) {
  auto record = [&](const onnx::ValueInfoProto &info) {
    if (info.has_type())
      declaredTypes[info.name()] = &info.type();
  };
  llvm::for_each(graph.input(), record);
  llvm::for_each(graph.output(), record);
  llvm::for_each(graph.value_info(), record);
  for (const onnx::NodeProto &node : graph.node())
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g())
        collectDeclaredTypes(attr.g());
      for (const onnx::GraphProto &g : attr.graphs())
        collectDeclaredTypes(g);
    }
}

LogicalResult ModelImporter::checkOperators(const onnx::GraphProto &graph) {
  bool ok = true;
  const OpTable &table = OpTable::get();
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    Location loc = nodeLocation(node, i);
    std::string what = describeNode(node, i, opset);
    StringRef domain = node.domain();
    int64_t version = domainVersion(domain);
    if (!table.knowsDomain(domain)) {
      emitError(loc) << what << ": operator domain '" << domain
                     << "' is not supported (aicc reads the default ONNX "
                        "domain and the quantization operators of '"
                     << kMicrosoftDomain << "')";
      ok = false;
    } else if (version <= 0) {
      emitError(loc) << what << ": the model does not import the operator "
                     << "set of domain '" << domain << "'";
      ok = false;
    } else if (!table.lookup(domain, node.op_type(), version)) {
      int first = table.firstVersion(domain, node.op_type());
      if (first == 0)
        emitError(loc) << what << ": operator '" << node.op_type() << "'"
                       << (isDefaultDomain(domain)
                               ? std::string()
                               : " of domain '" + domain.str() + "'")
                       << " is not supported";
      else
        emitError(loc) << what << ": operator '" << node.op_type()
                       << "' is supported from opset " << first;
      ok = false;
    }
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g() && failed(checkOperators(attr.g())))
        ok = false;
      for (const onnx::GraphProto &g : attr.graphs())
        if (failed(checkOperators(g)))
          ok = false;
    }
  }
  return success(ok);
}

/// The type of a graph input, with `pinned` overriding its dimensions.
static FailureOr<RankedTensorType>
inputType(MLIRContext &context, const onnx::ValueInfoProto &input,
          const SmallVector<int64_t> *pinned) {
  Location loc = NameLoc::get(StringAttr::get(&context, input.name()));
  if (!input.type().has_tensor_type())
    return emitError(loc) << "graph input '" << input.name()
                          << "' is not a tensor; aicc supports tensor inputs "
                             "only";
  const onnx::TypeProto::Tensor &tensor = input.type().tensor_type();
  Type element = convertElementType(&context, tensor.elem_type());
  if (!element)
    return emitError(loc) << "graph input '" << input.name() << "' has type "
                          << dataTypeName(tensor.elem_type())
                          << ", which aicc does not support";
  if (!tensor.has_shape())
    return emitError(loc) << "graph input '" << input.name()
                          << "' has no shape; aicc needs at least its rank";
  SmallVector<int64_t> shape;
  for (const onnx::TensorShapeProto::Dimension &dim : tensor.shape().dim()) {
    if (dim.has_dim_value()) {
      if (dim.dim_value() < 0)
        return emitError(loc)
               << "graph input '" << input.name()
               << "' has a negative dimension " << dim.dim_value();
      shape.push_back(dim.dim_value());
    } else {
      shape.push_back(ShapedType::kDynamic);
    }
  }
  if (pinned) {
    if (pinned->size() != shape.size())
      return emitError(loc) << "--input-shape gives '" << input.name()
                            << "' rank " << pinned->size()
                            << " but the model declares rank " << shape.size();
    for (auto [dim, pin] : llvm::zip_equal(shape, *pinned))
      if (!ShapedType::isDynamic(dim) && dim != pin)
        return emitError(loc)
               << "--input-shape gives '" << input.name() << "' a size " << pin
               << " where the model fixes " << dim;
    shape.assign(pinned->begin(), pinned->end());
  }
  if (failed(checkedElementCount(llvm::to_vector(llvm::make_filter_range(
          shape, [](int64_t d) { return !ShapedType::isDynamic(d); })))))
    return emitError(loc) << "graph input '" << input.name()
                          << "' has more elements than fit in 64 bits";
  return RankedTensorType::get(shape, element);
}

OwningOpRef<ModuleOp>
ModelImporter::importModel(const onnx::ModelProto &model) {
  Location fileLoc = FileLineColLoc::get(&context, displayName, 0, 0);
  // Protobuf accepts almost any bytes as some message; a file without a graph
  // is not a model, whatever it parsed as.
  if (!model.has_graph()) {
    emitError(fileLoc) << "not an ONNX model: the file holds no graph (is it "
                          "empty, or another kind of protobuf?)";
    return nullptr;
  }
  if (!model.has_ir_version() || model.ir_version() < kMinIrVersion ||
      model.ir_version() > kMaxIrVersion) {
    emitError(fileLoc) << "ONNX IR version " << model.ir_version()
                       << " is not supported (aicc reads " << kMinIrVersion
                       << " to " << kMaxIrVersion << ")";
    return nullptr;
  }
  for (const onnx::OperatorSetIdProto &import : model.opset_import())
    if (isDefaultDomain(import.domain()))
      opset = import.version();
    else
      domainVersions[import.domain()] = import.version();
  if (opset <= 0) {
    emitError(fileLoc) << "the model imports no version of the default ONNX "
                          "operator set";
    return nullptr;
  }
  if (opset > kMaxOpset) {
    emitError(fileLoc) << "opset " << opset << " is newer than " << kMaxOpset
                       << ", the newest aicc knows";
    return nullptr;
  }
  const onnx::GraphProto &graph = model.graph();
  if (failed(checkOperators(graph)))
    return nullptr;
  collectDeclaredTypes(graph);

  // Initializers that are also listed as inputs (older IR versions) are
  // constants, not arguments.
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &tensor : graph.initializer())
    initializers.insert(tensor.name());
  llvm::StringMap<const SmallVector<int64_t> *> pins;
  for (const auto &[name, shape] : options.inputShapes)
    pins[name] = &shape;

  SmallVector<Type> argumentTypes;
  SmallVector<const onnx::ValueInfoProto *> arguments;
  llvm::StringSet<> usedPins;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.contains(input.name()))
      continue;
    auto pin = pins.find(input.name());
    const SmallVector<int64_t> *pinned =
        pin == pins.end() ? nullptr : pin->second;
    if (pinned)
      usedPins.insert(input.name());
    FailureOr<RankedTensorType> type = inputType(context, input, pinned);
    if (failed(type))
      return nullptr;
    argumentTypes.push_back(*type);
    arguments.push_back(&input);
  }
  for (const auto &entry : pins)
    if (!usedPins.contains(entry.getKey())) {
      emitError(fileLoc) << "--input-shape names '" << entry.getKey()
                         << "', which is not an input of the model";
      return nullptr;
    }

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType(argumentTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);

  GraphImporter main(*this, nullptr, 0);
  for (auto [index, input] : llvm::enumerate(arguments)) {
    main.bind(input->name(), entry->getArgument(index));
    func.setArgAttr(index, "onnx.name", builder.getStringAttr(input->name()));
  }
  if (failed(main.importBody(graph)))
    return nullptr;

  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    Value value = main.lookup(output.name());
    if (!value) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is not defined by any node, initializer or "
                            "input";
      return nullptr;
    }
    results.push_back(value);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(
      builder.getFunctionType(argumentTypes, ValueRange(results).getTypes()));
  for (auto [index, output] : llvm::enumerate(graph.output()))
    func.setResultAttr(index, "onnx.name",
                       builder.getStringAttr(output.name()));
  if (!graph.name().empty())
    (*module)->setAttr("onnx.graph_name", builder.getStringAttr(graph.name()));
  (*module)->setAttr("onnx.opset", builder.getI64IntegerAttr(opset));

  // Folding leaves the constants it consumed behind; drop what is unused.
  IRRewriter rewriter(&context);
  (void)runRegionDCE(rewriter, (*module)->getRegions());

  if (failed(verify(*module))) {
    emitError(fileLoc) << "internal error: the imported module does not "
                          "verify; please report this model";
    return nullptr;
  }
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Parses a ModelProto from `bytes` without protobuf's default size limits.
static bool parseModel(StringRef bytes, onnx::ModelProto &model) {
  google::protobuf::io::CodedInputStream stream(
      reinterpret_cast<const uint8_t *>(bytes.data()),
      static_cast<int>(bytes.size()));
  stream.SetTotalBytesLimit(INT_MAX);
  stream.SetRecursionLimit(256);
  return model.ParseFromCodedStream(&stream) && stream.ConsumedEntireMessage();
}

/// Runs `body` with a handler that prefixes every error with the node under
/// conversion, then re-emits the collected diagnostics at the model's file
/// location once the importer's own handler is gone.
template <typename Fn>
static OwningOpRef<ModuleOp> withNodeDiagnostics(ModelImporter &importer,
                                                 Fn &&body) {
  struct Collected {
    DiagnosticSeverity severity;
    std::string message;
    SmallVector<std::string> notes;
  };
  SmallVector<Collected> collected;
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler handler(&importer.context, [&](Diagnostic &diag) {
      std::string message = diag.str();
      if (!importer.currentNode.empty() &&
          !StringRef(message).starts_with("node "))
        message = importer.currentNode + ": " + message;
      Collected entry{diag.getSeverity(), std::move(message), {}};
      for (Diagnostic &note : diag.getNotes())
        entry.notes.push_back(note.str());
      collected.push_back(std::move(entry));
      return success();
    });
    module = body();
  }
  Location loc =
      FileLineColLoc::get(&importer.context, importer.displayName, 0, 0);
  for (Collected &entry : collected) {
    InFlightDiagnostic diag =
        entry.severity == DiagnosticSeverity::Warning  ? emitWarning(loc)
        : entry.severity == DiagnosticSeverity::Remark ? emitRemark(loc)
                                                       : emitError(loc);
    diag << entry.message;
    for (std::string &note : entry.notes)
      diag.attachNote() << note;
  }
  return module;
}

static OwningOpRef<ModuleOp> importBytes(MLIRContext &context, StringRef bytes,
                                         StringRef modelDir,
                                         StringRef displayName,
                                         const ONNXImportOptions &options) {
  context.loadDialect<TileDialect, func::FuncDialect, scf::SCFDialect,
                      tensor::TensorDialect, arith::ArithDialect>();
  Location fileLoc = FileLineColLoc::get(&context, displayName, 0, 0);
  if (static_cast<int64_t>(bytes.size()) > options.maxModelBytes ||
      bytes.size() > static_cast<size_t>(INT_MAX)) {
    emitError(fileLoc) << "the model file has " << bytes.size()
                       << " bytes, more than the "
                       << std::min<int64_t>(options.maxModelBytes, INT_MAX)
                       << " aicc reads; keep large weights in external data";
    return nullptr;
  }
  onnx::ModelProto model;
  if (!parseModel(bytes, model)) {
    emitError(fileLoc) << "not a valid ONNX model (the file is not a "
                          "ModelProto, or it is truncated or corrupted)";
    return nullptr;
  }
  ModelImporter importer(context, options, ExternalDataPolicy{modelDir.str()},
                         displayName.str());
  return withNodeDiagnostics(importer,
                             [&] { return importer.importModel(model); });
}

} // namespace aicc::onnx_importer

using namespace aicc::onnx_importer;

OwningOpRef<ModuleOp> aicc::importONNXModel(MLIRContext &context,
                                            StringRef path,
                                            const ONNXImportOptions &options) {
  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    emitError(fileLoc) << "cannot read the model: "
                       << buffer.getError().message();
    return nullptr;
  }
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  return importBytes(context, (*buffer)->getBuffer(), dir, path, options);
}

OwningOpRef<ModuleOp>
aicc::importONNXModelFromBuffer(MLIRContext &context, StringRef buffer,
                                StringRef modelDir, StringRef displayName,
                                const ONNXImportOptions &options) {
  return importBytes(context, buffer, modelDir, displayName, options);
}

void aicc::printSupportedONNXOps(llvm::raw_ostream &os) {
  OpTable::get().print(os);
}

bool aicc::parseInputShape(StringRef text, ONNXImportOptions &options) {
  auto [name, dims] = text.rsplit('=');
  if (name.empty() || dims.empty() || name == text)
    return false;
  SmallVector<int64_t> shape;
  if (dims != "scalar") {
    SmallVector<StringRef> parts;
    dims.split(parts, 'x');
    for (StringRef part : parts) {
      int64_t dim;
      if (part.empty() || !llvm::all_of(part, llvm::isDigit) ||
          part.getAsInteger(10, dim))
        return false;
      shape.push_back(dim);
    }
  }
  options.inputShapes.emplace_back(name.str(), std::move(shape));
  return true;
}
