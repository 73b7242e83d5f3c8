//===- CodeGen.cpp - GPU kernels to code objects --------------------------===//

#include "aicc/Target/GPU/CodeGen.h"
#include "aicc/Target/Tools.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVM/ROCDL/Utils.h"
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
using namespace aicc::gpu;

namespace {
llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// CUDA
//===----------------------------------------------------------------------===//

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
  return error("the CUDA toolkit was not found (looked for bin/ptxas and "
               "nvvm/libdevice/libdevice.10.bc under " +
               llvm::join(roots, ", ") +
               "); install it or set CUDA_PATH to its folder");
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

/// PTX of `kernels` for `arch` (sm_XY) through the NVVM target.
llvm::Expected<std::string> emitPtx(::mlir::gpu::GPUModuleOp kernels,
                                    const std::string &arch,
                                    const CudaToolkit &toolkit,
                                    unsigned optLevel) {
  MLIRContext *context = kernels.getContext();
  auto target =
      NVVM::NVVMTargetAttr::get(context, std::min(optLevel + 1, 3u),
                                "nvptx64-nvidia-cuda", arch, "+ptx80");
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
    return error("generating PTX for " + arch + " failed");
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

llvm::Expected<std::vector<CodeObject>>
emitCuda(::mlir::gpu::GPUModuleOp kernels, const CodeGenOptions &options) {
  llvm::Expected<CudaToolkit> toolkit = findCudaToolkit();
  if (!toolkit)
    return toolkit.takeError();
  std::vector<CodeObject> objects;
  std::string newestPtx;
  // ptxas runs as its own process: each architecture's assembly overlaps
  // LLVM's PTX generation for the next one. Objects keep the order of the
  // architectures.
  std::vector<std::future<llvm::Expected<std::string>>> cubins;
  auto collect = [&]() -> llvm::Error {
    llvm::Error failure = llvm::Error::success();
    for (auto [arch, cubin] : llvm::zip(options.archs, cubins)) {
      llvm::Expected<std::string> code = cubin.get();
      if (!code) {
        failure = llvm::joinErrors(std::move(failure), code.takeError());
        continue;
      }
      objects.push_back(
          {AICC_TARGET_CUDA, AICC_CODE_CUBIN, arch, 0, std::move(*code)});
    }
    return failure;
  };
  for (const std::string &arch : options.archs) {
    llvm::Expected<std::string> ptx =
        emitPtx(kernels, arch, *toolkit, options.optLevel);
    if (!ptx) {
      llvm::consumeError(collect());
      return ptx.takeError();
    }
    if (options.isa) {
      *options.isa << *ptx;
      llvm::consumeError(collect());
      return std::vector<CodeObject>();
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
  std::string newest = options.archs.back();
  if (!llvm::StringRef(newest).ends_with("a")) {
    uint32_t driver = ptxDriverVersion(newestPtx);
    newestPtx.push_back('\0');
    objects.push_back({AICC_TARGET_CUDA, AICC_CODE_PTX, newest, driver,
                       std::move(newestPtx)});
  }
  return objects;
}

//===----------------------------------------------------------------------===//
// ROCm
//===----------------------------------------------------------------------===//

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
  return error("the ROCm device libraries were not found (looked for "
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

llvm::Expected<std::vector<CodeObject>>
emitRocm(::mlir::gpu::GPUModuleOp kernels, const CodeGenOptions &options) {
  llvm::Expected<std::string> deviceLibs = findRocmDeviceLibs();
  if (!deviceLibs)
    return deviceLibs.takeError();
  // ld.lld turns an AMDGPU object into a loadable code object.
  llvm::Expected<std::string> lld = findLinker();
  if (!lld)
    return lld.takeError();
  MLIRContext *context = kernels.getContext();
  std::vector<CodeObject> objects;
  for (const std::string &arch : options.archs) {
    auto target = ROCDL::ROCDLTargetAttr::get(
        context, std::min(options.optLevel + 1, 3u), "amdgcn-amd-amdhsa", arch);
    ::mlir::gpu::TargetOptions targetOptions(
        *deviceLibs, {}, "", "", ::mlir::gpu::CompilationTarget::Assembly);
    std::optional<SmallVector<char, 0>> isa =
        cast<::mlir::gpu::TargetAttrInterface>(target).serializeToObject(
            kernels, targetOptions);
    if (!isa)
      return error("generating AMDGPU code for " + arch + " failed");
    llvm::StringRef text(isa->data(), isa->size());
    if (options.isa) {
      *options.isa << text.rtrim('\0');
      return objects;
    }
    FailureOr<SmallVector<char, 0>> object =
        ROCDL::assembleIsa(text, "amdgcn-amd-amdhsa", arch, "",
                           [&] { return kernels.emitError(); });
    if (failed(object))
      return error("assembling the " + arch + " code failed");
    llvm::Expected<std::string> hsaco = linkHsaco(*object, *lld, arch);
    if (!hsaco)
      return hsaco.takeError();
    objects.push_back(
        {AICC_TARGET_ROCM, AICC_CODE_HSACO, arch, 0, std::move(*hsaco)});
  }
  return objects;
}
} // namespace

llvm::Expected<std::vector<CodeObject>>
aicc::gpu::emitCodeObjects(ModuleOp module, const CodeGenOptions &options) {
  auto kernels = module.lookupSymbol<::mlir::gpu::GPUModuleOp>("aicc_kernels");
  if (!kernels)
    return std::vector<CodeObject>();
  if (options.archs.empty())
    return error("no GPU architecture was given");
  if (options.target == "rocm")
    return emitRocm(kernels, options);
  return emitCuda(kernels, options);
}
