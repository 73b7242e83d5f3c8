//===- Compiler.cpp - ONNX model to model.bin -----------------------------===//

#include "aicc/Compiler/Compiler.h"

#include "Autotune.h"
#include "TensorMaps.h"

#include "aicc/Bundle/BundleWriter.h"
#include "aicc/Importer/ONNXImporter.h"
#include "aicc/InitAll.h"
#include "aicc/Pipelines/Pipelines.h"
#include "aicc/Target/CPU/CodeGen.h"
#include "aicc/Target/GPU/Archs.h"
#include "aicc/Target/GPU/CodeGen.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>

using namespace mlir;
using namespace aicc;

#ifndef AICC_VERSION_STRING
#define AICC_VERSION_STRING "0.0.0"
#endif

const char *aicc::compilerVersion() { return AICC_VERSION_STRING; }

namespace {

/// Prints diagnostics as `FILE: error: message`, the form compilers use.
void printDiagnostic(Diagnostic &diagnostic, llvm::raw_ostream &os) {
  std::string where = "aicc";
  if (auto file = dyn_cast<FileLineColLoc>(diagnostic.getLocation())) {
    where = file.getFilename().str();
    if (file.getLine() != 0)
      where += ":" + std::to_string(file.getLine()) + ":" +
               std::to_string(file.getColumn());
  }
  const char *severity = "error";
  switch (diagnostic.getSeverity()) {
  case DiagnosticSeverity::Error:
    break;
  case DiagnosticSeverity::Warning:
    severity = "warning";
    break;
  case DiagnosticSeverity::Note:
    severity = "note";
    break;
  case DiagnosticSeverity::Remark:
    severity = "remark";
    break;
  }
  os << where << ": " << severity << ": " << diagnostic.str() << "\n";
  for (Diagnostic &note : diagnostic.getNotes())
    os << where << ": note: " << note.str() << "\n";
}

/// Stage bookkeeping: progress lines and the --timings table.
class Stages {
public:
  Stages(const CompileOptions &options, llvm::raw_ostream &log)
      : options(options), log(log), start(Clock::now()) {}

  void begin(llvm::StringRef name) {
    finish();
    current = name.str();
    currentStart = Clock::now();
    bool announce = options.progress == ProgressMode::Always ||
                    (options.progress == ProgressMode::Auto &&
                     seconds(start, currentStart) >= 1.0);
    if (announce) {
      log << "aicc: " << current << " ("
          << llvm::format("%.1f", seconds(start, currentStart)) << " s)\n";
      log.flush();
    }
  }

  void finish() {
    if (current.empty())
      return;
    records.push_back({current, seconds(currentStart, Clock::now())});
    current.clear();
  }

  void report() {
    finish();
    if (!options.timings)
      return;
    double total = 0;
    log << "aicc: timings\n";
    for (auto &[name, s] : records) {
      log << llvm::format("  %-28s %9.3f s\n", name.c_str(), s);
      total += s;
    }
    log << llvm::format("  %-28s %9.3f s\n", "total", total);
  }

private:
  using Clock = std::chrono::steady_clock;
  static double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  }
  const CompileOptions &options;
  llvm::raw_ostream &log;
  Clock::time_point start, currentStart;
  std::string current;
  std::vector<std::pair<std::string, double>> records;
};

bool writeText(const CompileOptions &options,
               llvm::function_ref<void(llvm::raw_ostream &)> print,
               llvm::raw_ostream &log) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(options.outputPath, &error);
  if (!output) {
    log << "aicc: error: " << error << "\n";
    return false;
  }
  print(output->os());
  output->os().flush();
  if (output->os().has_error()) {
    log << "aicc: error: writing '" << options.outputPath << "' failed\n";
    output->os().clear_error();
    return false;
  }
  output->keep();
  return true;
}

/// The last stage of an IR-emitting compile: writes what `print` prints.
bool writeStage(const CompileOptions &options, Stages &stages,
                llvm::function_ref<void(llvm::raw_ostream &)> print,
                llvm::raw_ostream &log) {
  stages.begin("write");
  bool ok = writeText(options, print, log);
  stages.report();
  return ok;
}

