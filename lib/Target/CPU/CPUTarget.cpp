//===- CPUTarget.cpp - The host CPU target --------------------------------===//

#include "aicc/Target/CPU/CPUTarget.h"

#include "aicc/Bundle/BundleWriter.h"
#include "aicc/Target/CPU/CodeGen.h"
#include "aicc/Target/CPU/Passes.h"
#include "aicc/Target/ModelInterface.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace aicc;

cpu::CodeGenOptions aicc::codeGenOptions(const CPUTargetOptions &options) {
  cpu::CodeGenOptions codegen;
  codegen.cpu = options.cpu;
  codegen.features = options.cpuFeatures;
  codegen.optLevel = options.optLevel;
  codegen.keepSymbols = options.keepSymbols;
  return codegen;
}

namespace {
constexpr EmitStage kStages[] = {
    {"linalg", "linalg on tensors, before bufferization", true},
    {"llvm", "the optimized LLVM IR of the host code", false},
};

/// A vector register's 32-bit lanes and the registers of `options`' CPU.
/// The cores are the machine's that runs the bundle, known then.
llvm::Expected<TargetLimits> cpuLimits(const CPUTargetOptions &options) {
  llvm::Expected<unsigned> bits =
      cpu::vectorRegisterBits(codeGenOptions(options));
  if (!bits)
    return bits.takeError();
  TargetLimits limits;
  limits.lanes = *bits / 32;
  limits.maxThreadsPerGroup = 1;
  limits.maxThreadsPerUnit = 1;
  limits.registersPerUnit = *bits >= 512 ? 32 : 16;
  return limits;
}

/// The CPU bundle's tensors and its one step: the whole model as one call
/// of `aicc_entry`.
LogicalResult describeEntry(ModuleOp module, const ModelInterface &interface,
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

class CPUTarget final : public Target {
public:
  StringRef getName() const override { return "cpu"; }
  StringRef getDescription() const override {
    return "x86-64 host code, run on the runtime's thread pool";
  }
  aicc_target getBundleTarget() const override {
    return AICC_TARGET_CPU_X86_64;
  }
  ArrayRef<EmitStage> getEmitStages() const override { return kStages; }

  void registerPasses() const override {
    static const bool once = (cpu::registerAICCCPUPasses(), true);
    (void)once;
  }

  std::unique_ptr<TargetOptions> createOptions() const override {
    return std::make_unique<CPUTargetOptions>();
  }

  llvm::Error verifyOptions(const TargetOptions &base) const override {
    const auto &options = static_cast<const CPUTargetOptions &>(base);
    // An unknown CPU or feature is refused here, before any work.
    return cpu::vectorRegisterBits(codeGenOptions(options)).takeError();
  }

  llvm::Expected<TargetLimits>
  getLimits(const TargetOptions &options) const override {
    return cpuLimits(static_cast<const CPUTargetOptions &>(options));
  }

  void buildPipeline(OpPassManager &pm,
                     const TargetOptions &base) const override {
    const auto &options = static_cast<const CPUTargetOptions &>(base);
    // verify() has refused a CPU LLVM does not know.
    buildCPUPipeline(pm, options, llvm::cantFail(cpuLimits(options)));
  }

  LogicalResult emit(ModuleOp module, const TargetOptions &base,
                     const ModelInterface &interface, CompileSession &session,
                     bundle::Bundle &result,
                     llvm::raw_ostream *text) const override {
    const auto &options = static_cast<const CPUTargetOptions &>(base);
    session.beginStage("tile to LLVM dialect");
    PassManager pm(module.getContext());
    buildPipeline(pm, options);
    if (failed(pm.run(module)))
      return failure();
    if (failed(describeEntry(module, interface, result)))
      return failure();
    // The weight values now live in `result`; the code needs only pointers.
    module->walk([](LLVM::LLVMFuncOp func) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        func.removeArgAttr(i, "aicc.weight_value");
    });

    session.beginStage("LLVM optimization and code generation");
    cpu::CodeGenOptions codegen = codeGenOptions(options);
    codegen.llvmIR = text;
    llvm::Expected<cpu::CodeObject> code = cpu::emitCodeObject(module, codegen);
    if (!code) {
      session.log() << "aicc: error: " << llvm::toString(code.takeError())
                    << "\n";
      return failure();
    }
    bundle::CodeObject object;
    object.target = AICC_TARGET_CPU_X86_64;
    object.format = AICC_CODE_ELF_SHARED_OBJECT;
    object.arch = code->cpu;
    object.requiredFeatures = code->requiredFeatures;
    object.image = std::move(code->image);
    result.codeObjects.push_back(std::move(object));
    return success();
  }
};
} // namespace

void aicc::registerCPUTarget() {
  TargetRegistry::add(std::make_unique<CPUTarget>());
}
