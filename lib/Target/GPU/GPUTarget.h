//===- GPUTarget.h - What the GPU targets share (private) -------*- C++ -*-===//
//
// cuda and rocm run one pipeline: tile IR to linalg, kernels chosen and
// tiled from the architectures' limits, launches from the host function,
// then the kernels in the device's LLVM dialect, serialized per
// architecture. GPUTarget implements the Target interface once over that
// pipeline; each GPU target supplies what differs (its kernels for matrix
// work, its device lowering, its code objects) through the hooks below.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_TARGET_GPU_GPUTARGET_H
#define AICC_LIB_TARGET_GPU_GPUTARGET_H

#include "aicc/Target/Target.h"

#include "AiccGPU/IR/AiccGPUDialect.h"

#include "mlir/Pass/PassOptions.h"

#include <string>
#include <vector>

namespace aicc {

namespace bundle {
struct CodeObject;
} // namespace bundle

namespace gpu {
struct GPUChooseTilesPassOptions;
} // namespace gpu
} // namespace aicc

namespace mlir::gpu {
class GPUModuleOp;
} // namespace mlir::gpu

namespace aicc {

/// The contraction a launch computes and its tiling ("" where it computes
/// none), as tile selection recorded them.
struct LaunchTiling {
  std::string signature, tiling;
};

/// A GPU target's code generator: the code objects of `kernels` (the
/// pipeline's `gpu.module @aicc_kernels`), one per architecture of `archs`
/// (never empty); with `isa`, the first architecture's assembly is written
/// there and no code object is made. Each target defines one
/// (lib/Target/<name>/CodeGen.cpp), declared where it is used as
/// `CodeObjectEmitter emitCodeObjects;`.
using CodeObjectEmitter = llvm::Expected<std::vector<bundle::CodeObject>>(
    mlir::gpu::GPUModuleOp kernels, llvm::ArrayRef<std::string> archs,
    unsigned optLevel, llvm::raw_ostream *isa);

/// How an f32 model's tensors are stored on a GPU.
enum class Precision { FP32, FP16, BF16 };

/// The options of both GPU targets; each adds its own.
struct GPUTargetOptions : public TargetOptions {
  ListOption<std::string> gpuArchs{
      *this, "gpu-arch",
      llvm::cl::desc("GPU architectures, oldest first (default: the "
                     "target's; their limits bound every kernel's tiling)")};
  Option<Precision> precision{
      *this, "precision",
      llvm::cl::desc("Storage of an f32 model's weights and activations; "
                     "accumulators, softmax and normalization statistics "
                     "stay f32"),
      llvm::cl::init(Precision::FP32),
      llvm::cl::values(clEnumValN(Precision::FP32, "fp32", "f32 (default)"),
                       clEnumValN(Precision::FP16, "fp16", "IEEE half"),
                       clEnumValN(Precision::BF16, "bf16", "bfloat16"))};
  Option<bool> tileFuse{
      *this, "tile-fuse",
      llvm::cl::desc("Decide the fusion groups on tile IR, one region per "
                     "kernel, which the kernel passes keep to (above -O0; "
                     "false: each kernel pass decides alone)"),
      llvm::cl::init(true)};
  Option<bool> fuseSiblings{
      *this, "fuse-siblings",
      llvm::cl::desc("Merge independent element-wise ops of one iteration "
                     "space into one kernel where a traffic model says so "
                     "(above -O0)"),
      llvm::cl::init(true)};
  Option<bool> channelsLast{
      *this, "channels-last",
      llvm::cl::desc("Convolutions on channels-last (NHWC) images where "
                     "their channels allow 16-byte reads, transposes "
                     "cancelled along the graph (above -O0)"),
      llvm::cl::init(false)};
  Option<unsigned> blockSize{
      *this, "block-size",
      llvm::cl::desc("Most threads a block of the element-wise and row "
                     "kernels"),
      llvm::cl::init(256)};
};

/// The Target interface over the shared GPU pipeline.
class GPUTarget : public Target {
public:
  llvm::ArrayRef<EmitStage> getEmitStages() const override;
  void registerDialects(mlir::DialectRegistry &registry) const override;
  void registerPasses() const override;
  llvm::Error verifyOptions(const TargetOptions &options) const override;
  llvm::Expected<TargetLimits>
  getLimits(const TargetOptions &options) const override;
  void buildPipeline(mlir::OpPassManager &pm,
                     const TargetOptions &options) const override;
  mlir::LogicalResult emit(mlir::ModuleOp module, const TargetOptions &options,
                           const ModelInterface &interface,
                           CompileSession &session, bundle::Bundle &result,
                           llvm::raw_ostream *text) const override;

  /// The architectures `options` names, or the target's default ones.
  std::vector<std::string> archsOf(const GPUTargetOptions &options) const;

  /// Architectures compiled for when `--gpu-arch` names none, oldest
  /// first (beside the limits table: Transforms/Limits.cpp).
  std::vector<std::string> getDefaultArchs() const;

protected:
  /// Whose GPUs: the limits table's entries and the kernels tile selection
  /// may choose.
  virtual gpu::Vendor getVendor() const = 0;
  /// The target's own checks, after the shared ones.
  virtual llvm::Error
  verifyTargetOptions(const GPUTargetOptions &options) const = 0;
  /// Whether the target builds an attention chain as one kernel: tile-fuse
  /// groups it, tile selection tiles it, addMatrixKernels builds it.
  virtual bool fusesAttention(const GPUTargetOptions &options) const = 0;
  /// Whether the target's matrix kernels multiply fp8 operands, so that
  /// quantized fp8 products are folded to them (with --integer-quant).
  virtual bool multipliesFloat8(const GPUTargetOptions &options) const {
    return false;
  }
  /// Products of fewer rows than this by 4-bit weights keep the weights
  /// packed, for aicc-gpu-int4-products (0: none; the kernel is written
  /// for 32-lane warps).
  int64_t int4ProductRows() const {
    return getVendor() == gpu::Vendor::nvidia ? gpu::kTensorCoreRows : 0;
  }
  /// The target's settings of tile selection (its matrix engines, forced
  /// or measured tilings); `choose` has the shared ones.
  virtual void
  configureTileSelection(const GPUTargetOptions &options,
                         gpu::GPUChooseTilesPassOptions &choose) const = 0;
  /// The kernels for matrix work (and attention), built from the tilings
  /// tile selection recorded.
  virtual void addMatrixKernels(mlir::OpPassManager &pm,
                                const GPUTargetOptions &options) const = 0;
  /// The kernels' lowering to the device's LLVM dialect (NVVM, ROCDL), on
  /// the gpu.module's pass manager.
  virtual void addDeviceLowering(mlir::OpPassManager &device,
                                 const GPUTargetOptions &options) const = 0;
  /// The target's code generator (CodeObjectEmitter).
  virtual CodeObjectEmitter *getCodeObjectEmitter() const = 0;

  /// The whole pipeline on `module`, then its launch plan and code objects
  /// into `result` (the ISA into `isa` instead, where given). With
  /// `tilings`, each launch's contraction signature and tiling, in launch
  /// order.
  mlir::LogicalResult
  lowerToBundle(mlir::ModuleOp module, const GPUTargetOptions &options,
                const ModelInterface &interface, CompileSession *session,
                bundle::Bundle &result, llvm::raw_ostream *isa,
                std::vector<LaunchTiling> *tilings) const;
};

} // namespace aicc

#endif // AICC_LIB_TARGET_GPU_GPUTARGET_H