/// writeStage for a module.
bool writeModuleStage(const CompileOptions &options, Stages &stages,
                      ModuleOp module, llvm::raw_ostream &log) {
  return writeStage(
      options, stages,
      [&](llvm::raw_ostream &os) {
        module.print(os);
        os << "\n";
      },
      log);
}

FailureOr<aicc_dtype> bundleType(Type type) {
  if (type.isF32())
    return AICC_DTYPE_FLOAT32;
  if (type.isF64())
    return AICC_DTYPE_FLOAT64;
  if (type.isF16())
    return AICC_DTYPE_FLOAT16;
  if (type.isBF16())
    return AICC_DTYPE_BFLOAT16;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    bool isUnsigned = integer.isUnsigned();
    switch (integer.getWidth()) {
    case 1:
      return AICC_DTYPE_BOOL;
    case 8:
      return isUnsigned ? AICC_DTYPE_UINT8 : AICC_DTYPE_INT8;
    case 16:
      return isUnsigned ? AICC_DTYPE_UINT16 : AICC_DTYPE_INT16;
    case 32:
      return isUnsigned ? AICC_DTYPE_UINT32 : AICC_DTYPE_INT32;
    case 64:
      return isUnsigned ? AICC_DTYPE_UINT64 : AICC_DTYPE_INT64;
    default:
      break;
    }
  }
  return failure();
}

/// Describes a tensor of the model's interface, or fails with a diagnostic.
FailureOr<bundle::Tensor> describeTensor(Location loc, llvm::StringRef what,
                                         llvm::StringRef name, Type type,
                                         aicc_tensor_role role) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return emitError(loc) << what << " '" << name
                          << "' is not a ranked tensor (" << type << ")",
           failure();
  if (!tensorType.hasStaticShape())
    return emitError(loc) << what << " '" << name << "' has the dynamic shape "
                          << type << "; pin it with --input-shape",
           failure();
  FailureOr<aicc_dtype> dtype = bundleType(tensorType.getElementType());
  if (failed(dtype))
    return emitError(loc) << what << " '" << name << "' has element type "
                          << tensorType.getElementType()
                          << ", which the CPU target does not support",
           failure();
  bundle::Tensor tensor;
  tensor.name = name.str();
  tensor.role = role;
  tensor.dtype = *dtype;
  tensor.dims.assign(tensorType.getShape().begin(),
                     tensorType.getShape().end());
  return tensor;
}

/// The bytes of a weight as the bundle stores them: row-major, one byte per
/// bool, splats expanded.
LogicalResult weightBytes(Location loc, Attribute value,
                          bundle::Tensor &tensor) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc) << "weight '" << tensor.name << "' has no data";
    tensor.data = blob->getData();
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return emitError(loc) << "weight '" << tensor.name
                          << "' has data aicc cannot serialize";
  if (dense.getElementType().isInteger(1)) {
    for (bool b : dense.getValues<bool>())
      tensor.ownedData.push_back(b ? 1 : 0);
    return success();
  }
  if (dense.isSplat()) {
    llvm::ArrayRef<char> one = dense.getRawData();
    int64_t count = dense.getNumElements();
    tensor.ownedData.reserve(one.size() * count);
    for (int64_t i = 0; i < count; ++i)
      tensor.ownedData.append(one.begin(), one.end());
    return success();
  }
  tensor.data = dense.getRawData();
  return success();
}

/// The model's interface as imported: names and element types, which the
/// lowering loses (unsigned types become signless, shapes become pointers).
struct Interface {
  Location loc;
  std::vector<std::pair<std::string, Type>> inputs, outputs;
};

Interface recordInterface(func::FuncOp main) {
  auto nameOf = [](DictionaryAttr attrs, unsigned index) {
    if (attrs)
      if (auto name = attrs.getAs<StringAttr>("onnx.name"))
        return name.getValue().str();
    return "#" + std::to_string(index);
  };
  Interface interface{main.getLoc(), {}, {}};
  for (unsigned i = 0; i < main.getNumArguments(); ++i)
    interface.inputs.emplace_back(nameOf(main.getArgAttrDict(i), i),
                                  main.getArgument(i).getType());
  for (unsigned i = 0; i < main.getNumResults(); ++i)
    interface.outputs.emplace_back(nameOf(main.getResultAttrDict(i), i),
                                   main.getResultTypes()[i]);
  return interface;
}

