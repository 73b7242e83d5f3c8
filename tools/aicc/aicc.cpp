//===- aicc.cpp - The aicc compiler driver --------------------------------===//
//
// aicc MODEL.onnx -o model.bin [--target=cpu|cuda|rocm] [--cpu=NAME]
//      [--gpu-arch=ARCH,...] [--precision=fp32|fp16|bf16] [--allow-tf32]
//      [-O0..-O3]
//      [--mma-tile=SHAPE | --autotune [--autotune-cache=FILE]]
//      [--input-shape=NAME=DxD...]
//      [--emit=bundle|tile|linalg|llvm|gpu|isa]
//      [--timings] [--progress=auto|always|never]
// aicc --list-ops
//
// A thin main over the compiler library: it parses options and calls
// aicc::compile. Exit status: 0 on success, 1 on any error.
//
//===----------------------------------------------------------------------===//

#include "aicc/Compiler/Compiler.h"
#include "aicc/Importer/ONNXImporter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
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
cl::opt<aicc::EmitKind>
    emit("emit", cl::desc("What to produce"),
         cl::values(clEnumValN(aicc::EmitKind::Bundle, "bundle",
                               "model.bin (the default)"),
                    clEnumValN(aicc::EmitKind::Tile, "tile",
                               "the imported tile-dialect IR"),
                    clEnumValN(aicc::EmitKind::Linalg, "linalg",
                               "linalg on tensors, before bufferization"),
                    clEnumValN(aicc::EmitKind::LLVM, "llvm",
                               "the optimized LLVM IR of the CPU code"),
                    clEnumValN(aicc::EmitKind::GPU, "gpu",
                               "GPU targets: the kernels and their "
                               "launches, before device lowering"),
                    clEnumValN(aicc::EmitKind::ISA, "isa",
                               "GPU targets: the first architecture's PTX "
                               "or AMDGPU assembly")),
         cl::init(aicc::EmitKind::Bundle), cl::cat(category));
cl::opt<std::string> target("target", cl::desc("Target: cpu, cuda or rocm"),
                            cl::init("cpu"), cl::cat(category));
cl::opt<std::string> precision(
    "precision",
    cl::desc("GPU targets: store an f32 model's weights and activations as "
             "fp32 (default), fp16 or bf16; accumulators, softmax and "
             "normalization statistics stay fp32"),
    cl::init("fp32"), cl::cat(category));
cl::opt<bool> allowTF32(
    "allow-tf32",
    cl::desc("cuda, --precision=fp32: run f32 matrix products and "
             "convolutions on the tensor cores in tf32 (operands rounded to "
             "10 mantissa bits, sums in f32; sm_80 and newer)"),
    cl::cat(category));
cl::opt<bool>
    tma("tma",
        cl::desc("cuda, --gpu-arch=sm_90a: wgmma kernels copy their operands "
                 "with the tensor memory accelerator where it can read them "
                 "(default; --tma=false: cp.async)"),
        cl::init(true), cl::cat(category));
cl::opt<bool> tileFuse(
    "tile-fuse",
    cl::desc("GPU targets: decide the fusion groups on tile IR, one region "
             "per kernel, which the kernel passes keep to (default; "
             "--tile-fuse=false: each kernel pass decides alone)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> fuseSiblings(
    "fuse-siblings",
    cl::desc("GPU targets: merge independent element-wise ops of one "
             "iteration space into one kernel where a traffic model says so "
             "(default; --fuse-siblings=false: one kernel each)"),
    cl::init(true), cl::cat(category));
cl::opt<std::string>
    mmaTile("mma-tile",
            cl::desc("cuda: the tiling of every tensor-core contraction, "
                     "BMxBNxBK[xSTAGES] (default: chosen per contraction); "
                     "with sm_90a, 128xBNx64xSTAGES for the wgmma ones"),
            cl::value_desc("shape"), cl::cat(category));
cl::opt<bool> channelsLast(
    "channels-last",
    cl::desc("Convolutions on channels-last (NHWC) images where their "
             "channels allow 16-byte reads, transposes cancelled along the "
             "graph (default: on for cuda above -O0; on cpu a check only)"),
    cl::cat(category));
cl::opt<bool> autotune(
    "autotune",
    cl::desc("cuda: time each tensor-core contraction's candidate tilings "
             "on this machine's GPU and use the fastest; the winners are "
             "kept in a cache (per contraction shape, device, driver and "
             "architectures) that later --autotune compiles reuse"),
    cl::cat(category));
cl::opt<std::string> tileCache(
    "autotune-cache",
    cl::desc("The --autotune cache file (default: $AICC_CACHE_DIR/tiles.tsv, "
             "$XDG_CACHE_HOME/aicc/tiles.tsv or ~/.cache/aicc/tiles.tsv)"),
    cl::value_desc("file"), cl::cat(category));
cl::list<std::string>
    gpuArchs("gpu-arch",
             cl::desc("GPU architectures, oldest first (cuda: default "
                      "sm_80,sm_90, sm_90a alone for wgmma on H100-class "
                      "GPUs; rocm: default gfx90a,gfx942)"),
             cl::CommaSeparated, cl::value_desc("arch,..."), cl::cat(category));
cl::opt<std::string>
    cpu("cpu",
        cl::desc("CPU to compile for: an LLVM x86 CPU name or 'native' "
                 "(default x86-64-v3: AVX2 and FMA)"),
        cl::init("x86-64-v3"), cl::cat(category));
cl::opt<std::string> cpuFeatures("cpu-features",
                                 cl::desc("Extra LLVM subtarget features, "
                                          "e.g. +avx512f"),
                                 cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::desc("Optimization level (0-3, default 2)"),
                           cl::Prefix, cl::init(2), cl::cat(category));
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
cl::opt<bool> keepSymbols(
    "keep-symbols",
    cl::desc("Keep function symbols in the code objects, for profilers; "
             "run with AICC_CODE_DIR set so that they can find them"),
    cl::cat(category));
cl::opt<bool> listOps("list-ops",
                      cl::desc("Print the supported ONNX operators and exit"),
                      cl::cat(category));
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "aicc " << aicc::compilerVersion() << "\n";
  });
  cl::ParseCommandLineOptions(argc, argv,
                              "aicc: an ahead-of-time compiler for ONNX "
                              "models\n");

  if (listOps) {
    aicc::printSupportedONNXOps(outs());
    return 0;
  }
  if (inputPath.empty()) {
    errs() << "aicc: error: no input model (see aicc --help)\n";
    return 1;
  }

  aicc::CompileOptions options;
  options.inputPath = inputPath;
  options.emit = emit;
  if (!outputPath.empty())
    options.outputPath = outputPath;
  else
    options.outputPath = emit == aicc::EmitKind::Bundle ? "model.bin" : "-";
  options.target = target;
  options.cpu = cpu;
  options.cpuFeatures = cpuFeatures;
  options.gpuArchs.assign(gpuArchs.begin(), gpuArchs.end());
  options.precision = precision;
  options.allowTF32 = allowTF32;
  options.tma = tma;
  options.fuseSiblings = fuseSiblings;
  options.tileFuse = tileFuse;
  options.mmaTile = mmaTile;
  options.autotune = autotune;
  if (channelsLast.getNumOccurrences())
    options.channelsLast = channelsLast;
  options.tileCache = tileCache;
  options.optLevel = optLevel;
  options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
  options.timings = timings;
  options.keepSymbols = keepSymbols;
  options.progress = progress;
  return aicc::compile(options, errs()) ? 0 : 1;
}
