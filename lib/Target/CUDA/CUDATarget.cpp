//===- CUDATarget.cpp - NVIDIA GPUs ---------------------------------------===//
//
// `--target=cuda`: the shared GPU pipeline with tensor-core contractions
// (mma.sync with ldmatrix and cp.async; wgmma fed by TMA on sm_90a),
// attention as one kernel, NVVM, and cubins from ptxas with PTX of the
// newest architecture. `--autotune` measures the contractions' candidate
// tilings on this machine's GPU.
//
//===----------------------------------------------------------------------===//

#include "../GPU/GPUTarget.h"
#include "../GPU/Transforms/Limits.h"
#include "Autotune.h"

#include "aicc/Bundle/BundleWriter.h"
#include "aicc/Target/GPU/Passes.h"
#include "aicc/Target/ModelInterface.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace aicc;

namespace aicc::cuda {
/// lib/Target/CUDA/CodeGen.cpp.
CodeObjectEmitter emitCodeObjects;
/// The dialects, translations and target interfaces the code generator
/// (lib/Target/CUDA/CodeGen.cpp) serializes the kernels through.
void registerCodeGenDialects(DialectRegistry &registry);
} // namespace aicc::cuda

namespace {
struct CUDATargetOptions : public GPUTargetOptions,
                           public PassPipelineOptions<CUDATargetOptions> {
  CUDATargetOptions() {
    // Channels-last convolutions pay on NVIDIA's tensor cores.
    channelsLast.setInitialValue(true);
  }
  Option<bool> allowTF32{
      *this, "allow-tf32",
      llvm::cl::desc("With --precision=fp32: f32 matrix products and "
                     "convolutions on the tensor cores in tf32 (operands "
                     "rounded to 10 mantissa bits, sums in f32; sm_80 and "
                     "newer)"),
      llvm::cl::init(false)};
  Option<bool> tma{
      *this, "tma",
      llvm::cl::desc("sm_90a: wgmma kernels copy their operands with the "
                     "tensor memory accelerator where it can read them "
                     "(false: cp.async)"),
      llvm::cl::init(true)};
  Option<std::string> mmaTile{
      *this, "mma-tile",
      llvm::cl::desc("The tiling of every tensor-core contraction, "
                     "BMxBNxBK[xSTAGES] (default: chosen per contraction); "
                     "with sm_90a, 128xBNx64xSTAGES for the wgmma ones"),
      llvm::cl::init("")};
  Option<bool> autotune{
      *this, "autotune",
      llvm::cl::desc("Time each tensor-core contraction's candidate tilings "
                     "on this machine's GPU and use the fastest; the winners "
                     "are kept in a cache (per contraction shape, device, "
                     "driver and architectures) that later compiles reuse"),
      llvm::cl::init(false)};
  Option<std::string> autotuneCache{
      *this, "autotune-cache",
      llvm::cl::desc("The --autotune cache file (default: "
                     "$AICC_CACHE_DIR/tiles.tsv, $XDG_CACHE_HOME/aicc/"
                     "tiles.tsv or ~/.cache/aicc/tiles.tsv)"),
      llvm::cl::init("")};
  Option<int64_t> tileCandidate{
      *this, "tile-candidate",
      llvm::cl::desc("Each contraction's N-th candidate tiling (the "
                     "variants --autotune compiles; -1: the chosen one)"),
      llvm::cl::init(-1)};
  ListOption<std::string> tileChoices{
      *this, "tile-choices",
      llvm::cl::desc("SIGNATURE=TILING entries: the tilings --autotune "
                     "measured fastest")};
};

class CUDATarget final : public GPUTarget {
public:
  void registerDialects(DialectRegistry &registry) const override {
    GPUTarget::registerDialects(registry);
    cuda::registerCodeGenDialects(registry);
  }
  void registerPasses() const override {
    GPUTarget::registerPasses();
    mlir::registerConvertGpuOpsToNVVMOps();
  }
  StringRef getName() const override { return "cuda"; }
  StringRef getDescription() const override {
    return "NVIDIA GPUs: cubins per architecture and PTX, CUDA graphs";
  }
  aicc_target getBundleTarget() const override { return AICC_TARGET_CUDA; }
  std::unique_ptr<TargetOptions> createOptions() const override {
    return std::make_unique<CUDATargetOptions>();
  }