/// Checks, before any lowering, that the model can run on the CPU target.
LogicalResult checkStaticInterface(const Interface &interface) {
  for (auto &[name, type] : interface.inputs)
    if (failed(describeTensor(interface.loc, "input", name, type,
                              AICC_ROLE_INPUT)))
      return failure();
  for (auto &[name, type] : interface.outputs)
    if (failed(describeTensor(interface.loc, "output", name, type,
                              AICC_ROLE_OUTPUT)))
      return failure();
  return success();
}

/// Reads a compiled function's argument list, [weights, inputs, outputs,
/// `trailing`...], into the bundle's tensors, checking it against the
/// imported interface. Weight arguments carry `aicc.weight` and
/// `aicc.weight_value`; `trailing` names the attribute of each argument
/// after the outputs.
FailureOr<unsigned> describeTensors(FunctionOpInterface compiled,
                                    const Interface &interface,
                                    ArrayRef<StringRef> trailing,
                                    bundle::Bundle &result) {
  Location loc = interface.loc;
  unsigned numArgs = compiled.getNumArguments();
  unsigned numWeights = 0;
  while (numWeights < numArgs && compiled.getArgAttr(numWeights, "aicc.weight"))
    ++numWeights;
  bool matches = numArgs == numWeights + interface.inputs.size() +
                                interface.outputs.size() + trailing.size();
  for (unsigned i = 0; matches && i < trailing.size(); ++i)
    matches =
        bool(compiled.getArgAttr(numArgs - trailing.size() + i, trailing[i]));
  if (!matches)
    return compiled.emitError("has an argument list that does not match the "
                              "model's interface"),
           failure();

  for (unsigned i = 0; i < numWeights; ++i) {
    auto name = compiled.getArgAttrOfType<StringAttr>(i, "aicc.weight");
    auto value =
        compiled.getArgAttrOfType<ElementsAttr>(i, "aicc.weight_value");
    if (!name || !value)
      return compiled.emitError("weight argument ") << i << " lacks its data",
             failure();
    FailureOr<bundle::Tensor> tensor = describeTensor(
        loc, "weight", name.getValue(), value.getType(), AICC_ROLE_WEIGHT);
    if (failed(tensor) || failed(weightBytes(loc, value, *tensor)))
      return failure();
    result.weights.push_back(std::move(*tensor));
  }
  for (auto &[name, type] : interface.inputs) {
    FailureOr<bundle::Tensor> tensor =
        describeTensor(loc, "input", name, type, AICC_ROLE_INPUT);
    if (failed(tensor))
      return failure();
    result.inputs.push_back(std::move(*tensor));
  }
  for (auto &[name, type] : interface.outputs) {
    FailureOr<bundle::Tensor> tensor =
        describeTensor(loc, "output", name, type, AICC_ROLE_OUTPUT);
    if (failed(tensor))
      return failure();
    result.outputs.push_back(std::move(*tensor));
  }
  if (auto size = compiled->getAttrOfType<IntegerAttr>("aicc.arena_size"))
    result.arenaSize = size.getInt();
  return numWeights;
}

/// The buffer a compiled function's argument `index` is, for a function
/// whose arguments are [weights, inputs, outputs, arena].
aicc_buffer_ref bufferOfArgument(unsigned index, unsigned numWeights,
                                 const bundle::Bundle &result) {
  unsigned numInputs = result.inputs.size();
  unsigned numOutputs = result.outputs.size();
  if (index < numWeights)
    return {AICC_BUFFER_WEIGHT, index, 0};
  index -= numWeights;
  if (index < numInputs)
    return {AICC_BUFFER_INPUT, index, 0};
  index -= numInputs;
  if (index < numOutputs)
    return {AICC_BUFFER_OUTPUT, index, 0};
  return {AICC_BUFFER_ARENA, 0, 0};
}

