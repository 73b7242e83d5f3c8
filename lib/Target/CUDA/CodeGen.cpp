//===- CodeGen.cpp - CUDA kernels to cubins and PTX -----------------------===//

#include "../GPU/GPUTarget.h"

#include "aicc/Bundle/BundleWriter.h"
#include "aicc/Target/Tools.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <future>

using namespace mlir;
using namespace aicc;

namespace {
/// The CUDA toolkit: $CUDA_PATH, else $CUDA_HOME, when set; else
/// /usr/local/cuda or the folder above the ptxas on PATH.
struct CudaToolkit {
  std::string ptxas;
  std::string libdevice;
};

llvm::Expected<CudaToolkit> findCudaToolkit() {
  std::vector<std::string> roots;
  for (const char *variable : {"CUDA_PATH", "CUDA_HOME"}) {
    std::optional<std::string> value = llvm::sys::Process::GetEnv(variable);
    if (value && !value->empty()) {
      roots.push_back(*value);
      break;
    }
  }
  if (roots.empty()) {
    roots.push_back("/usr/local/cuda");
    if (llvm::ErrorOr<std::string> onPath =
            llvm::sys::findProgramByName("ptxas"))
      roots.push_back(
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(*onPath))
              .str());
  }
  for (const std::string &root : roots) {
    llvm::SmallString<128> ptxas(root), libdevice(root);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::can_execute(ptxas) && llvm::sys::fs::exists(libdevice))
      return CudaToolkit{ptxas.str().str(), libdevice.str().str()};
  }
  return llvm::createStringError(
      "the CUDA toolkit was not found (looked for bin/ptxas and "
      "nvvm/libdevice/libdevice.10.bc under " +
      llvm::join(roots, ", ") + "); install it or set CUDA_PATH to its folder");
}

/// The CUDA driver version (cuDriverGetVersion's encoding) that first
/// JIT-compiles PTX of ISA version `major`.`minor`.
uint32_t driverForPtx(unsigned major, unsigned minor) {
  if (major >= 9)
    return 13000 + (major - 9) * 1000 + minor * 10;
  if (major == 8)
    return minor <= 5 ? 12000 + minor * 10 : 12070 + (minor - 6) * 10;
  if (major == 7)
    return 11000 + minor * 10;
  return 10000;
}

/// The `.version X.Y` of a PTX text, as the driver version it needs.
uint32_t ptxDriverVersion(llvm::StringRef ptx) {
  size_t at = ptx.find(".version ");
  if (at == llvm::StringRef::npos)
    return 0;
  llvm::StringRef version =
      ptx.drop_front(at + 9).take_until([](char c) { return c == '\n'; });
  auto [majorText, minorText] = version.trim().split('.');
  unsigned major = 0, minor = 0;
  if (majorText.getAsInteger(10, major) || minorText.getAsInteger(10, minor))
    return 0;
  return driverForPtx(major, minor);
}

/// Whether `kernels` multiply u8 by s8 (or s8 by u8) on wgmma, which PTX
/// has from ISA 8.4 on (the wgmma op is inline PTX by now).
bool mixesIntegerWgmma(::mlir::gpu::GPUModuleOp kernels) {
  bool mixed = false;
  kernels.walk([&](LLVM::InlineAsmOp asmOp) {
    StringRef text = asmOp.getAsmString();
    if (text.contains("wgmma.mma_async") &&
        (text.contains(".u8.s8") || text.contains(".s8.u8")))
      mixed = true;
  });
  return mixed;
}

/// PTX of `kernels` for `arch` (sm_XY) through the NVVM target: ISA 8.0,
/// or 8.4 where the kernels need it (mixesIntegerWgmma); the bundle's
/// driver requirement follows from the version (ptxDriverVersion).
llvm::Expected<std::string> emitPtx(::mlir::gpu::GPUModuleOp kernels,
                                    const std::string &arch,
                                    const CudaToolkit &toolkit,
                                    unsigned optLevel) {
  MLIRContext *context = kernels.getContext();
  auto target = NVVM::NVVMTargetAttr::get(
      context, std::min(optLevel + 1, 3u), "nvptx64-nvidia-cuda", arch,
      mixesIntegerWgmma(kernels) ? "+ptx84" : "+ptx80");
  SmallVector<Attribute> libraries = {
      StringAttr::get(context, toolkit.libdevice)};
  ::mlir::gpu::TargetOptions options(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(toolkit.ptxas)),
      libraries, /*cmdOptions=*/"", /*elfSection=*/"",
      ::mlir::gpu::CompilationTarget::Assembly);
  std::optional<SmallVector<char, 0>> ptx =
      cast<::mlir::gpu::TargetAttrInterface>(target).serializeToObject(kernels,
                                                                       options);
  if (!ptx)
    return llvm::createStringError("generating PTX for " + arch + " failed");
  std::string text(ptx->begin(), ptx->end());
  while (!text.empty() && text.back() == '\0')
    text.pop_back();
  return text;
}

