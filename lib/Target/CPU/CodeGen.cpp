//===- CodeGen.cpp - Host code objects from the LLVM dialect --------------===//

#include "aicc/Target/CPU/CodeGen.h"
#include "aicc/Target/Tools.h"

#include "aicc/bundle_format.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace aicc;
using llvm::Error;
using llvm::Expected;

namespace {
void initializeX86() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
  });
}

/// The host's features as an LLVM feature string.
std::string hostFeatures() {
  std::string features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures()) {
    if (!features.empty())
      features += ",";
    features += (feature.second ? "+" : "-") + feature.first().str();
  }
  return features;
}

/// The bundle's feature bits the subtarget may use.
uint64_t requiredFeatureBits(const llvm::MCSubtargetInfo &subtarget) {
  uint64_t bits = 0;
#define AICC_CHECK_FEATURE(name, bit, string)                                  \
  if (subtarget.checkFeatures("+" string))                                     \
    bits |= uint64_t(1) << bit;
  AICC_CPU_FEATURES(AICC_CHECK_FEATURE)
#undef AICC_CHECK_FEATURE
  return bits;
}

Expected<std::string> link(llvm::StringRef object,
                           const cpu::CodeGenOptions &options) {
  Expected<std::string> linker = findLinker(options.linker);
  if (!linker)
    return linker.takeError();
  // Only aicc_entry is exported; the image needs nothing from the loading
  // process beyond libc and libm symbols.
  return runFileTool(
      *linker, object, "o",
      [&](llvm::StringRef in, llvm::StringRef out) {
        llvm::SmallVector<std::string> args = {*linker,
                                               "-shared",
                                               "--gc-sections",
                                               "--hash-style=gnu",
                                               "--build-id=none",
                                               "-z",
                                               "noexecstack",
                                               "-z",
                                               "now",
                                               "-z",
                                               "relro",
                                               "-o",
                                               out.str(),
                                               in.str()};
        if (!options.keepSymbols)
          args.push_back("--strip-all");
        return args;
      },
      "linking the CPU code object");
}
} // namespace

namespace {
/// The target machine for `options`, with "native" resolved.
Expected<std::unique_ptr<llvm::TargetMachine>>
createMachine(const cpu::CodeGenOptions &options, std::string &cpuName,
              std::string &features) {
  initializeX86();
  if (options.optLevel > 3)
    return llvm::createStringError("optimization level must be 0 to 3");
  llvm::Triple triple("x86_64-unknown-linux-gnu");
  cpuName = options.cpu;
  features = options.features;
  if (cpuName == "native") {
    cpuName = llvm::sys::getHostCPUName().str();
    std::string host = hostFeatures();
    features = features.empty() ? host : host + "," + features;
  }
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    return llvm::createStringError("no x86-64 backend: " + lookupError);
  llvm::TargetOptions targetOptions;
  // Multiply-adds become FMAs, as -ffp-contract=fast does: one rounding
  // instead of two, and the micro-kernels' throughput doubles.
  targetOptions.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  static const llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpuName, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      levels[options.optLevel]));
  if (!machine)
    return llvm::createStringError("cannot create a target machine for CPU '" +
                                   cpuName + "'");
  if (!machine->getMCSubtargetInfo()->isCPUStringValid(cpuName))
    return llvm::createStringError(
        "unknown CPU '" + cpuName +
        "'; use an LLVM x86 CPU name such as x86-64-v3, "
        "skylake-avx512 or sapphirerapids, or 'native'");
  return machine;
}
} // namespace

Expected<unsigned> cpu::vectorRegisterBits(const CodeGenOptions &options) {
  std::string cpuName, features;
  auto machine = createMachine(options, cpuName, features);
  if (!machine)
    return machine.takeError();
  const llvm::MCSubtargetInfo *subtarget = (*machine)->getMCSubtargetInfo();
  if (subtarget->checkFeatures("+avx512f"))
    return 512;
  if (subtarget->checkFeatures("+avx2"))
    return 256;
  return 128;
}

Expected<unsigned> cpu::vnniBits(const CodeGenOptions &options) {
  std::string cpuName, features;
  auto machine = createMachine(options, cpuName, features);
  if (!machine)
    return machine.takeError();
  const llvm::MCSubtargetInfo *subtarget = (*machine)->getMCSubtargetInfo();
  if (subtarget->checkFeatures("+avx512vnni,+avx512f,+avx512bw"))
    return 512;
  if (subtarget->checkFeatures("+avxvnni") ||
      subtarget->checkFeatures("+avx512vnni,+avx512vl"))
    return 256;
  return 0;
}

Expected<cpu::CodeObject> cpu::emitCodeObject(mlir::Operation *module,
                                              const CodeGenOptions &options) {
  std::string cpuName, features;
  auto created = createMachine(options, cpuName, features);
  if (!created)
    return created.takeError();
  std::unique_ptr<llvm::TargetMachine> machine = std::move(*created);
  llvm::Triple triple = machine->getTargetTriple();
  const llvm::MCSubtargetInfo *subtarget = machine->getMCSubtargetInfo();

  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "aicc");
  if (!llvmModule)
    return llvm::createStringError(
        "translating the LLVM dialect to LLVM IR failed");
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());
  // Every defined function: no unwinding, no frame pointer needs.
  for (llvm::Function &function : *llvmModule)
    if (!function.isDeclaration()) {
      function.addFnAttr(llvm::Attribute::NoUnwind);
      function.addFnAttr("target-cpu", cpuName);
      if (!features.empty())
        function.addFnAttr("target-features", features);
    }

  auto optimize =
      mlir::makeOptimizingTransformer(options.optLevel,
                                      /*sizeLevel=*/0, machine.get());
  if (Error error = optimize(llvmModule.get()))
    return std::move(error);
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return llvm::createStringError("the optimized LLVM IR does not verify");
  if (options.llvmIR)
    llvmModule->print(*options.llvmIR, nullptr);

  llvm::SmallString<0> object;
  {
    llvm::raw_svector_ostream stream(object);
    llvm::legacy::PassManager passes;
    if (machine->addPassesToEmitFile(passes, stream, nullptr,
                                     llvm::CodeGenFileType::ObjectFile))
      return llvm::createStringError("the x86-64 backend cannot emit objects");
    passes.run(*llvmModule);
  }

  Expected<std::string> image = link(object, options);
  if (!image)
    return image.takeError();
  CodeObject result;
  result.triple = triple.str();
  result.cpu = cpuName;
  result.requiredFeatures = requiredFeatureBits(*subtarget);
  result.image = std::move(*image);
  return result;
}
