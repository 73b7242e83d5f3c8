//===- Pipelines.h - aicc's pass pipelines ----------------------*- C++ -*-===//
//
// Every compile the driver runs is one of these pipelines, so that any
// compile can be reproduced stage by stage with aicc-opt:
//
//   aicc-opt model.mlir --aicc-cpu-pipeline="opt-level=3"
//
//===----------------------------------------------------------------------===//

#ifndef AICC_PIPELINES_PIPELINES_H
#define AICC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace aicc {

/// Where a CPU compile stops; each stage's output is valid IR of its level.
enum class CPUStage {
  Linalg, ///< tensors and linalg, before bufferization
  LLVM,   ///< the LLVM dialect, ready for translation
};

struct CPUPipelineOptions
    : public mlir::PassPipelineOptions<CPUPipelineOptions> {
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("Optimization level, 0 to 3"),
                            llvm::cl::init(2)};
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Width of the vector registers to use: 256 (AVX2) or "
                     "512 (AVX-512)"),
      llvm::cl::init(256)};
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("The function compiled as the "
                                           "model's entry point"),
                            llvm::cl::init("main")};
  Option<bool> channelsLast{
      *this, "channels-last",
      llvm::cl::desc("Convolutions on channels-last images (a check of "
                     "tile-channels-last: the CPU kernels gain nothing)"),
      llvm::cl::init(false)};
};

/// tile IR to the LLVM dialect for the host CPU, or to `stopAfter`.
void buildCPUPipeline(mlir::OpPassManager &pm,
                      const CPUPipelineOptions &options,
                      CPUStage stopAfter = CPUStage::LLVM);

/// Where a GPU compile stops.
enum class GPUStage {
  Linalg,  ///< tensors and linalg, before bufferization
  Kernels, ///< buffers; the function launches kernels of one gpu.module
  Device,  ///< the gpu.module in the NVVM or ROCDL dialect, ready to serialize
};

struct GPUPipelineOptions
    : public mlir::PassPipelineOptions<GPUPipelineOptions> {
  Option<std::string> target{*this, "target", llvm::cl::desc("cuda or rocm"),
                             llvm::cl::init("cuda")};
  ListOption<std::string> gpuArchs{
      *this, "gpu-archs",
      llvm::cl::desc("Architectures the kernels are for, oldest first; "
                     "their limits bound the tilings (default cuda "
                     "sm_80,sm_90; rocm gfx90a,gfx942)")};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("Optimization level, 0 to 3"),
                            llvm::cl::init(2)};
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("Storage of an f32 model: fp32, fp16 or bf16"),
      llvm::cl::init("fp32")};
  Option<std::string> mmaTile{
      *this, "mma-tile",
      llvm::cl::desc("cuda: BMxBNxBK[xSTAGES] for every tensor-core "
                     "contraction (empty: chosen per contraction)")};
  Option<bool> allowTF32{
      *this, "allow-tf32",
      llvm::cl::desc("cuda, fp32: contractions of f32 operands on the tensor "
                     "cores in tf32 (operands rounded to tf32, f32 sums)"),
      llvm::cl::init(false)};
  Option<bool> wgmma{*this, "wgmma",
                     llvm::cl::desc("cuda: large contractions on wgmma "
                                    "(every architecture sm_90a)"),
                     llvm::cl::init(false)};
  Option<bool> tma{*this, "tma",
                   llvm::cl::desc("cuda, with wgmma: operands read through "
                                  "TMA tensor maps where they can be"),
                   llvm::cl::init(true)};
  Option<int64_t> tileCandidate{
      *this, "tile-candidate",
      llvm::cl::desc("cuda: each contraction's N-th candidate tiling "
                     "(autotuning; -1: the chosen one)"),
      llvm::cl::init(-1)};
  ListOption<std::string> tileChoices{
      *this, "tile-choices",
      llvm::cl::desc("cuda: SIGNATURE=TILING entries measured fastest")};
  Option<bool> channelsLast{
      *this, "channels-last",
      llvm::cl::desc("Convolutions on channels-last images (above -O0)"),
      llvm::cl::init(false)};
  Option<bool> tileFuse{
      *this, "tile-fuse",
      llvm::cl::desc("Fusion groups decided on tile IR (tile-fuse, above "
                     "-O0); off, each kernel pass decides alone"),
      llvm::cl::init(true)};
  Option<bool> fuseSiblings{
      *this, "fuse-siblings",
      llvm::cl::desc("Independent element-wise ops of one iteration space "
                     "as one op (aicc-fuse-siblings, above -O0)"),
      llvm::cl::init(true)};
  Option<unsigned> blockSize{*this, "block-size",
                             llvm::cl::desc("Most threads a block of the "
                                            "element-wise and row kernels"),
                             llvm::cl::init(256)};
};

/// tile IR to kernels in the NVVM (cuda) or ROCDL (rocm) dialect, launched
/// from the host function, or to `stopAfter`.
void buildGPUPipeline(mlir::OpPassManager &pm,
                      const GPUPipelineOptions &options,
                      GPUStage stopAfter = GPUStage::Device);

/// Registers the pipelines with the pass registry, for aicc-opt.
void registerAICCPipelines();

} // namespace aicc

#endif // AICC_PIPELINES_PIPELINES_H
