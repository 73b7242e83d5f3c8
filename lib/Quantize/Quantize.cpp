//===- Quantize.cpp - The quantized model, as QDQ ONNX --------------------===//
//
// int8: activations uint8 with a zero point (asymmetric, per tensor, from
// the calibrated range clipped at the method's threshold); weights int8
// symmetric, per output channel with --per-channel; biases int32 in the
// product's scale. fp8: activations and weights e4m3fn, per tensor, scaled
// so that the threshold maps to 448. int4-weight: MatMul and Gemm weights
// as com.microsoft MatMulNBits, asymmetric uint4 in groups along K.
//
//===----------------------------------------------------------------------===//

#include "QuantizeInternal.h"

#include "aicc/Compiler/Compiler.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <set>

using namespace llvm;

namespace aicc {
namespace {

constexpr int64_t kMaxModelBytes = int64_t(2) << 30;
/// ONNX's FLOAT8E4M3FN (newer than the onnx.proto aicc builds with).
constexpr int32_t kFloat8E4M3FN = 17;

Error failure(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// The float values of an initializer held in the file, or none.
std::optional<std::vector<float>> floatValues(const onnx::TensorProto &t) {
  if (t.data_type() != onnx::TensorProto::FLOAT ||
      t.data_location() == onnx::TensorProto::EXTERNAL)
    return std::nullopt;
  int64_t count = 1;
  for (int64_t d : t.dims()) {
    if (d < 0 || (d > 0 && count > (int64_t(1) << 40) / d))
      return std::nullopt;
    count *= d;
  }
  std::vector<float> values;
  if (t.has_raw_data()) {
    if (t.raw_data().size() != size_t(count) * sizeof(float))
      return std::nullopt;
    values.resize(count);
    std::memcpy(values.data(), t.raw_data().data(), t.raw_data().size());
  } else {
    if (t.float_data_size() != count)
      return std::nullopt;
    values.assign(t.float_data().begin(), t.float_data().end());
  }
  return values;
}

template <typename T>
onnx::TensorProto makeTensor(const std::string &name, int32_t type,
                             std::vector<int64_t> dims,
                             const std::vector<T> &values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(type);
  for (int64_t d : dims)
    t.add_dims(d);
  t.set_raw_data(std::string(reinterpret_cast<const char *>(values.data()),
                             values.size() * sizeof(T)));
  return t;
}

/// `x` as float8 e4m3fn: nearest, ties to even, saturating at 448.
uint8_t encodeE4M3FN(float x) {
  if (std::isnan(x))
    return 0x7f;
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  uint32_t sign = (bits >> 24) & 0x80, absBits = bits & 0x7fffffff;
  float a;
  std::memcpy(&a, &absBits, 4);
  uint32_t code;
  if (a < 0x1p-6f) {
    code = uint32_t(std::nearbyint(a * 0x1p9f));
  } else {
    uint32_t odd = (absBits >> 20) & 1;
    code = ((absBits + (1u << 19) - 1 + odd) >> 20) - ((127 - 7) << 3);
  }
  return uint8_t(std::min<uint32_t>(code, 0x7e) | sign);
}

/// One operator to quantize.
struct Site {
  int node;
  std::string activation, weight, bias;
  /// The weight's output-channel axis (Conv 0; MatMul 1; Gemm 1, or 0
  /// when transposed).
  int64_t channelAxis;
};

class Rewriter {
public:
  Rewriter(onnx::ModelProto &model, const QuantizeOptions &options)
      : model(model), graph(*model.mutable_graph()), options(options) {
    for (const onnx::OperatorSetIdProto &import : model.opset_import())
      if (import.domain().empty() || import.domain() == "ai.onnx")
        opset = import.version();
    for (int i = 0; i < graph.initializer_size(); ++i)
      initializers[graph.initializer(i).name()] = i;
    for (const onnx::NodeProto &node : graph.node())
      for (const std::string &name : node.output())
        names.insert(name);
    for (const auto &[name, index] : initializers)
      names.insert(name);
    for (const onnx::ValueInfoProto &input : graph.input())
      names.insert(input.name());
    for (const onnx::NodeProto &node : graph.node())
      for (const std::string &name : node.input())
        uses[name]++;
    for (const onnx::NodeProto &node : graph.node())
      if ((node.domain().empty() || node.domain() == "ai.onnx") &&
          node.op_type() == "Identity" && node.input_size() == 1 &&
          node.output_size() == 1)
        identityOf[node.output(0)] = node.input(0);
  }

  /// The operators to quantize.
  std::vector<Site> findSites() {
    std::set<std::string> excluded(options.exclude.begin(),
                                   options.exclude.end());
    std::vector<Site> sites;
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::NodeProto &node = graph.node(i);
      bool isDefault = node.domain().empty() || node.domain() == "ai.onnx";
      StringRef op = node.op_type();
      if (!isDefault || (op != "Conv" && op != "MatMul" && op != "Gemm") ||
          node.input_size() < 2 || excluded.count(node.name()) ||
          llvm::any_of(node.output(), [&](const std::string &name) {
            return excluded.count(name) != 0;
          }))
        continue;
      auto weight = initializers.find(initializerBehind(node.input(1)));
      if (weight == initializers.end() || initializers.count(node.input(0)))
        continue;
      const onnx::TensorProto &w = graph.initializer(weight->second);
      if (w.data_type() != onnx::TensorProto::FLOAT ||
          (op == "Conv" ? w.dims_size() < 3 : w.dims_size() != 2))
        continue;
      Site site{i, node.input(0), weight->first, "", 0};
      if (op == "MatMul")
        site.channelAxis = 1;
      if (op == "Gemm") {
        if (attribute(node, "transA", 0) != 0)
          continue;
        site.channelAxis = attribute(node, "transB", 0) ? 0 : 1;
      }
      if (options.mode == QuantizeMode::Int4Weight) {
        if (op == "Conv" ||
            (op == "Gemm" && (floatAttribute(node, "alpha") != 1.0 ||
                              floatAttribute(node, "beta") != 1.0)))
          continue;
      }
      if (node.input_size() > 2 && !node.input(2).empty() &&
          initializers.count(initializerBehind(node.input(2))))
        site.bias = initializerBehind(node.input(2));
      // MatMulNBits takes a bias of one value per column only.
      if (options.mode == QuantizeMode::Int4Weight && node.input_size() > 2 &&
          !node.input(2).empty()) {
        const onnx::TensorProto *bias =
            site.bias.empty() ? nullptr
                              : &graph.initializer(initializers[site.bias]);
        if (!bias || bias->dims_size() != 1 ||
            bias->dims(0) != w.dims(site.channelAxis))
          continue;
      }
      sites.push_back(site);
    }
    return sites;
  }

  /// Rewrites the graph around `sites` with the activation ranges of
  /// `table`.
  Error rewrite(const std::vector<Site> &sites, const CalibrationTable &table);

private:
  static int64_t attribute(const onnx::NodeProto &node, StringRef name,
                           int64_t otherwise) {
    for (const onnx::AttributeProto &a : node.attribute())
      if (a.name() == name)
        return a.i();
    return otherwise;
  }
  static double floatAttribute(const onnx::NodeProto &node, StringRef name) {
    for (const onnx::AttributeProto &a : node.attribute())
      if (a.name() == name)
        return a.f();
    return 1.0;
  }

  /// A tensor name not yet in the model, from `base`.
  std::string fresh(const std::string &base) {
    std::string name = base;
    for (int n = 1; names.count(name); ++n)
      name = base + "_" + std::to_string(n);
    names.insert(name);
    return name;
  }

  void addInitializer(onnx::TensorProto tensor) {
    *graph.add_initializer() = std::move(tensor);
  }

  /// The domain for QuantizeLinear/DequantizeLinear that needs `since` of
  /// the default domain (per-axis 13, float8 19); com.microsoft's below.
  std::string qdqDomain(int64_t since) {
    if (opset >= since)
      return "";
    useMicrosoft = true;
    return "com.microsoft";
  }

  onnx::NodeProto qdqNode(StringRef op, std::vector<std::string> inputs,
                          const std::string &output, int64_t since,
                          std::optional<int64_t> axis = std::nullopt) {
    onnx::NodeProto node;
    node.set_op_type(op.str());
    node.set_domain(qdqDomain(since));
    node.set_name(output);
    for (std::string &input : inputs)
      node.add_input(std::move(input));
    node.add_output(output);
    if (axis) {
      onnx::AttributeProto *a = node.add_attribute();
      a->set_name("axis");
      a->set_type(onnx::AttributeProto::INT);
      a->set_i(*axis);
    }
    return node;
  }

  /// Quantizes weight `name` (int8 or fp8) behind a DequantizeLinear;
  /// returns the dequantized tensor's name and fills the scales.
  std::string quantizeWeight(const Site &site, std::vector<float> &scales,
                             std::vector<onnx::NodeProto> &prologue);
  void packInt4(const Site &site, onnx::NodeProto &node);

  onnx::ModelProto &model;
  onnx::GraphProto &graph;
  const QuantizeOptions &options;
  int64_t opset = 0;
  bool useMicrosoft = false;
  std::map<std::string, int> initializers;
  /// Identity nodes' outputs and inputs: exporters alias initializers
  /// that way (PyTorch writes one copy of equal tensors, such as zero
  /// biases, and an Identity for each other use).
  std::map<std::string, std::string> identityOf;
  /// The initializer `name` is, through Identity nodes; `name` itself
  /// when there is none behind it.
  std::string initializerBehind(std::string name) const {
    for (int depth = 0; depth < 16 && !initializers.count(name); ++depth) {
      auto next = identityOf.find(name);
      if (next == identityOf.end())
        break;
      name = next->second;
    }
    return name;
  }
  std::map<std::string, int> uses;
  StringSet<> names;
};

std::string Rewriter::quantizeWeight(const Site &site,
                                     std::vector<float> &scales,
                                     std::vector<onnx::NodeProto> &prologue) {
  const onnx::TensorProto &w = graph.initializer(initializers[site.weight]);
  std::vector<float> values = *floatValues(w);
  std::vector<int64_t> dims(w.dims().begin(), w.dims().end());
  bool fp8 = options.mode == QuantizeMode::FP8;
  bool perChannel = options.perChannel && !fp8;
  int64_t channels = perChannel ? dims[site.channelAxis] : 1;
  int64_t inner = 1;
  for (size_t d = site.channelAxis + 1; d < dims.size(); ++d)
    inner *= dims[d];
  auto channelOf = [&](size_t index) {
    return perChannel ? int64_t(index / inner) % channels : 0;
  };
  std::vector<float> amax(channels, 0.0f);
  for (size_t i = 0; i < values.size(); ++i)
    amax[channelOf(i)] = std::max(amax[channelOf(i)], std::abs(values[i]));
  float top = fp8 ? 448.0f : 127.0f;
  scales.resize(channels);
  for (int64_t c = 0; c < channels; ++c)
    scales[c] = amax[c] > 0 ? amax[c] / top : 1.0f;
  std::string quantized = fresh(site.weight + "_quantized");
  std::string scaleName = fresh(site.weight + "_scale");
  std::string zpName = fresh(site.weight + "_zero_point");
  std::vector<int64_t> scaleDims;
  if (perChannel)
    scaleDims.push_back(channels);
  if (fp8) {
    std::vector<uint8_t> codes(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      codes[i] = encodeE4M3FN(values[i] / scales[0]);
    addInitializer(makeTensor(quantized, kFloat8E4M3FN, dims, codes));
    addInitializer(
        makeTensor(zpName, kFloat8E4M3FN, {}, std::vector<uint8_t>{0}));
  } else {
    std::vector<int8_t> codes(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      codes[i] = int8_t(std::clamp(
          std::nearbyint(values[i] / scales[channelOf(i)]), -127.0f, 127.0f));
    addInitializer(makeTensor(quantized, onnx::TensorProto::INT8, dims, codes));
    addInitializer(makeTensor(zpName, onnx::TensorProto::INT8, scaleDims,
                              std::vector<int8_t>(channels, 0)));
  }
  addInitializer(
      makeTensor(scaleName, onnx::TensorProto::FLOAT, scaleDims, scales));
  std::string dequantized = fresh(site.weight + "_dequantized");
  std::optional<int64_t> axis;
  if (perChannel)
    axis = site.channelAxis;
  prologue.push_back(qdqNode("DequantizeLinear", {quantized, scaleName, zpName},
                             dequantized, fp8 ? 19 : (perChannel ? 13 : 10),
                             axis));
  return dequantized;
}

void Rewriter::packInt4(const Site &site, onnx::NodeProto &node) {
  const onnx::TensorProto &w = graph.initializer(initializers[site.weight]);
  std::vector<float> values = *floatValues(w);
  // [K, N], or [N, K] for a Gemm with transB.
  bool transposed = site.channelAxis == 0;
  int64_t k = w.dims(transposed ? 1 : 0), n = w.dims(transposed ? 0 : 1);
  int64_t block = options.blockSize;
  auto at = [&](int64_t r, int64_t c) {
    return transposed ? values[c * k + r] : values[r * n + c];
  };
  int64_t blocks = (k + block - 1) / block;
  std::vector<uint8_t> packed(n * blocks * block / 2, 0);
  std::vector<float> scales(n * blocks);
  std::vector<uint8_t> zeroPoints(n * ((blocks + 1) / 2), 0);
  for (int64_t c = 0; c < n; ++c)
    for (int64_t b = 0; b < blocks; ++b) {
      float low = 0, high = 0;
      for (int64_t r = b * block; r < std::min(k, (b + 1) * block); ++r) {
        low = std::min(low, at(r, c));
        high = std::max(high, at(r, c));
      }
      float scale = high > low ? (high - low) / 15.0f : 1.0f;
      int zp = int(std::clamp(std::nearbyint(-low / scale), 0.0f, 15.0f));
      scales[c * blocks + b] = scale;
      zeroPoints[c * ((blocks + 1) / 2) + b / 2] |=
          uint8_t(zp << (4 * (b % 2)));
      for (int64_t r = b * block; r < std::min(k, (b + 1) * block); ++r) {
        int q =
            int(std::clamp(std::nearbyint(at(r, c) / scale) + zp, 0.0f, 15.0f));
        packed[(c * blocks * block + r) / 2] |= uint8_t(q << (4 * (r % 2)));
      }
    }
  std::string b = fresh(site.weight + "_int4");
  std::string s = fresh(site.weight + "_scales");
  std::string z = fresh(site.weight + "_zero_points");
  addInitializer(
      makeTensor(b, onnx::TensorProto::UINT8, {n, blocks, block / 2}, packed));
  addInitializer(makeTensor(s, onnx::TensorProto::FLOAT, {n * blocks}, scales));
  addInitializer(makeTensor(z, onnx::TensorProto::UINT8,
                            {n * ((blocks + 1) / 2)}, zeroPoints));
  std::string bias = site.bias;
  std::string output = node.output(0);
  node.Clear();
  node.set_op_type("MatMulNBits");
  node.set_domain("com.microsoft");
  node.set_name(output + "_int4");
  for (const std::string &input :
       {site.activation, b, s, z, std::string(), bias})
    node.add_input(input);
  while (node.input_size() && node.input(node.input_size() - 1).empty())
    node.mutable_input()->RemoveLast();
  node.add_output(output);
  for (auto [name, value] : {std::pair<const char *, int64_t>{"K", k},
                             {"N", n},
                             {"bits", 4},
                             {"block_size", block}}) {
    onnx::AttributeProto *a = node.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
  }
  useMicrosoft = true;
}

Error Rewriter::rewrite(const std::vector<Site> &sites,
                        const CalibrationTable &table) {
  std::vector<onnx::NodeProto> prologue;
  std::map<int, const Site *> siteOf;
  for (const Site &site : sites)
    siteOf[site.node] = &site;
  // Activation name -> its dequantized name and scale.
  std::map<std::string, std::pair<std::string, float>> activations;
  std::vector<onnx::NodeProto> nodes;
  std::set<std::string> replaced;
  bool fp8 = options.mode == QuantizeMode::FP8;
  for (int i = 0; i < graph.node_size(); ++i) {
    onnx::NodeProto node = graph.node(i);
    auto found = siteOf.find(i);
    if (found == siteOf.end()) {
      nodes.push_back(std::move(node));
      continue;
    }
    const Site &site = *found->second;
    if (options.mode == QuantizeMode::Int4Weight) {
      packInt4(site, node);
      replaced.insert(site.weight);
      if (!site.bias.empty())
        uses[site.bias]--;
      nodes.push_back(std::move(node));
      continue;
    }
    auto range = table.tensors.find(site.activation);
    if (range == table.tensors.end())
      return failure("the calibration table has no range for tensor '" +
                     site.activation +
                     "'; calibrate again (--calibration-data)");
    auto known = activations.find(site.activation);
    if (known == activations.end()) {
      const TensorRange &r = range->second;
      std::string scaleName = fresh(site.activation + "_scale");
      std::string zpName = fresh(site.activation + "_zero_point");
      float scale;
      if (fp8) {
        scale = r.threshold > 0 ? float(r.threshold / 448.0) : 1.0f;
        addInitializer(
            makeTensor(zpName, kFloat8E4M3FN, {}, std::vector<uint8_t>{0}));
      } else {
        double low = std::min(0.0, std::max(r.min, -r.threshold));
        double high = std::max(0.0, std::min(r.max, r.threshold));
        scale = high > low ? float((high - low) / 255.0) : 1.0f;
        uint8_t zp =
            uint8_t(std::clamp(std::nearbyint(-low / scale), 0.0, 255.0));
        addInitializer(makeTensor(zpName, onnx::TensorProto::UINT8, {},
                                  std::vector<uint8_t>{zp}));
      }
      addInitializer(makeTensor(scaleName, onnx::TensorProto::FLOAT, {},
                                std::vector<float>{scale}));
      std::string q = fresh(site.activation + "_quantized");
      std::string dq = fresh(site.activation + "_dequantized");
      int64_t since = fp8 ? 19 : 10;
      nodes.push_back(qdqNode("QuantizeLinear",
                              {site.activation, scaleName, zpName}, q, since));
      nodes.push_back(
          qdqNode("DequantizeLinear", {q, scaleName, zpName}, dq, since));
      known =
          activations.emplace(site.activation, std::make_pair(dq, scale)).first;
    }
    float activationScale = known->second.second;
    std::vector<float> weightScales;
    std::string weight = quantizeWeight(site, weightScales, prologue);
    node.set_input(0, known->second.first);
    node.set_input(1, weight);
    if (--uses[site.weight] == 0)
      replaced.insert(site.weight);
    // int8 biases as int32 in the product's scale.
    const onnx::TensorProto *bias =
        site.bias.empty() ? nullptr
                          : &graph.initializer(initializers[site.bias]);
    int64_t outputs =
        graph.initializer(initializers[site.weight]).dims(site.channelAxis);
    std::optional<std::vector<float>> biasValues =
        bias ? floatValues(*bias) : std::nullopt;
    if (!fp8 && biasValues && bias->dims_size() == 1 &&
        int64_t(biasValues->size()) == outputs) {
      std::vector<float> scales(outputs);
      std::vector<int32_t> codes(outputs);
      for (int64_t c = 0; c < outputs; ++c) {
        scales[c] =
            activationScale * weightScales[weightScales.size() == 1 ? 0 : c];
        codes[c] = int32_t(
            std::clamp<double>(std::nearbyint((*biasValues)[c] / scales[c]),
                               -2147483647.0, 2147483647.0));
      }
      bool perChannel = weightScales.size() > 1;
      std::vector<int64_t> scaleDims;
      if (perChannel)
        scaleDims.push_back(outputs);
      else
        scales.resize(1);
      std::string q = fresh(site.bias + "_quantized");
      std::string s = fresh(site.bias + "_scale");
      std::string z = fresh(site.bias + "_zero_point");
      std::string dq = fresh(site.bias + "_dequantized");
      addInitializer(makeTensor(q, onnx::TensorProto::INT32, {outputs}, codes));
      addInitializer(
          makeTensor(s, onnx::TensorProto::FLOAT, scaleDims, scales));
      addInitializer(makeTensor(z, onnx::TensorProto::INT32, scaleDims,
                                std::vector<int32_t>(scales.size(), 0)));
      std::optional<int64_t> axis;
      if (perChannel)
        axis = 0;
      prologue.push_back(qdqNode("DequantizeLinear", {q, s, z}, dq,
                                 perChannel ? 13 : 10, axis));
      node.set_input(2, dq);
      if (--uses[site.bias] == 0)
        replaced.insert(site.bias);
    }
    nodes.push_back(std::move(node));
  }
  graph.clear_node();
  for (onnx::NodeProto &node : prologue)
    *graph.add_node() = std::move(node);
  for (onnx::NodeProto &node : nodes)
    *graph.add_node() = std::move(node);
  // Float weights nothing reads any more.
  for (int i = graph.initializer_size() - 1; i >= 0; --i)
    if (replaced.count(graph.initializer(i).name()) &&
        uses[graph.initializer(i).name()] <= 0)
      graph.mutable_initializer()->DeleteSubrange(i, 1);
  if (useMicrosoft && llvm::none_of(model.opset_import(),
                                    [](const onnx::OperatorSetIdProto &import) {
                                      return import.domain() == "com.microsoft";
                                    })) {
    onnx::OperatorSetIdProto *import = model.add_opset_import();
    import->set_domain("com.microsoft");
    import->set_version(1);
  }
  return Error::success();
}

} // namespace

Expected<std::string> quantizeModel(const CompileOptions &base,
                                    const QuantizeOptions &options,
                                    raw_ostream &log) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(base.inputPath, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!file)
    return failure("cannot read '" + base.inputPath +
                   "': " + file.getError().message());
  if (int64_t((*file)->getBufferSize()) > kMaxModelBytes)
    return failure("'" + base.inputPath + "' is larger than 2 GiB");
  onnx::ModelProto model;
  if (!model.ParseFromArray((*file)->getBufferStart(),
                            int((*file)->getBufferSize())) ||
      !model.has_graph())
    return failure("'" + base.inputPath + "' is not an ONNX model");

  Rewriter rewriter(model, options);
  std::vector<Site> sites = rewriter.findSites();
  if (sites.empty())
    log << "aicc: warning: --quantize found no Conv, MatMul or Gemm with a "
           "float weight in the model's main graph; nothing is quantized\n";

  CalibrationTable table;
  if (options.mode != QuantizeMode::Int4Weight && !sites.empty()) {
    std::vector<std::string> tensors;
    for (const Site &site : sites)
      if (!llvm::is_contained(tensors, site.activation))
        tensors.push_back(site.activation);
    bool haveTable = !options.tablePath.empty() &&
                     options.calibrationDir.empty() &&
                     sys::fs::exists(options.tablePath);
    if (haveTable) {
      Expected<CalibrationTable> read = readCalibrationTable(options.tablePath);
      if (!read)
        return read.takeError();
      table = std::move(*read);
    } else if (options.calibrationDir.empty()) {
      return failure(
          "--quantize=" +
          std::string(options.mode == QuantizeMode::FP8 ? "fp8" : "int8") +
          " needs --calibration-data=DIR or an existing "
          "--calibration-table=FILE");
    } else {
      Expected<CalibrationTable> measured =
          quantize::calibrate(base, options, model, tensors, log);
      if (!measured)
        return measured.takeError();
      table = std::move(*measured);
      if (!options.tablePath.empty())
        if (Error error = writeCalibrationTable(table, options.tablePath))
          return std::move(error);
    }
  }
  if (Error error = rewriter.rewrite(sites, table))
    return std::move(error);
  std::string bytes;
  if (!model.SerializeToString(&bytes))
    return failure("cannot serialize the quantized model");
  return bytes;
}

} // namespace aicc