llvm::Expected<std::string> assemblePtx(const std::string &ptx,
                                        const std::string &arch,
                                        const CudaToolkit &toolkit) {
  return runFileTool(
      toolkit.ptxas, ptx, "ptx",
      [&](llvm::StringRef in, llvm::StringRef out) {
        return llvm::SmallVector<std::string>{
            toolkit.ptxas, "-arch=" + arch, "-O3", in.str(), "-o", out.str()};
      },
      "ptxas (" + toolkit.ptxas + ") for " + arch);
}

} // namespace

namespace aicc::cuda {
CodeObjectEmitter emitCodeObjects;
} // namespace aicc::cuda

llvm::Expected<std::vector<bundle::CodeObject>>
aicc::cuda::emitCodeObjects(::mlir::gpu::GPUModuleOp kernels,
                            llvm::ArrayRef<std::string> archs,
                            unsigned optLevel, llvm::raw_ostream *isa) {
  llvm::Expected<CudaToolkit> toolkit = findCudaToolkit();
  if (!toolkit)
    return toolkit.takeError();
  std::vector<bundle::CodeObject> objects;
  std::string newestPtx;
  // ptxas runs as its own process: each architecture's assembly overlaps
  // LLVM's PTX generation for the next one. Objects keep the order of the
  // architectures.
  std::vector<std::future<llvm::Expected<std::string>>> cubins;
  auto collect = [&]() -> llvm::Error {
    llvm::Error failure = llvm::Error::success();
    for (auto [arch, cubin] : llvm::zip(archs, cubins)) {
      llvm::Expected<std::string> code = cubin.get();
      if (!code) {
        failure = llvm::joinErrors(std::move(failure), code.takeError());
        continue;
      }
      bundle::CodeObject object;
      object.target = AICC_TARGET_CUDA;
      object.format = AICC_CODE_CUBIN;
      object.arch = arch;
      object.image = std::move(*code);
      objects.push_back(std::move(object));
    }
    return failure;
  };
  for (const std::string &arch : archs) {
    llvm::Expected<std::string> ptx =
        emitPtx(kernels, arch, *toolkit, optLevel);
    if (!ptx) {
      llvm::consumeError(collect());
      return ptx.takeError();
    }
    if (isa) {
      *isa << *ptx;
      llvm::consumeError(collect());
      return std::vector<bundle::CodeObject>();
    }
    newestPtx = *ptx;
    cubins.push_back(std::async(std::launch::async,
                                [ptx = std::move(*ptx), arch, &toolkit]() {
                                  return assemblePtx(ptx, arch, *toolkit);
                                }));
  }
  if (llvm::Error failure = collect())
    return std::move(failure);
  // The newest architecture's PTX, which the driver compiles for GPUs the
  // cubins do not cover. Architecture-specific targets (sm_90a) have no
  // forward-compatible PTX.
  std::string newest = archs.back();
  if (!llvm::StringRef(newest).ends_with("a")) {
    uint32_t driver = ptxDriverVersion(newestPtx);
    newestPtx.push_back('\0');
    bundle::CodeObject object;
    object.target = AICC_TARGET_CUDA;
    object.format = AICC_CODE_PTX;
    object.arch = newest;
    object.minDriver = driver;
    object.image = std::move(newestPtx);
    objects.push_back(std::move(object));
  }
  return objects;
}

namespace aicc::cuda {
void registerCodeGenDialects(DialectRegistry &registry) {
  registry.insert<NVVM::NVVMDialect, nvgpu::NVGPUDialect>();
  registerNVVMDialectTranslation(registry);
  registerConvertNVVMToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}
} // namespace aicc::cuda
