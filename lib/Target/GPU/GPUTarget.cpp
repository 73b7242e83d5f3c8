//===- GPUTarget.cpp - What the GPU targets share -------------------------===//

#include "GPUTarget.h"

#include "TensorMaps.h"
#include "Transforms/Limits.h"

#include "AiccGPU/IR/AiccGPUDialect.h"

#include "aicc/Bundle/BundleWriter.h"
#include "aicc/Target/GPU/Passes.h"
#include "aicc/Target/ModelInterface.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <limits>

using namespace mlir;
using namespace aicc;

namespace {
constexpr EmitStage kStages[] = {
    {"linalg", "linalg on tensors, before bufferization", true},
    {"gpu", "the kernels and their launches, before device lowering", true},
    {"isa", "the first architecture's assembly (PTX, AMDGPU)", false},
};

/// The bundle's tensors and launch plan of `module` after the GPU pipeline:
/// one step per gpu.launch_func of `main`, in order; with `tilings`, each
/// step's contraction and tiling.
LogicalResult describeLaunches(ModuleOp module, const ModelInterface &interface,
                               aicc_target target, bundle::Bundle &result,
                               std::vector<LaunchTiling> *tilings) {
  auto compiled = module.lookupSymbol<func::FuncOp>("main");
  if (!compiled)
    return module.emitError("the GPU pipeline produced no 'main'");
  StringRef trailing[] = {"aicc.arena"};
  FailureOr<unsigned> numWeights =
      describeTensors(compiled, interface, trailing, result);
  if (failed(numWeights))
    return failure();
  Block &body = compiled.getBody().front();
  auto bufferOf = [&](unsigned argument) {
    return bufferOfArgument(argument, *numWeights, result);
  };
  auto bufferBytes = [&](unsigned argument) -> uint64_t {
    if (compiled.getArgAttr(argument, "aicc.arena"))
      return result.arenaSize;
    auto type = cast<MemRefType>(body.getArgument(argument).getType());
    return uint64_t(type.getNumElements()) *
           (type.getElementTypeBitWidth() / 8);
  };
  for (Operation &op : body) {
    if (isa<func::ReturnOp>(op) || op.hasTrait<OpTrait::ConstantLike>() ||
        buildsTensorMap(&op))
      continue;
    auto launch = dyn_cast<mlir::gpu::LaunchFuncOp>(op);
    if (!launch)
      return op.emitError("is left on the host by the GPU pipeline");
    bundle::LaunchStep step;
    step.target = target;
    step.entry = launch.getKernelName().getValue().str();
    Value sizes[] = {launch.getGridSizeX(),  launch.getGridSizeY(),
                     launch.getGridSizeZ(),  launch.getBlockSizeX(),
                     launch.getBlockSizeY(), launch.getBlockSizeZ()};
    for (int d = 0; d < 6; ++d) {
      std::optional<int64_t> size = getConstantIntValue(sizes[d]);
      if (!size || *size < 1 || *size > std::numeric_limits<int32_t>::max())
        return launch.emitError("has a launch size that is not a constant");
      (d < 3 ? step.grid[d] : step.block[d - 3]) = static_cast<uint32_t>(*size);
    }
    if (Value shared = launch.getDynamicSharedMemorySize()) {
      std::optional<int64_t> bytes = getConstantIntValue(shared);
      if (!bytes || *bytes < 0 || *bytes > std::numeric_limits<int32_t>::max())
        return launch.emitError("has a shared memory size that is not a "
                                "constant of 32 bits");
      step.sharedBytes = static_cast<uint32_t>(*bytes);
    }
    for (Value operand : launch.getKernelOperands()) {
      if (isTensorMap(operand)) {
        FailureOr<aicc_tensor_map> map =
            describeTensorMap(operand, body, bufferOf, bufferBytes);
        if (failed(map))
          return failure();
        // One record per distinct map.
        auto same = llvm::find_if(result.tensorMaps, [&](const auto &m) {
          return std::memcmp(&m, &*map, sizeof(m)) == 0;
        });
        uint32_t index = same - result.tensorMaps.begin();
        if (same == result.tensorMaps.end())
          result.tensorMaps.push_back(*map);
        step.args.push_back({AICC_BUFFER_TENSOR_MAP, index, 0});
        continue;
      }
      auto argument = dyn_cast<BlockArgument>(operand);
      if (!argument || argument.getOwner() != &body)
        return launch.emitError("passes a kernel a value that is not one of "
                                "the model's buffers");
      step.args.push_back(bufferOf(argument.getArgNumber()));
    }
    // The ONNX nodes the kernel computes, and what it moves and computes
    // (verified by the aicc_gpu dialect), for profiles.
    if (auto source =
            launch->getAttrOfType<StringAttr>(aicc::gpu::kLaunchSource))
      step.source = source.getValue().str();
    if (auto bytes =
            launch->getAttrOfType<IntegerAttr>(aicc::gpu::kLaunchBytes))
      step.bytes = bytes.getInt();
    if (auto flops =
            launch->getAttrOfType<IntegerAttr>(aicc::gpu::kLaunchFlops))
      step.flops = flops.getInt();
    if (auto math = launch->getAttrOfType<aicc::gpu::MathUnitAttr>(
            aicc::gpu::kLaunchMath))
      step.math = math.getValue() == aicc::gpu::MathUnit::tensor16
                      ? AICC_MATH_TENSOR_16
                      : AICC_MATH_TENSOR_32;
    if (tilings) {
      LaunchTiling &tiling = tilings->emplace_back();
      if (auto signature =
              launch->getAttrOfType<StringAttr>(aicc::gpu::kLaunchContraction))
        tiling.signature = signature.getValue().str();
      if (auto chosen =
              launch->getAttrOfType<StringAttr>(aicc::gpu::kLaunchTiling))
        tiling.tiling = chosen.getValue().str();
    }
    result.steps.push_back(std::move(step));
  }
  return success();
}
} // namespace

