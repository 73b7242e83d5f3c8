//===- CodeGen.cpp - ROCm kernels to hsaco code objects -------------------===//

#include "../GPU/GPUTarget.h"

#include "aicc/Bundle/BundleWriter.h"
#include "aicc/Target/Tools.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVM/ROCDL/Utils.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace aicc;

namespace {
/// The ROCm device libraries (ocml, ockl and the oclc controls) of Debian's
/// rocm-device-libs, or $ROCM_PATH's; the folder holding amdgcn/bitcode.
llvm::Expected<std::string> findRocmDeviceLibs() {
  std::vector<std::string> roots;
  if (std::optional<std::string> value =
          llvm::sys::Process::GetEnv("ROCM_PATH"))
    if (!value->empty())
      roots.push_back(*value);
  if (roots.empty())
    roots = {"/usr/lib/x86_64-linux-gnu", "/opt/rocm"};
  for (const std::string &root : roots) {
    llvm::SmallString<128> ocml(root);
    llvm::sys::path::append(ocml, "amdgcn", "bitcode", "ocml.bc");
    if (llvm::sys::fs::exists(ocml))
      return root;
  }
  return llvm::createStringError(
      "the ROCm device libraries were not found (looked for "
      "amdgcn/bitcode/ocml.bc under " +
      llvm::join(roots, ", ") +
      "); install Debian's rocm-device-libs or set ROCM_PATH");
}

llvm::Expected<std::string> linkHsaco(llvm::ArrayRef<char> object,
                                      const std::string &lld,
                                      const std::string &arch) {
  return runFileTool(
      lld, llvm::StringRef(object.data(), object.size()), "o",
      [&](llvm::StringRef in, llvm::StringRef out) {
        return llvm::SmallVector<std::string>{lld, "-shared", in.str(), "-o",
                                              out.str()};
      },
      "linking the " + arch + " code object");
}

} // namespace

namespace aicc::rocm {
CodeObjectEmitter emitCodeObjects;
} // namespace aicc::rocm

llvm::Expected<std::vector<bundle::CodeObject>>
aicc::rocm::emitCodeObjects(::mlir::gpu::GPUModuleOp kernels,
                            llvm::ArrayRef<std::string> archs,
                            unsigned optLevel, llvm::raw_ostream *isa) {
  llvm::Expected<std::string> deviceLibs = findRocmDeviceLibs();
  if (!deviceLibs)
    return deviceLibs.takeError();
  // ld.lld turns an AMDGPU object into a loadable code object.
  llvm::Expected<std::string> lld = findLinker();
  if (!lld)
    return lld.takeError();
  MLIRContext *context = kernels.getContext();
  std::vector<bundle::CodeObject> objects;
  for (const std::string &arch : archs) {
    auto target = ROCDL::ROCDLTargetAttr::get(
        context, std::min(optLevel + 1, 3u), "amdgcn-amd-amdhsa", arch);
    ::mlir::gpu::TargetOptions targetOptions(
        *deviceLibs, {}, "", "", ::mlir::gpu::CompilationTarget::Assembly);
    std::optional<SmallVector<char, 0>> assembly =
        cast<::mlir::gpu::TargetAttrInterface>(target).serializeToObject(
            kernels, targetOptions);
    if (!assembly)
      return llvm::createStringError("generating AMDGPU code for " + arch +
                                     " failed");
    llvm::StringRef text(assembly->data(), assembly->size());
    if (isa) {
      *isa << text.rtrim('\0');
      return objects;
    }
    FailureOr<SmallVector<char, 0>> elf =
        ROCDL::assembleIsa(text, "amdgcn-amd-amdhsa", arch, "",
                           [&] { return kernels.emitError(); });
    if (failed(elf))
      return llvm::createStringError("assembling the " + arch + " code failed");
    llvm::Expected<std::string> hsaco = linkHsaco(*elf, *lld, arch);
    if (!hsaco)
      return hsaco.takeError();
    bundle::CodeObject object;
    object.target = AICC_TARGET_ROCM;
    object.format = AICC_CODE_HSACO;
    object.arch = arch;
    object.image = std::move(*hsaco);
    objects.push_back(std::move(object));
  }
  return objects;
}

namespace aicc::rocm {
void registerCodeGenDialects(DialectRegistry &registry) {
  registry.insert<ROCDL::ROCDLDialect, amdgpu::AMDGPUDialect>();
  registerROCDLDialectTranslation(registry);
  ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
}
} // namespace aicc::rocm