/// The CPU bundle's tensors and its one step: the whole model as one call.
LogicalResult describeInterface(ModuleOp module, const Interface &interface,
                                bundle::Bundle &result) {
  auto compiled = module.lookupSymbol<LLVM::LLVMFuncOp>("main");
  if (!compiled)
    return module.emitError("the CPU pipeline produced no 'main'");
  StringRef trailing[] = {"aicc.arena", "aicc.exec"};
  FailureOr<unsigned> numWeights =
      describeTensors(compiled, interface, trailing, result);
  if (failed(numWeights))
    return failure();
  bundle::LaunchStep step;
  step.target = AICC_TARGET_CPU_X86_64;
  step.entry = "aicc_entry";
  for (unsigned i = 0; i + 1 < compiled.getNumArguments(); ++i)
    step.args.push_back(bufferOfArgument(i, *numWeights, result));
  result.steps.push_back(std::move(step));
  return success();
}

/// A GPU bundle's tensors and its launch plan: one step per gpu.launch_func
/// of `main`, in order.
LogicalResult describeLaunches(ModuleOp module, const Interface &interface,
                               aicc_target target, bundle::Bundle &result) {
  auto compiled = module.lookupSymbol<func::FuncOp>("main");
  if (!compiled)
    return module.emitError("the GPU pipeline produced no 'main'");
  StringRef trailing[] = {"aicc.arena"};
  FailureOr<unsigned> numWeights =
      describeTensors(compiled, interface, trailing, result);
  if (failed(numWeights))
    return failure();
  Block &body = compiled.getBody().front();
  auto bufferOf = [&](unsigned argument) {
    return bufferOfArgument(argument, *numWeights, result);
  };
  auto bufferBytes = [&](unsigned argument) -> uint64_t {
    if (compiled.getArgAttr(argument, "aicc.arena"))
      return result.arenaSize;
    auto type = cast<MemRefType>(body.getArgument(argument).getType());
    return uint64_t(type.getNumElements()) *
           (type.getElementTypeBitWidth() / 8);
  };
  for (Operation &op : body) {
    if (isa<func::ReturnOp>(op) || op.hasTrait<OpTrait::ConstantLike>() ||
        buildsTensorMap(&op))
      continue;
    auto launch = dyn_cast<mlir::gpu::LaunchFuncOp>(op);
    if (!launch)
      return op.emitError("is left on the host by the GPU pipeline");
    bundle::LaunchStep step;
    step.target = target;
    step.entry = launch.getKernelName().getValue().str();
    Value sizes[] = {launch.getGridSizeX(),  launch.getGridSizeY(),
                     launch.getGridSizeZ(),  launch.getBlockSizeX(),
                     launch.getBlockSizeY(), launch.getBlockSizeZ()};
    for (int d = 0; d < 6; ++d) {
      std::optional<int64_t> size = getConstantIntValue(sizes[d]);
      if (!size || *size < 1 || *size > std::numeric_limits<int32_t>::max())
        return launch.emitError("has a launch size that is not a constant");
      (d < 3 ? step.grid[d] : step.block[d - 3]) = static_cast<uint32_t>(*size);
    }
    if (Value shared = launch.getDynamicSharedMemorySize()) {
      std::optional<int64_t> bytes = getConstantIntValue(shared);
      if (!bytes || *bytes < 0 || *bytes > std::numeric_limits<int32_t>::max())
        return launch.emitError("has a shared memory size that is not a "
                                "constant of 32 bits");
      step.sharedBytes = static_cast<uint32_t>(*bytes);
    }
    for (Value operand : launch.getKernelOperands()) {
      if (isTensorMap(operand)) {
        FailureOr<aicc_tensor_map> map =
            describeTensorMap(operand, body, bufferOf, bufferBytes);
        if (failed(map))
          return failure();
        // One record per distinct map.
        auto same = llvm::find_if(result.tensorMaps, [&](const auto &m) {
          return std::memcmp(&m, &*map, sizeof(m)) == 0;
        });
        uint32_t index = same - result.tensorMaps.begin();
        if (same == result.tensorMaps.end())
          result.tensorMaps.push_back(*map);
        step.args.push_back({AICC_BUFFER_TENSOR_MAP, index, 0});
        continue;
      }
      auto argument = dyn_cast<BlockArgument>(operand);
      if (!argument || argument.getOwner() != &compiled.getBody().front())
        return launch.emitError("passes a kernel a value that is not one of "
                                "the model's buffers");
      step.args.push_back(
          bufferOfArgument(argument.getArgNumber(), *numWeights, result));
    }
    if (auto source = launch->getAttrOfType<StringAttr>("aicc.source"))
      step.source = source.getValue().str();
    // What the kernel moves and computes (aicc::gpu::kLaunchBytes and the
    // like, which outlining leaves on the launch), for profiles.
    if (auto bytes = launch->getAttrOfType<IntegerAttr>("aicc.bytes"))
      step.bytes = std::max<int64_t>(bytes.getInt(), 0);
    if (auto flops = launch->getAttrOfType<IntegerAttr>("aicc.flops"))
      step.flops = std::max<int64_t>(flops.getInt(), 0);
    if (auto math = launch->getAttrOfType<StringAttr>("aicc.math"))
      step.math = math.getValue() == "tensor16" ? AICC_MATH_TENSOR_16
                                                : AICC_MATH_TENSOR_32;
    result.steps.push_back(std::move(step));
  }
  return success();
}

