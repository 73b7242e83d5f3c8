//===- aicc.cpp - The aicc compiler driver --------------------------------===//
//
// aicc MODEL.onnx -o model.bin [--target=NAME] [-O0..-O3]
//      [--input-shape=NAME=DxD...] [--emit=STAGE]
//      [--timings] [--progress=auto|always|never]
//      [--OPTION=VALUE ...]   (the target's own options)
//      [--quantize=int8|fp8|int4-weight --calibration-data=DIR
//       --calibration-method=minmax|entropy|percentile --per-channel
//       --quantize-exclude=NODE,... --calibration-table=FILE]
// aicc --list-ops | --list-targets
//
// A thin main over the compiler library: it parses the options every
// compile has, hands the rest to the target's option parser, and calls
// aicc::compile. Exit status: 0 on success, 1 on any error.
//
//===----------------------------------------------------------------------===//

#include "aicc/Compiler/Compiler.h"
#include "aicc/Importer/ONNXImporter.h"
#include "aicc/InitAll.h"
#include "aicc/Quantize/Quantize.h"
#include "aicc/Target/Target.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {
cl::OptionCategory category("aicc options");

cl::opt<std::string> inputPath(cl::Positional, cl::desc("<model.onnx>"),
                               cl::cat(category));
cl::opt<std::string>
    outputPath("o",
               cl::desc("Output file (default: model.bin for bundles, "
                        "stdout for IR)"),
               cl::value_desc("file"), cl::cat(category));
cl::opt<std::string>
    emit("emit",
         cl::desc("Where to stop: bundle (model.bin, the default), tile (the "
                  "imported IR), or a stage of the target (--list-targets)"),
         cl::value_desc("stage"), cl::init("bundle"), cl::cat(category));
cl::opt<std::string> targetName("target",
                                cl::desc("The target (--list-targets; "
                                         "default cpu)"),
                                cl::value_desc("name"), cl::init("cpu"),
                                cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::desc("Optimization level (0-3, default 2)"),
                           cl::Prefix, cl::init(2), cl::cat(category));
// The targets list their option as --opt-level (aicc --list-targets); as
// an unknown option it would parse as a group of -o and other letters.
cl::alias optLevelLong("opt-level", cl::desc("Alias for -O"),
                       cl::aliasopt(optLevel), cl::cat(category));
cl::list<std::string>
    inputShapes("input-shape",
                cl::desc("Pin a graph input's shape: NAME=1x3x224x224 "
                         "(repeatable; NAME=scalar for rank 0)"),
                cl::value_desc("NAME=DxD..."), cl::cat(category));
cl::opt<bool> timings("timings", cl::desc("Print the time of each stage"),
                      cl::cat(category));
cl::opt<aicc::ProgressMode> progress(
    "progress", cl::desc("Stage progress lines on stderr"),
    cl::values(clEnumValN(aicc::ProgressMode::Auto, "auto",
                          "once a compile has run for a second (default)"),
               clEnumValN(aicc::ProgressMode::Always, "always", "always"),
               clEnumValN(aicc::ProgressMode::Never, "never", "never")),
    cl::init(aicc::ProgressMode::Auto), cl::cat(category));
cl::opt<aicc::QuantizeMode> quantize(
    "quantize", cl::desc("Post-training quantization"),
    cl::values(clEnumValN(aicc::QuantizeMode::None, "none",
                          "keep the model's precision (default)"),
               clEnumValN(aicc::QuantizeMode::Int8, "int8",
                          "int8 weights and uint8 activations (W8A8)"),
               clEnumValN(aicc::QuantizeMode::FP8, "fp8",
                          "float8 e4m3fn weights and activations, per tensor"),
               clEnumValN(aicc::QuantizeMode::Int4Weight, "int4-weight",
                          "4-bit MatMul/Gemm weights in groups, float "
                          "activations (W4A16)")),
    cl::init(aicc::QuantizeMode::None), cl::cat(category));
