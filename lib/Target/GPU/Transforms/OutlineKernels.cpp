//===- OutlineKernels.cpp - gpu.launch bodies into one gpu.module ---------===//

#include "aicc/Target/GPU/Passes.h"

#include "Cost.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUOUTLINEKERNELSPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;

namespace {

/// Clones into `launch` the constants and views it uses from above, and
/// theirs, so that what is left to capture are the function's arguments.
/// (Upstream's sinking keeps a view of an argument outside when the
/// argument itself is not captured yet.)
void sinkIntoLaunch(mlir::gpu::LaunchOp launch) {
  Region &body = launch.getBody();
  while (true) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(body, above);
    DenseMap<Operation *, Operation *> clones;
    for (Value value : above) {
      Operation *def = value.getDefiningOp();
      if (!def || !aicc::gpu::isSinkable(def))
        continue;
      Operation *&clone = clones[def];
      if (!clone) {
        OpBuilder b = OpBuilder::atBlockBegin(&body.front());
        clone = b.clone(*def);
      }
      replaceAllUsesInRegionWith(
          value, clone->getResult(cast<OpResult>(value).getResultNumber()),
          body);
    }
    if (clones.empty())
      return;
  }
}

/// Replaces each TMA tensor-map marker in `launch` (the cast that
/// kTensorMapBox names) by an `nvgpu.tma.create.descriptor` of its buffer
/// before the launch, cast to the i64 the kernel then receives: the device
/// address of the map, which the bundle's launch plan describes for the
/// runtime to encode.
void hoistTensorMaps(mlir::gpu::LaunchOp launch) {
  SmallVector<UnrealizedConversionCastOp> markers;
  launch.getBody().walk([&](UnrealizedConversionCastOp cast) {
    if (cast->hasAttr(aicc::gpu::kTensorMapBox))
      markers.push_back(cast);
  });
  MLIRContext *context = launch.getContext();
  OpBuilder b(launch);
  for (UnrealizedConversionCastOp marker : markers) {
    Location loc = marker.getLoc();
    Value buffer = marker.getInputs().front();
    auto type = cast<MemRefType>(buffer.getType());
    ArrayRef<int64_t> box =
        marker->getAttrOfType<DenseI64ArrayAttr>(aicc::gpu::kTensorMapBox)
            .asArrayRef();
    Value unranked = memref::CastOp::create(
        b, loc,
        UnrankedMemRefType::get(type.getElementType(), type.getMemorySpace()),
        buffer);
    SmallVector<Value> sizes;
    for (int64_t extent : box)
      sizes.push_back(arith::ConstantIndexOp::create(b, loc, extent));
    auto descriptorType = nvgpu::TensorMapDescriptorType::get(
        context,
        MemRefType::get(box, type.getElementType(), MemRefLayoutAttrInterface{},
                        aicc::gpu::workgroupSpace(context)),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_128B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
    Value descriptor = nvgpu::TmaCreateDescriptorOp::create(
        b, loc, descriptorType, unranked, sizes);
    Value address = UnrealizedConversionCastOp::create(
                        b, loc, TypeRange{b.getI64Type()}, descriptor)
                        .getResult(0);
    marker.getResult(0).replaceAllUsesWith(address);
    marker.erase();
  }
}

/// Shared memory a kernel may allocate statically; more is dynamic shared
/// memory, which the runtime opts each such kernel into.
constexpr int64_t kStaticSharedBytes = 48 * 1024;

/// Turns the block-shared buffers a launch allocates at the top of its body
/// (`memref.alloca` in workgroup memory) into workgroup attributions, which
/// the kernel's lowering places in shared memory; or, past
/// kStaticSharedBytes in all, into views of the launch's dynamic shared
/// memory, each on a 16-byte boundary. (Passes that build such kernels
/// allocate them so because buffer deallocation, which runs after them,
/// gives the memref block arguments of a launch ownership flags, and does
/// not know gpu.dynamic_shared_memory.)
void allocasToAttributions(mlir::gpu::LaunchOp launch) {
  SmallVector<memref::AllocaOp> allocas;
  int64_t bytes = 0;
  SmallVector<int64_t> offsets;
  // (Buffers of other element types than integers and floats, whose size
  // needs a data layout, keep every buffer of the launch an attribution.)
  bool sized = true;
  for (Operation &op : launch.getBody().front())
    if (auto alloca = dyn_cast<memref::AllocaOp>(op))
      if (mlir::gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
              alloca.getType()) &&
          alloca.getType().hasStaticShape()) {
        allocas.push_back(alloca);
        MemRefType type = alloca.getType();
        bytes = llvm::alignTo(bytes, 16);
        offsets.push_back(bytes);
        sized &= type.getElementType().isIntOrFloat();
        if (sized)
          bytes += type.getNumElements() *
                   llvm::divideCeil(type.getElementTypeBitWidth(), 8);
      }
  if (bytes <= kStaticSharedBytes || !sized) {
    for (memref::AllocaOp alloca : allocas) {
      BlockArgument buffer =
          launch.addWorkgroupAttribution(alloca.getType(), alloca.getLoc());
      alloca.replaceAllUsesWith(buffer);
      alloca.erase();
    }
    return;
  }
  OpBuilder outside(launch);
  launch.getDynamicSharedMemorySizeMutable().assign(
      arith::ConstantIntOp::create(outside, launch.getLoc(), bytes, 32));
  OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
  auto rawType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface{},
                                 aicc::gpu::workgroupSpace(b.getContext()));
  Value raw =
      mlir::gpu::DynamicSharedMemoryOp::create(b, launch.getLoc(), rawType);
  for (auto [alloca, offset] : llvm::zip_equal(allocas, offsets)) {
    b.setInsertionPoint(alloca);
    Value shift = arith::ConstantIndexOp::create(b, alloca.getLoc(), offset);
    Value view = memref::ViewOp::create(b, alloca.getLoc(), alloca.getType(),
                                        raw, shift, ValueRange{});
    alloca.replaceAllUsesWith(view);
    alloca.erase();
  }
}