/// Whether the kernels for `archs` use wgmma: it exists on sm_90a alone,
/// so only when every cubin is for that architecture (no PTX for other
/// GPUs goes with them).
bool usesWgmma(const CompileOptions &options,
               const std::vector<std::string> &archs) {
  return options.target == "cuda" &&
         llvm::all_of(archs,
                      [](const std::string &arch) { return arch == "sm_90a"; });
}

/// The GPU pipeline's options for `options`, on `archs`.
void configureGPUPipeline(const CompileOptions &options,
                          const std::vector<std::string> &archs,
                          GPUPipelineOptions &pipelineOptions) {
  pipelineOptions.target = options.target;
  pipelineOptions.gpuArchs = llvm::ArrayRef<std::string>(archs);
  pipelineOptions.optLevel = options.optLevel;
  pipelineOptions.precision = options.precision;
  pipelineOptions.allowTF32 = options.allowTF32;
  pipelineOptions.tma = options.tma;
  pipelineOptions.fuseSiblings = options.fuseSiblings;
  pipelineOptions.tileFuse = options.tileFuse;
  pipelineOptions.mmaTile = options.mmaTile;
  pipelineOptions.channelsLast =
      options.channelsLast.value_or(options.target == "cuda");
  pipelineOptions.wgmma = usesWgmma(options, archs);
}

/// The bundle of `module` after the GPU pipeline to device code: its
/// launch plan and code objects. With `isa`, the first architecture's
/// assembly goes there; with `tilings`, each step's contraction signature
/// and tiling ("" where it computes none).
LogicalResult lowerToBundle(const CompileOptions &options, ModuleOp module,
                            const Interface &interface,
                            const GPUPipelineOptions &pipelineOptions,
                            const std::vector<std::string> &archs,
                            Stages *stages, bundle::Bundle &result,
                            llvm::raw_ostream *isa,
                            std::vector<TuningBuild::Step> *tilings,
                            llvm::raw_ostream &log) {
  PassManager pm(module.getContext());
  buildGPUPipeline(pm, pipelineOptions, GPUStage::Device);
  if (failed(pm.run(module)))
    return failure();

  aicc_target target =
      options.target == "rocm" ? AICC_TARGET_ROCM : AICC_TARGET_CUDA;
  result.producer = std::string("aicc ") + compilerVersion();
  if (auto name = module->getAttrOfType<StringAttr>("onnx.graph_name"))
    result.modelName = name.getValue().str();
  if (failed(describeLaunches(module, interface, target, result)))
    return failure();
  if (tilings) {
    auto main = module.lookupSymbol<func::FuncOp>("main");
    for (auto launch : main.getOps<mlir::gpu::LaunchFuncOp>()) {
      TuningBuild::Step step;
      if (auto signature =
              launch->getAttrOfType<StringAttr>("aicc.contraction"))
        step.signature = signature.getValue().str();
      if (auto tiling = launch->getAttrOfType<StringAttr>("aicc.tiling"))
        step.tiling = tiling.getValue().str();
      tilings->push_back(std::move(step));
    }
  }

  if (stages)
    stages->begin("device code generation");
  aicc::gpu::CodeGenOptions codegen;
  codegen.target = options.target;
  codegen.archs = archs;
  codegen.optLevel = options.optLevel;
  codegen.isa = isa;
  llvm::Expected<std::vector<aicc::gpu::CodeObject>> code =
      aicc::gpu::emitCodeObjects(module, codegen);
  if (!code) {
    log << "aicc: error: " << llvm::toString(code.takeError()) << "\n";
    return failure();
  }
  for (aicc::gpu::CodeObject &object : *code) {
    bundle::CodeObject entry;
    entry.target = object.target;
    entry.format = object.format;
    entry.arch = object.arch;
    entry.minDriver = object.minDriver;
    entry.image = std::move(object.image);
    result.codeObjects.push_back(std::move(entry));
  }
  if (result.codeObjects.empty() && !isa) {
    // A model with no work (an identity) still needs a code object for the
    // runtime to pick; this cannot happen while outputs are copied.
    log << "aicc: error: the model compiled to no kernels\n";
    return failure();
  }
  return success();
}