  LogicalResult emit(ModuleOp module, const TargetOptions &base,
                     const ModelInterface &interface, CompileSession &session,
                     bundle::Bundle &result,
                     llvm::raw_ostream *text) const override {
    const auto &options = static_cast<const CUDATargetOptions &>(base);
    if (!options.autotune)
      return GPUTarget::emit(module, options, interface, session, result, text);
    session.beginStage("autotune");
    llvm::Expected<std::vector<std::string>> choices =
        tune(module, options, interface, session);
    if (!choices) {
      session.log() << "aicc: error: " << llvm::toString(choices.takeError())
                    << "\n";
      return failure();
    }
    CUDATargetOptions tuned;
    tuned.copyOptionValuesFrom(options);
    tuned.tileChoices = ArrayRef<std::string>(*choices);
    return GPUTarget::emit(module, tuned, interface, session, result, text);
  }

protected:
  aicc::gpu::Vendor getVendor() const override {
    return aicc::gpu::Vendor::nvidia;
  }

  llvm::Error verifyTargetOptions(const GPUTargetOptions &base) const override {
    const auto &options = static_cast<const CUDATargetOptions &>(base);
    if (options.autotune && !options.emit.empty())
      return llvm::createStringError("--autotune is for bundles");
    if (options.autotune && !options.mmaTile.empty())
      return llvm::createStringError(
          "--autotune and --mma-tile exclude each other");
    if (options.allowTF32 && options.precision != Precision::FP32)
      return llvm::createStringError("--allow-tf32 is for --precision=fp32");
    // (The default architectures, sm_80 and sm_90, have tf32.)
    if (options.allowTF32 &&
        llvm::any_of(options.gpuArchs, [](const std::string &arch) {
          return *aicc::gpu::nvidiaArchNumber(arch) < 80;
        }))
      return llvm::createStringError(
          "--allow-tf32 needs sm_80 or newer architectures");
    return llvm::Error::success();
  }

  /// Attention with half operands, above -O0.
  bool fusesAttention(const GPUTargetOptions &options) const override {
    return options.precision != Precision::FP32 && options.optLevel > 0;
  }

  /// fp8 on wgmma (sm_90a).
  bool multipliesFloat8(const GPUTargetOptions &options) const override {
    return usesWgmma(static_cast<const CUDATargetOptions &>(options));
  }

  void configureTileSelection(
      const GPUTargetOptions &base,
      aicc::gpu::GPUChooseTilesPassOptions &choose) const override {
    const auto &options = static_cast<const CUDATargetOptions &>(base);
    choose.operandType = operandType(options);
    choose.tile = options.mmaTile;
    choose.wgmma = usesWgmma(options);
    choose.candidate = options.tileCandidate;
    choose.choices.assign(options.tileChoices.begin(),
                          options.tileChoices.end());
    choose.attention = fusesAttention(options);
  }

  void addMatrixKernels(OpPassManager &pm,
                        const GPUTargetOptions &base) const override {
    const auto &options = static_cast<const CUDATargetOptions &>(base);
    if (fusesAttention(options))
      pm.addNestedPass<func::FuncOp>(aicc::gpu::createGPUFlashAttentionPass());
    aicc::gpu::GPUMMAMatmulPassOptions mma;
    mma.operandType = operandType(options);
    mma.wgmma = usesWgmma(options);
    mma.tma = options.tma;
    pm.addNestedPass<func::FuncOp>(aicc::gpu::createGPUMMAMatmulPass(mma));
  }

