//===- ROCmTarget.cpp - AMD GPUs ------------------------------------------===//
//
// `--target=rocm`: the shared GPU pipeline with MFMA products, ROCDL for
// the oldest architecture named, and an hsaco code object per
// architecture.
//
//===----------------------------------------------------------------------===//

#include "../GPU/GPUTarget.h"

#include "aicc/Bundle/BundleWriter.h"
#include "aicc/Target/GPU/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace aicc;

namespace aicc::rocm {
/// lib/Target/ROCm/CodeGen.cpp.
CodeObjectEmitter emitCodeObjects;
/// The dialects, translations and target interfaces the code generator
/// (lib/Target/ROCm/CodeGen.cpp) serializes the kernels through.
void registerCodeGenDialects(DialectRegistry &registry);
} // namespace aicc::rocm

namespace {
struct ROCmTargetOptions : public GPUTargetOptions,
                           public PassPipelineOptions<ROCmTargetOptions> {};

class ROCmTarget final : public GPUTarget {
public:
  void registerDialects(DialectRegistry &registry) const override {
    GPUTarget::registerDialects(registry);
    rocm::registerCodeGenDialects(registry);
  }
  void registerPasses() const override {
    GPUTarget::registerPasses();
    mlir::registerConvertGpuOpsToROCDLOps();
  }
  StringRef getName() const override { return "rocm"; }
  StringRef getDescription() const override {
    return "AMD GPUs: hsaco code objects per architecture";
  }
  aicc_target getBundleTarget() const override { return AICC_TARGET_ROCM; }
  std::unique_ptr<TargetOptions> createOptions() const override {
    return std::make_unique<ROCmTargetOptions>();
  }

protected:
  aicc::gpu::Vendor getVendor() const override {
    return aicc::gpu::Vendor::amd;
  }
  llvm::Error verifyTargetOptions(const GPUTargetOptions &) const override {
    return llvm::Error::success();
  }
  bool fusesAttention(const GPUTargetOptions &) const override { return false; }
  void configureTileSelection(
      const GPUTargetOptions &,
      aicc::gpu::GPUChooseTilesPassOptions &) const override {}
  void addMatrixKernels(OpPassManager &pm,
                        const GPUTargetOptions &) const override {
    pm.addNestedPass<func::FuncOp>(aicc::gpu::createGPUMFMAMatmulPass());
  }
  void addDeviceLowering(OpPassManager &device,
                         const GPUTargetOptions &options) const override {
    // The oldest architecture's instructions, which the newer ones run.
    std::string chipset = archsOf(options).front();
    ConvertAMDGPUToROCDLPassOptions amdgpu;
    amdgpu.chipset = chipset;
    device.addPass(createConvertAMDGPUToROCDLPass(amdgpu));
    ConvertGpuOpsToROCDLOpsOptions rocdl;
    rocdl.useBarePtrCallConv = true;
    rocdl.chipset = chipset;
    rocdl.runtime = mlir::gpu::amd::Runtime::HIP;
    device.addPass(createConvertGpuOpsToROCDLOps(rocdl));
  }
  CodeObjectEmitter *getCodeObjectEmitter() const override {
    return rocm::emitCodeObjects;
  }
};
} // namespace

namespace aicc {
void registerROCmTarget();
} // namespace aicc

void aicc::registerROCmTarget() {
  TargetRegistry::add(std::make_unique<ROCmTarget>());
}