/// The model `options` names, imported into `context` (or parsed, for
/// MLIR input: tile or linalg IR with a `main`, how lit tests and
/// experiments feed hand-written IR to the pipeline).
OwningOpRef<ModuleOp> loadModel(MLIRContext &context,
                                const CompileOptions &options,
                                const ONNXImportOptions &importOptions) {
  if (llvm::StringRef(options.inputPath).ends_with(".mlir"))
    return parseSourceFile<ModuleOp>(options.inputPath, &context);
  return importONNXModel(context, options.inputPath, importOptions);
}

/// --autotune: the SIGNATURE=TILING choices measured on this machine's GPU
/// (or cached) for the model's contractions. Each variant is compiled in a
/// context of its own, from the model file, so that variants compile in
/// parallel.
llvm::Expected<std::vector<std::string>>
tuneTilings(const CompileOptions &options,
            const ONNXImportOptions &importOptions,
            const std::vector<std::string> &archs, llvm::raw_ostream &log) {
  TuningOptions tuning;
  tuning.cachePath = options.tileCache;
  tuning.archs = llvm::join(archs, ",");
  // wgmma kernels copy by TMA or by cp.async: tilings measured with one
  // say nothing of the other.
  if (usesWgmma(options, archs) && !options.tma)
    tuning.archs += " (cp.async)";
  auto build = [&](long candidate) -> llvm::Expected<TuningBuild> {
    DialectRegistry registry;
    registerAllDialects(registry);
    // Variants already run side by side: one thread each.
    MLIRContext context(registry, MLIRContext::Threading::DISABLED);
    context.printOpOnDiagnostic(false);
    std::string diagnostics;
    llvm::raw_string_ostream diagnosticStream(diagnostics);
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      printDiagnostic(d, diagnosticStream);
      return success();
    });
    auto failed = [&] {
      return llvm::createStringError("compiling tiling candidate " +
                                     std::to_string(candidate) +
                                     " failed: " + diagnostics);
    };
    OwningOpRef<ModuleOp> module = loadModel(context, options, importOptions);
    auto main =
        module ? module->lookupSymbol<func::FuncOp>("main") : func::FuncOp();
    if (!main)
      return failed();
    Interface interface = recordInterface(main);
    GPUPipelineOptions pipelineOptions;
    configureGPUPipeline(options, archs, pipelineOptions);
    pipelineOptions.tileCandidate = candidate;
    bundle::Bundle bundle;
    TuningBuild result;
    if (mlir::failed(lowerToBundle(options, *module, interface, pipelineOptions,
                                   archs, nullptr, bundle, nullptr,
                                   &result.steps, diagnosticStream)))
      return failed();
    llvm::SmallVector<char, 0> bytes;
    llvm::raw_svector_ostream os(bytes);
    if (llvm::Error error = bundle::writeBundle(bundle, os))
      return std::move(error);
    result.bundle.assign(bytes.begin(), bytes.end());
    return result;
  };
  return autotune(tuning, build, log);
}

