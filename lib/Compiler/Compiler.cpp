//===- Compiler.cpp - ONNX model to model.bin -----------------------------===//

#include "aicc/Compiler/Compiler.h"
#include "llvm/Support/Path.h"

#include "aicc/Bundle/BundleWriter.h"
#include "aicc/Importer/ONNXImporter.h"
#include "aicc/InitAll.h"
#include "aicc/Target/ModelInterface.h"
#include "aicc/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

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

/// The model `options` names, imported into `context` (or parsed, for
/// MLIR input: tile or linalg IR with a `main`, how lit tests and
/// experiments feed hand-written IR to the pipeline).
OwningOpRef<ModuleOp> loadModel(MLIRContext &context,
                                const CompileOptions &options,
                                const ONNXImportOptions &importOptions) {
  if (!options.modelBytes.empty()) {
    llvm::StringRef dir = llvm::sys::path::parent_path(options.inputPath);
    return importONNXModelFromBuffer(context, options.modelBytes,
                                     dir.empty() ? "." : dir, options.inputPath,
                                     importOptions);
  }
  if (llvm::StringRef(options.inputPath).ends_with(".mlir"))
    return parseSourceFile<ModuleOp>(options.inputPath, &context);
  return importONNXModel(context, options.inputPath, importOptions);
}

/// The driver's side of a target's compile: stages, the log, and the
/// model imported again for targets that compile variants of it.
class DriverSession final : public CompileSession {
public:
  DriverSession(Stages &stages, llvm::raw_ostream &log,
                const CompileOptions &options,
                const ONNXImportOptions &importOptions)
      : stages(stages), stream(log), options(options),
        importOptions(importOptions) {}

  void beginStage(llvm::StringRef name) override { stages.begin(name); }
  llvm::raw_ostream &log() override { return stream; }
  OwningOpRef<ModuleOp> reload(MLIRContext &context) const override {
    return loadModel(context, options, importOptions);
  }

private:
  Stages &stages;
  llvm::raw_ostream &stream;
  const CompileOptions &options;
  const ONNXImportOptions &importOptions;
};

} // namespace

std::string aicc::emitChoices(const Target &target) {
  std::vector<std::string> names{"tile"};
  for (const EmitStage &stage : target.getEmitStages())
    names.push_back(stage.name.str());
  names.push_back("bundle");
  return llvm::join(names, ", ");
}

bool aicc::compile(const CompileOptions &options, const Target &target,
                   TargetOptions &targetOptions, llvm::raw_ostream &log) {
  const EmitStage *stage = target.findEmitStage(options.emit);
  if (!stage && options.emit != "bundle" && options.emit != "tile") {
    log << "aicc: error: the " << target.getName()
        << " target has no --emit=" << options.emit
        << " (it has: " << emitChoices(target) << ")\n";
    return false;
  }
  if (options.emit == "bundle" && options.outputPath == "-") {
    log << "aicc: error: a bundle cannot be written to stdout; use -o FILE\n";
    return false;
  }
  targetOptions.emit = stage ? stage->name.str() : "";
  if (llvm::Error error = target.verify(targetOptions)) {
    log << "aicc: error: " << llvm::toString(std::move(error)) << "\n";
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
  if (options.emit == "tile")
    return writeModuleStage(options, stages, *module, log);

  // The interface as imported: names and element types (the lowering turns
  // unsigned types signless and drops shapes).
  auto main = module->lookupSymbol<func::FuncOp>("main");
  if (!main) {
    log << "aicc: error: the imported module has no 'main'\n";
    return fail();
  }
  ModelInterface interface = recordInterface(main);
  if (failed(checkStaticInterface(interface)))
    return fail();

  if (stage && stage->ir) {
    stages.begin(("tile to " + stage->name).str());
    PassManager pm(&context);
    target.buildPipeline(pm, targetOptions);
    if (failed(pm.run(*module)))
      return fail();
    return writeModuleStage(options, stages, *module, log);
  }

  bundle::Bundle result;
  result.producer = std::string("aicc ") + compilerVersion();
  if (auto name = (*module)->getAttrOfType<StringAttr>("onnx.graph_name"))
    result.modelName = name.getValue().str();
  std::string text;
  llvm::raw_string_ostream textStream(text);
  DriverSession session(stages, log, options, importOptions);
  if (failed(target.emit(*module, targetOptions, interface, session, result,
                         stage ? &textStream : nullptr)))
    return fail();
  if (stage)
    return writeStage(
        options, stages, [&](llvm::raw_ostream &os) { os << text; }, log);

  stages.begin("write bundle");
  if (llvm::Error error = bundle::writeBundleFile(result, options.outputPath)) {
    log << "aicc: error: " << llvm::toString(std::move(error)) << "\n";
    return fail();
  }
  stages.report();
  return true;
}