ArrayRef<EmitStage> GPUTarget::getEmitStages() const { return kStages; }

void GPUTarget::registerDialects(DialectRegistry &registry) const {
  registry.insert<aicc::gpu::AiccGPUDialect, mlir::gpu::GPUDialect>();
  aicc::gpu::registerKernelOpEffects(registry);
  registerGPUDialectTranslation(registry);
  // The device lowering (convert-gpu-to-nvvm, -rocdl) converts the
  // kernels' other dialects through these.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
}

void GPUTarget::registerPasses() const {
  // cuda and rocm share the passes: registered once.
  static const bool once = (aicc::gpu::registerAICCGPUPasses(), true);
  (void)once;
}

std::vector<std::string> GPUTarget::getDefaultArchs() const {
  return aicc::gpu::defaultArchs(getVendor());
}

std::vector<std::string>
GPUTarget::archsOf(const GPUTargetOptions &options) const {
  if (options.gpuArchs.empty())
    return getDefaultArchs();
  return {options.gpuArchs.begin(), options.gpuArchs.end()};
}

llvm::Error GPUTarget::verifyOptions(const TargetOptions &base) const {
  const auto &options = static_cast<const GPUTargetOptions &>(base);
  if (options.blockSize < 32 || options.blockSize > 1024)
    return llvm::createStringError("--block-size must be 32 to 1024");
  for (const std::string &arch : options.gpuArchs)
    if (std::optional<aicc::gpu::GPULimits> limits = aicc::gpu::limitsOf(arch);
        !limits || limits->vendor != getVendor())
      return llvm::createStringError(
          "'" + arch + "' is not an architecture of the " + getName().str() +
          " target (default: " + llvm::join(getDefaultArchs(), ",") + ")");
  return verifyTargetOptions(options);
}

llvm::Expected<TargetLimits>
GPUTarget::getLimits(const TargetOptions &base) const {
  const auto &options = static_cast<const GPUTargetOptions &>(base);
  std::vector<std::string> archs = archsOf(options);
  std::optional<aicc::gpu::GPULimits> limits =
      aicc::gpu::tightestLimits(archs, getVendor());
  if (!limits)
    return llvm::createStringError("no limits are known for " +
                                   llvm::join(archs, ","));
  TargetLimits result;
  result.computeUnits = limits->multiprocessors;
  result.lanes = limits->warpSize;
  result.maxThreadsPerGroup = limits->maxThreadsPerBlock;
  result.maxThreadsPerUnit = limits->maxThreadsPerMultiprocessor;
  result.localMemoryPerGroup = limits->sharedPerBlock;
  result.localMemoryPerUnit = limits->sharedPerMultiprocessor;
  result.registersPerUnit = limits->registersPerMultiprocessor;
  result.maxRegistersPerThread = limits->maxRegistersPerThread;
  return result;
}

LogicalResult
GPUTarget::lowerToBundle(ModuleOp module, const GPUTargetOptions &options,
                         const ModelInterface &interface,
                         CompileSession *session, bundle::Bundle &result,
                         llvm::raw_ostream *isa,
                         std::vector<LaunchTiling> *tilings) const {
  PassManager pm(module.getContext());
  buildPipeline(pm, options);
  if (failed(pm.run(module)))
    return failure();
  if (failed(describeLaunches(module, interface, getBundleTarget(), result,
                              tilings)))
    return failure();

  if (session)
    session->beginStage("device code generation");
  // A model with no work has no kernels.
  llvm::Expected<std::vector<bundle::CodeObject>> code =
      std::vector<bundle::CodeObject>();
  if (auto kernels =
          module.lookupSymbol<mlir::gpu::GPUModuleOp>("aicc_kernels"))
    code = getCodeObjectEmitter()(kernels, archsOf(options), options.optLevel,
                                  isa);
  if (!code) {
    // Errors of the outside tools, not of the IR: said as the driver's.
    std::string message = llvm::toString(code.takeError());
    if (!session)
      return module.emitError() << message;
    session->log() << "aicc: error: " << message << "\n";
    return failure();
  }
  for (bundle::CodeObject &object : *code)
    result.codeObjects.push_back(std::move(object));
  if (result.codeObjects.empty() && !isa) {
    // A model with no work (an identity) still needs a code object for the
    // runtime to pick; this cannot happen while outputs are copied.
    if (!session)
      return module.emitError("the model compiled to no kernels");
    session->log() << "aicc: error: the model compiled to no kernels\n";
    return failure();
  }
  return success();
}

LogicalResult GPUTarget::emit(ModuleOp module, const TargetOptions &options,
                              const ModelInterface &interface,
                              CompileSession &session, bundle::Bundle &result,
                              llvm::raw_ostream *text) const {
  session.beginStage("tile to device code");
  return lowerToBundle(module, static_cast<const GPUTargetOptions &>(options),
                       interface, &session, result, text, nullptr);
}