/// The GPU targets' half of compile(): the GPU pipeline, the kernels'
/// code objects and the launch plan.
bool compileForGPU(const CompileOptions &options,
                   const ONNXImportOptions &importOptions, ModuleOp module,
                   const Interface &interface, Stages &stages,
                   llvm::raw_ostream &log) {
  auto fail = [&] {
    stages.report();
    return false;
  };
  std::vector<std::string> archs = options.gpuArchs.empty()
                                       ? aicc::gpu::defaultArchs(options.target)
                                       : options.gpuArchs;
  GPUPipelineOptions pipelineOptions;
  configureGPUPipeline(options, archs, pipelineOptions);
  if (options.autotune) {
    stages.begin("autotune");
    llvm::Expected<std::vector<std::string>> choices =
        tuneTilings(options, importOptions, archs, log);
    if (!choices) {
      log << "aicc: error: " << llvm::toString(choices.takeError()) << "\n";
      return fail();
    }
    pipelineOptions.tileChoices = llvm::ArrayRef<std::string>(*choices);
  }
  GPUStage stage = options.emit == EmitKind::Linalg ? GPUStage::Linalg
                   : options.emit == EmitKind::GPU  ? GPUStage::Kernels
                                                    : GPUStage::Device;
  if (stage != GPUStage::Device) {
    stages.begin(stage == GPUStage::Linalg ? "tile to linalg"
                                           : "tile to GPU kernels");
    PassManager pm(module.getContext());
    buildGPUPipeline(pm, pipelineOptions, stage);
    if (failed(pm.run(module)))
      return fail();
    return writeModuleStage(options, stages, module, log);
  }

  stages.begin("tile to device code");
  bundle::Bundle result;
  std::string isa;
  llvm::raw_string_ostream isaStream(isa);
  if (failed(lowerToBundle(
          options, module, interface, pipelineOptions, archs, &stages, result,
          options.emit == EmitKind::ISA ? &isaStream : nullptr, nullptr, log)))
    return fail();
  if (options.emit == EmitKind::ISA)
    return writeStage(
        options, stages, [&](llvm::raw_ostream &os) { os << isa; }, log);

  stages.begin("write bundle");
  if (llvm::Error error = bundle::writeBundleFile(result, options.outputPath)) {
    log << "aicc: error: " << llvm::toString(std::move(error)) << "\n";
    return fail();
  }
  stages.report();
  return true;
}

} // namespace