/// The attributes of `kernel` but its name.
DictionaryAttr attributesButName(mlir::gpu::GPUFuncOp kernel) {
  NamedAttrList attributes(kernel->getAttrDictionary());
  attributes.erase(SymbolTable::getSymbolAttrName());
  return attributes.getDictionary(kernel.getContext());
}

/// The kernel of `earlier` that computes what `kernel` does (the same
/// type, attributes but the name, and body), if any: the layers of a
/// transformer launch the same kernels on other buffers, and each is
/// compiled once.
mlir::gpu::GPUFuncOp findTwin(ArrayRef<mlir::gpu::GPUFuncOp> earlier,
                              mlir::gpu::GPUFuncOp kernel) {
  DictionaryAttr attributes = attributesButName(kernel);
  for (mlir::gpu::GPUFuncOp other : earlier)
    if (other.getFunctionType() == kernel.getFunctionType() &&
        attributesButName(other) == attributes &&
        OperationEquivalence::isRegionEquivalentTo(
            &other.getBody(), &kernel.getBody(),
            OperationEquivalence::IgnoreLocations))
      return other;
  return {};
}

/// The ONNX nodes (location names) of the ops in `launch`, in order.
llvm::SetVector<StringRef> sourceNodes(gpu::LaunchOp launch) {
  llvm::SetVector<StringRef> names;
  launch.getBody().walk([&](Operation *op) {
    op->getLoc()->walk([&](Location loc) {
      if (auto name = dyn_cast<NameLoc>(loc))
        names.insert(name.getName().getValue());
      return WalkResult::advance();
    });
  });
  return names;
}

/// `k<index>` followed by the first node's name in identifier characters.
std::string kernelName(unsigned index, ArrayRef<StringRef> nodes) {
  std::string name = "k" + std::to_string(index);
  if (nodes.empty())
    return name;
  name += '_';
  for (char c : nodes.front().take_front(40))
    name += llvm::isAlnum(c) ? c : '_';
  return name;
}