  void addDeviceLowering(OpPassManager &device,
                         const GPUTargetOptions &options) const override {
    // f32 math that only feeds half values: exponentials as one ex2.approx,
    // divisions by constants as products.
    if (options.optLevel > 0)
      device.addPass(aicc::gpu::createGPUHalfMathPass());
    device.addPass(createConvertNVGPUToNVVMPass());
    ConvertGpuOpsToNVVMOpsOptions nvvm;
    nvvm.useBarePtrCallConv = true;
    device.addPass(createConvertGpuOpsToNVVMOps(nvvm));
    // NVVM ops that translate as inline PTX (wgmma and its fences).
    device.addPass(createConvertNVVMToLLVMPass());
  }

  CodeObjectEmitter *getCodeObjectEmitter() const override {
    return cuda::emitCodeObjects;
  }

private:
  /// Tensor cores for half operands, for f32 ones stored half, and for f32
  /// ones in tf32 when allowed.
  static std::string operandType(const CUDATargetOptions &options) {
    switch (options.precision) {
    case Precision::FP16:
      return "f16";
    case Precision::BF16:
      return "bf16";
    case Precision::FP32:
      break;
    }
    return options.allowTF32 ? "tf32" : "";
  }

  /// Whether the kernels use wgmma: it exists on sm_90a alone, so only
  /// when every cubin is for that architecture (no PTX for other GPUs goes
  /// with them).
  bool usesWgmma(const CUDATargetOptions &options) const {
    return llvm::all_of(archsOf(options), [](const std::string &arch) {
      return arch == "sm_90a";
    });
  }

  /// --autotune: the SIGNATURE=TILING choices measured on this machine's
  /// GPU (or cached) for the model's contractions. Each variant is compiled
  /// in a context of its own, from the model file, so that variants
  /// compile in parallel.
  llvm::Expected<std::vector<std::string>>
  tune(ModuleOp module, const CUDATargetOptions &options,
       const ModelInterface &interface, CompileSession &session) const {
    std::vector<std::string> archs = archsOf(options);
    TuningOptions tuning;
    tuning.cachePath = options.autotuneCache;
    tuning.archs = llvm::join(archs, ",");
    // wgmma kernels copy by TMA or by cp.async: tilings measured with one
    // say nothing of the other.
    if (usesWgmma(options) && !options.tma)
      tuning.archs += " (cp.async)";
    const DialectRegistry &registry = module.getContext()->getDialectRegistry();
    auto build = [&](long candidate) -> llvm::Expected<TuningBuild> {
      // Variants already run side by side: one thread each.
      MLIRContext context(registry, MLIRContext::Threading::DISABLED);
      context.printOpOnDiagnostic(false);
      std::string diagnostics;
      ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
        diagnostics += d.str() + "\n";
        return success();
      });
      auto failed = [&] {
        return llvm::createStringError("compiling tiling candidate " +
                                       std::to_string(candidate) +
                                       " failed: " + diagnostics);
      };
      OwningOpRef<ModuleOp> variant = session.reload(context);
      if (!variant)
        return failed();
      CUDATargetOptions variantOptions;
      variantOptions.copyOptionValuesFrom(options);
      variantOptions.tileCandidate = candidate;
      bundle::Bundle bundle;
      TuningBuild result;
      if (mlir::failed(lowerToBundle(*variant, variantOptions, interface,
                                     nullptr, bundle, nullptr, &result.steps)))
        return failed();
      llvm::SmallVector<char, 0> bytes;
      llvm::raw_svector_ostream os(bytes);
      if (llvm::Error error = bundle::writeBundle(bundle, os))
        return std::move(error);
      result.bundle.assign(bytes.begin(), bytes.end());
      return result;
    };
    return autotune(tuning, build, session.log());
  }
};
} // namespace

namespace aicc {
void registerCUDATarget();
} // namespace aicc

void aicc::registerCUDATarget() {
  TargetRegistry::add(std::make_unique<CUDATarget>());
}