bool aicc::compile(const CompileOptions &options, llvm::raw_ostream &log) {
  bool gpu = options.target == "cuda" || options.target == "rocm";
  if (options.target != "cpu" && !gpu) {
    log << "aicc: error: unknown target '" << options.target
        << "'; this build supports: cpu, cuda, rocm\n";
    return false;
  }
  bool deviceEmit =
      options.emit == EmitKind::GPU || options.emit == EmitKind::ISA;
  if (deviceEmit && !gpu) {
    log << "aicc: error: --emit=gpu and --emit=isa are for the GPU targets\n";
    return false;
  }
  if (options.precision != "fp32" && options.precision != "fp16" &&
      options.precision != "bf16") {
    log << "aicc: error: --precision must be fp32, fp16 or bf16\n";
    return false;
  }
  if (options.autotune &&
      (options.target != "cuda" || options.emit != EmitKind::Bundle)) {
    log << "aicc: error: --autotune is for cuda bundles\n";
    return false;
  }
  if (options.autotune && !options.mmaTile.empty()) {
    log << "aicc: error: --autotune and --mma-tile exclude each other\n";
    return false;
  }
  if (!options.mmaTile.empty() && options.target != "cuda") {
    log << "aicc: error: --mma-tile is for the cuda target\n";
    return false;
  }
  if (options.precision != "fp32" && !gpu) {
    log << "aicc: error: --precision is for the GPU targets\n";
    return false;
  }
  if (options.allowTF32 &&
      (options.target != "cuda" || options.precision != "fp32")) {
    log << "aicc: error: --allow-tf32 is for the cuda target at "
           "--precision=fp32\n";
    return false;
  }
  // (The default architectures, sm_80 and sm_90, have tf32.)
  auto beforeAmpere = [](const std::string &arch) {
    llvm::StringRef digits(arch);
    unsigned number = 0;
    return !digits.consume_front("sm_") ||
           digits.take_while(llvm::isDigit).getAsInteger(10, number) ||
           number < 80;
  };
  if (options.allowTF32 && llvm::any_of(options.gpuArchs, beforeAmpere)) {
    log << "aicc: error: --allow-tf32 needs sm_80 or newer architectures\n";
    return false;
  }
  if (options.emit == EmitKind::LLVM && gpu) {
    log << "aicc: error: --emit=llvm is for the cpu target\n";
    return false;
  }
  if (options.optLevel > 3) {
    log << "aicc: error: the optimization level must be 0 to 3\n";
    return false;
  }
  if (options.emit == EmitKind::Bundle && options.outputPath == "-") {
    log << "aicc: error: a bundle cannot be written to stdout; use -o FILE\n";
    return false;
  }

  ONNXImportOptions importOptions;
  for (const std::string &shape : options.inputShapes)
    if (!parseInputShape(shape, importOptions)) {
      log << "aicc: error: --input-shape expects NAME=DxDx..., got '" << shape
          << "'\n";
      return false;
    }

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    printDiagnostic(d, log);
    return success();
  });

  Stages stages(options, log);
  auto fail = [&] {
    stages.report();
    return false;
  };

  stages.begin("import");
  OwningOpRef<ModuleOp> module = loadModel(context, options, importOptions);
  if (!module)
    return fail();
  if (options.emit == EmitKind::Tile)
    return writeModuleStage(options, stages, *module, log);

  // The interface as imported: names and element types (the lowering turns
  // unsigned types signless and drops shapes).
  auto main = module->lookupSymbol<func::FuncOp>("main");
  if (!main) {
    log << "aicc: error: the imported module has no 'main'\n";
    return fail();
  }
  Interface interface = recordInterface(main);
  if (failed(checkStaticInterface(interface)))
    return fail();

  if (gpu)
    return compileForGPU(options, importOptions, *module, interface, stages,
                         log);

  cpu::CodeGenOptions codegen;
  codegen.cpu = options.cpu;
  codegen.features = options.cpuFeatures;
  codegen.optLevel = options.optLevel;
  codegen.keepSymbols = options.keepSymbols;
  llvm::Expected<unsigned> vectorBits = cpu::vectorRegisterBits(codegen);
  if (!vectorBits) {
    log << "aicc: error: " << llvm::toString(vectorBits.takeError()) << "\n";
    return fail();
  }
  CPUPipelineOptions pipelineOptions;
  pipelineOptions.optLevel = options.optLevel;
  pipelineOptions.vectorBits = *vectorBits;
  pipelineOptions.channelsLast = options.channelsLast.value_or(false);
  stages.begin(options.emit == EmitKind::Linalg ? "tile to linalg"
                                                : "tile to LLVM dialect");
  PassManager pm(&context);
  buildCPUPipeline(pm, pipelineOptions,
                   options.emit == EmitKind::Linalg ? CPUStage::Linalg
                                                    : CPUStage::LLVM);
  if (failed(pm.run(*module)))
    return fail();
  if (options.emit == EmitKind::Linalg)
    return writeModuleStage(options, stages, *module, log);

  bundle::Bundle result;
  result.producer = std::string("aicc ") + compilerVersion();
  if (auto name = (*module)->getAttrOfType<StringAttr>("onnx.graph_name"))
    result.modelName = name.getValue().str();
  if (failed(describeInterface(*module, interface, result)))
    return fail();
  // The weight values now live in `result`; the code needs only pointers.
  module->walk([](LLVM::LLVMFuncOp func) {
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      func.removeArgAttr(i, "aicc.weight_value");
  });

  stages.begin("LLVM optimization and code generation");
  std::string llvmIR;
  llvm::raw_string_ostream llvmIRStream(llvmIR);
  if (options.emit == EmitKind::LLVM)
    codegen.llvmIR = &llvmIRStream;
  llvm::Expected<cpu::CodeObject> code = cpu::emitCodeObject(*module, codegen);
  if (!code) {
    log << "aicc: error: " << llvm::toString(code.takeError()) << "\n";
    return fail();
  }
  if (options.emit == EmitKind::LLVM)
    return writeStage(
        options, stages, [&](llvm::raw_ostream &os) { os << llvmIR; }, log);

  bundle::CodeObject object;
  object.target = AICC_TARGET_CPU_X86_64;
  object.format = AICC_CODE_ELF_SHARED_OBJECT;
  object.arch = code->cpu;
  object.requiredFeatures = code->requiredFeatures;
  object.image = std::move(code->image);
  result.codeObjects.push_back(std::move(object));

  stages.begin("write bundle");
  if (llvm::Error error = bundle::writeBundleFile(result, options.outputPath)) {
    log << "aicc: error: " << llvm::toString(std::move(error)) << "\n";
    return fail();
  }
  stages.report();
  return true;
}