struct GPUOutlineKernelsPass
    : aicc::gpu::impl::GPUOutlineKernelsPassBase<GPUOutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });

    module->setAttr(mlir::gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
    auto kernels = mlir::gpu::GPUModuleOp::create(
        moduleBuilder, module.getLoc(), "aicc_kernels");
    SymbolTable kernelTable(kernels);
    SmallVector<mlir::gpu::GPUFuncOp> outlined;

    for (auto [index, launch] : llvm::enumerate(launches)) {
      int64_t bytes = aicc::gpu::launchBytes(launch);
      hoistTensorMaps(launch);
      sinkIntoLaunch(launch);
      allocasToAttributions(launch);
      llvm::SetVector<StringRef> nodes = sourceNodes(launch);
      SmallVector<Value> operands;
      mlir::gpu::GPUFuncOp kernel = outlineKernelFunc(
          launch, kernelName(index, nodes.getArrayRef()), operands);
      // Shared buffers start on 16 bytes, the widest access to them
      // (ldmatrix rows, 16-byte copies).
      for (unsigned i = 0; i < kernel.getNumWorkgroupAttributions(); ++i)
        kernel.setWorkgroupAttributionAttr(
            i, "llvm.align",
            IntegerAttr::get(IntegerType::get(&getContext(), 64), 16));
      // The occupancy a kernel is built for, as ptxas's register limit.
      if (auto blocks = launch->getAttrOfType<IntegerAttr>(
              aicc::gpu::kMinBlocksPerMultiprocessor)) {
        kernel->setAttr("nvvm.minctasm", blocks);
        SmallVector<int32_t> threads;
        for (Value size : {launch.getBlockSizeX(), launch.getBlockSizeY(),
                           launch.getBlockSizeZ()})
          threads.push_back(
              static_cast<int32_t>(getConstantIntValue(size).value_or(1)));
        kernel->setAttr("nvvm.maxntid",
                        DenseI32ArrayAttr::get(&getContext(), threads));
      }
      if (mlir::gpu::GPUFuncOp twin = findTwin(outlined, kernel)) {
        kernel.erase();
        kernel = twin;
      } else {
        kernelTable.insert(kernel);
        outlined.push_back(kernel);
      }
      for (Value operand : operands)
        if (!aicc::gpu::isTensorMapAddress(operand) &&
            (!isa<BlockArgument>(operand) ||
             !isa<MemRefType>(operand.getType()))) {
          launch.emitError("uses a value computed on the host (")
              << operand.getType()
              << "); a kernel may take only the function's buffers and "
                 "tensor maps of them";
          return signalPassFailure();
        }
      OpBuilder b(launch);
      auto launchFunc = mlir::gpu::LaunchFuncOp::create(
          b, launch.getLoc(), kernel, launch.getGridSizeOperandValues(),
          launch.getBlockSizeOperandValues(),
          launch.getDynamicSharedMemorySize(), operands);
      // What the launch computes and moves, for the profile's roofline.
      launchFunc->setAttr(aicc::gpu::kLaunchBytes, b.getI64IntegerAttr(bytes));
      for (StringRef name :
           {aicc::gpu::kLaunchFlops, aicc::gpu::kLaunchMath,
            aicc::gpu::kLaunchContraction, aicc::gpu::kLaunchTiling})
        if (Attribute value = launch->getAttr(name))
          launchFunc->setAttr(name, value);
      if (!nodes.empty())
        launchFunc->setAttr(
            aicc::gpu::kLaunchSource,
            StringAttr::get(&getContext(),
                            llvm::join(nodes.getArrayRef(), ",")));
      launch.erase();
    }

    // Constant buffers the kernels read and functions they call (math
    // helpers outlined by convert-math-to-funcs) are copied into the device
    // module, and what those functions use in turn.
    SymbolTable hostTable(module);
    SmallVector<std::pair<Operation *, StringAttr>> uses;
    auto collect = [&](Operation *root) {
      root->walk([&](Operation *op) {
        if (auto get = dyn_cast<memref::GetGlobalOp>(op))
          uses.push_back({op, get.getNameAttr().getAttr()});
        else if (auto call = dyn_cast<func::CallOp>(op))
          uses.push_back({op, call.getCalleeAttr().getAttr()});
      });
    };
    collect(kernels);
    while (!uses.empty()) {
      auto [user, name] = uses.pop_back_val();
      if (kernelTable.lookup(name))
        continue;
      Operation *symbol = hostTable.lookup(name);
      if (!symbol) {
        user->emitError("uses @")
            << name.getValue() << ", which the module does not define";
        return signalPassFailure();
      }
      Operation *copy = symbol->clone();
      kernelTable.insert(copy);
      collect(copy);
    }
  }
};
} // namespace