cl::opt<std::string> calibrationData(
    "calibration-data",
    cl::desc("Calibration samples: one folder per sample holding "
             "input_<k>.npy in graph-input order"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<aicc::CalibrationMethod> calibrationMethod(
    "calibration-method", cl::desc("How activation ranges are chosen"),
    cl::values(clEnumValN(aicc::CalibrationMethod::MinMax, "minmax",
                          "the observed minimum and maximum (default)"),
               clEnumValN(aicc::CalibrationMethod::Entropy, "entropy",
                          "the clipping that loses the least information"),
               clEnumValN(aicc::CalibrationMethod::Percentile, "percentile",
                          "clip at --calibration-percentile of |x|")),
    cl::init(aicc::CalibrationMethod::MinMax), cl::cat(category));
cl::opt<double> calibrationPercentile(
    "calibration-percentile",
    cl::desc("The share of |x| the percentile method keeps (default 99.99)"),
    cl::init(99.99), cl::cat(category));
cl::opt<bool> perChannel("per-channel",
                         cl::desc("int8 weights with a scale per output "
                                  "channel"),
                         cl::cat(category));
cl::list<std::string>
    quantizeExclude("quantize-exclude", cl::CommaSeparated,
                    cl::desc("Nodes (by name or output) left in float"),
                    cl::value_desc("node,..."), cl::cat(category));
cl::opt<std::string> calibrationTable(
    "calibration-table",
    cl::desc("Calibration ranges (JSON): read when it exists and no "
             "--calibration-data is given, else written"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<int64_t> quantizeBlockSize(
    "quantize-block-size",
    cl::desc("int4-weight: the group size along K (32, 64 or 128; default "
             "128)"),
    cl::init(128), cl::cat(category));
cl::opt<bool> listOps("list-ops",
                      cl::desc("Print the supported ONNX operators and exit"),
                      cl::cat(category));
cl::opt<bool> listTargets(
    "list-targets",
    cl::desc("Print the targets, their stages, options and limits, and exit"),
    cl::cat(category));
// Every other --OPTION[=VALUE] is the target's.
cl::list<std::string> targetArgs(cl::Sink);

/// The target's options as its parser takes them: "--precision=fp16" is
/// "precision=fp16".
std::vector<std::string> targetOptionArgs() {
  std::vector<std::string> args;
  for (StringRef arg : targetArgs)
    args.push_back(arg.ltrim('-').str());
  return args;
}

void printTargets(raw_ostream &os) {
  for (const aicc::Target *target : aicc::TargetRegistry::all()) {
    os << target->getName() << ": " << target->getDescription() << "\n";
    os << "  stages: " << aicc::emitChoices(*target) << "\n";
    std::unique_ptr<aicc::TargetOptions> options = target->createOptions();
    if (Expected<aicc::TargetLimits> limits = target->getLimits(*options)) {
      os << "  limits with the default options: " << limits->computeUnits
         << " compute units, " << limits->lanes << " lanes, "
         << limits->maxThreadsPerGroup << " threads a group, "
         << limits->localMemoryPerGroup << " bytes of local memory a group, "
         << limits->maxRegistersPerThread << " registers a thread\n";
    } else {
      os << "  limits: " << toString(limits.takeError()) << "\n";
    }
    os << "  options (--NAME=VALUE):\n";
    options->printHelp(4, options->getOptionWidth() + 6);
  }
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  aicc::registerAllTargets();
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "aicc " << aicc::compilerVersion() << "\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "aicc: an ahead-of-time compiler for ONNX models\n\n"
      "  Each target has options of its own, --NAME=VALUE; aicc "
      "--list-targets prints them.\n");

  if (listOps) {
    aicc::printSupportedONNXOps(outs());
    return 0;
  }
  if (listTargets) {
    printTargets(outs());
    return 0;
  }
  if (inputPath.empty()) {
    errs() << "aicc: error: no input model (see aicc --help)\n";
    return 1;
  }
  const aicc::Target *target = aicc::TargetRegistry::lookup(targetName);
  if (!target) {
    errs() << "aicc: error: unknown target '" << targetName
           << "'; this build has: " << aicc::TargetRegistry::names() << "\n";
    return 1;
  }
  std::vector<std::string> args = targetOptionArgs();
  Expected<std::unique_ptr<aicc::TargetOptions>> targetOptions =
      target->parseOptions(args);
  if (!targetOptions) {
    errs() << "aicc: error: " << toString(targetOptions.takeError())
           << " (aicc --list-targets prints each target's options)\n";
    return 1;
  }
  (*targetOptions)->optLevel = optLevel;

  aicc::CompileOptions options;
  options.inputPath = inputPath;
  options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
  if (quantize != aicc::QuantizeMode::None) {
    if (quantizeBlockSize != 32 && quantizeBlockSize != 64 &&
        quantizeBlockSize != 128) {
      errs() << "aicc: error: --quantize-block-size must be 32, 64 or 128\n";
      return 1;
    }
    if (!(calibrationPercentile > 50 && calibrationPercentile <= 100)) {
      errs() << "aicc: error: --calibration-percentile must be in (50, 100]\n";
      return 1;
    }
    aicc::QuantizeOptions q;
    q.mode = quantize;
    q.calibrationDir = calibrationData;
    q.method = calibrationMethod;
    q.percentile = calibrationPercentile;
    q.perChannel = perChannel;
    q.exclude.assign(quantizeExclude.begin(), quantizeExclude.end());
    q.tablePath = calibrationTable;
    q.blockSize = quantizeBlockSize;
    Expected<std::string> bytes = aicc::quantizeModel(options, q, errs());
    if (!bytes) {
      errs() << "aicc: error: " << toString(bytes.takeError()) << "\n";
      return 1;
    }
    options.modelBytes = std::move(*bytes);
  } else if (!calibrationData.empty() || !calibrationTable.empty()) {
    errs() << "aicc: error: --calibration-data and --calibration-table need "
              "--quantize\n";
    return 1;
  }
  if (emit == "onnx") {
    // The model as aicc would compile it (quantized by --quantize), as
    // ONNX for other tools.
    if (options.modelBytes.empty()) {
      errs() << "aicc: error: --emit=onnx writes the quantized model; it "
                "needs --quantize\n";
      return 1;
    }
    std::error_code ec;
    raw_fd_ostream os(outputPath.empty() ? "-" : outputPath.getValue(), ec,
                      sys::fs::OF_None);
    if (ec) {
      errs() << "aicc: error: cannot write '" << outputPath
             << "': " << ec.message() << "\n";
      return 1;
    }
    os << options.modelBytes;
    return 0;
  }
  options.emit = emit;
  if (!outputPath.empty())
    options.outputPath = outputPath;
  else
    options.outputPath = emit == "bundle" ? "model.bin" : "-";
  options.timings = timings;
  options.progress = progress;
  return aicc::compile(options, *target, **targetOptions, errs()) ? 0 : 1;
}
