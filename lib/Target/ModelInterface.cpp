//===- ModelInterface.cpp - A model's tensors in the bundle ---------------===//

#include "aicc/Target/ModelInterface.h"

#include "aicc/Bundle/BundleWriter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace aicc;

namespace {
FailureOr<aicc_dtype> bundleType(Type type) {
  if (type.isF32())
    return AICC_DTYPE_FLOAT32;
  if (type.isF64())
    return AICC_DTYPE_FLOAT64;
  if (type.isF16())
    return AICC_DTYPE_FLOAT16;
  if (type.isBF16())
    return AICC_DTYPE_BFLOAT16;
  if (isa<Float8E4M3FNType>(type))
    return AICC_DTYPE_FLOAT8E4M3FN;
  if (isa<Float8E4M3FNUZType>(type))
    return AICC_DTYPE_FLOAT8E4M3FNUZ;
  if (isa<Float8E5M2Type>(type))
    return AICC_DTYPE_FLOAT8E5M2;
  if (isa<Float8E5M2FNUZType>(type))
    return AICC_DTYPE_FLOAT8E5M2FNUZ;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    bool isUnsigned = integer.isUnsigned();
    switch (integer.getWidth()) {
    case 1:
      return AICC_DTYPE_BOOL;
    case 8:
      return isUnsigned ? AICC_DTYPE_UINT8 : AICC_DTYPE_INT8;
    case 16:
      return isUnsigned ? AICC_DTYPE_UINT16 : AICC_DTYPE_INT16;
    case 32:
      return isUnsigned ? AICC_DTYPE_UINT32 : AICC_DTYPE_INT32;
    case 64:
      return isUnsigned ? AICC_DTYPE_UINT64 : AICC_DTYPE_INT64;
    default:
      break;
    }
  }
  return failure();
}

/// Describes a tensor of the model's interface, or fails with a diagnostic.
FailureOr<bundle::Tensor> describeTensor(Location loc, llvm::StringRef what,
                                         llvm::StringRef name, Type type,
                                         aicc_tensor_role role) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return emitError(loc) << what << " '" << name
                          << "' is not a ranked tensor (" << type << ")",
           failure();
  if (!tensorType.hasStaticShape())
    return emitError(loc) << what << " '" << name << "' has the dynamic shape "
                          << type << "; pin it with --input-shape",
           failure();
  FailureOr<aicc_dtype> dtype = bundleType(tensorType.getElementType());
  if (failed(dtype))
    return emitError(loc) << what << " '" << name << "' has element type "
                          << tensorType.getElementType()
                          << ", which a bundle cannot hold",
           failure();
  bundle::Tensor tensor;
  tensor.name = name.str();
  tensor.role = role;
  tensor.dtype = *dtype;
  tensor.dims.assign(tensorType.getShape().begin(),
                     tensorType.getShape().end());
  return tensor;
}

/// The bytes of a weight as the bundle stores them: row-major, one byte per
/// bool, splats expanded.
LogicalResult weightBytes(Location loc, Attribute value,
                          bundle::Tensor &tensor) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc) << "weight '" << tensor.name << "' has no data";
    tensor.data = blob->getData();
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return emitError(loc) << "weight '" << tensor.name
                          << "' has data aicc cannot serialize";
  if (dense.getElementType().isInteger(1)) {
    for (bool b : dense.getValues<bool>())
      tensor.ownedData.push_back(b ? 1 : 0);
    return success();
  }
  if (dense.isSplat()) {
    llvm::ArrayRef<char> one = dense.getRawData();
    int64_t count = dense.getNumElements();
    tensor.ownedData.reserve(one.size() * count);
    for (int64_t i = 0; i < count; ++i)
      tensor.ownedData.append(one.begin(), one.end());
    return success();
  }
  tensor.data = dense.getRawData();
  return success();
}

} // namespace

ModelInterface aicc::recordInterface(func::FuncOp main) {
  auto nameOf = [](DictionaryAttr attrs, unsigned index) {
    if (attrs)
      if (auto name = attrs.getAs<StringAttr>("onnx.name"))
        return name.getValue().str();
    return "#" + std::to_string(index);
  };
  ModelInterface interface{main.getLoc(), {}, {}};
  for (unsigned i = 0; i < main.getNumArguments(); ++i)
    interface.inputs.emplace_back(nameOf(main.getArgAttrDict(i), i),
                                  main.getArgument(i).getType());
  for (unsigned i = 0; i < main.getNumResults(); ++i)
    interface.outputs.emplace_back(nameOf(main.getResultAttrDict(i), i),
                                   main.getResultTypes()[i]);
  return interface;
}

LogicalResult aicc::checkStaticInterface(const ModelInterface &interface) {
  for (auto &[name, type] : interface.inputs)
    if (failed(describeTensor(interface.loc, "input", name, type,
                              AICC_ROLE_INPUT)))
      return failure();
  for (auto &[name, type] : interface.outputs)
    if (failed(describeTensor(interface.loc, "output", name, type,
                              AICC_ROLE_OUTPUT)))
      return failure();
  return success();
}

FailureOr<unsigned> aicc::describeTensors(FunctionOpInterface compiled,
                                          const ModelInterface &interface,
                                          ArrayRef<StringRef> trailing,
                                          bundle::Bundle &result) {
  Location loc = interface.loc;
  unsigned numArgs = compiled.getNumArguments();
  unsigned numWeights = 0;
  while (numWeights < numArgs && compiled.getArgAttr(numWeights, "aicc.weight"))
    ++numWeights;
  bool matches = numArgs == numWeights + interface.inputs.size() +
                                interface.outputs.size() + trailing.size();
  for (unsigned i = 0; matches && i < trailing.size(); ++i)
    matches =
        bool(compiled.getArgAttr(numArgs - trailing.size() + i, trailing[i]));
  if (!matches)
    return compiled.emitError("has an argument list that does not match the "
                              "model's interface"),
           failure();

  for (unsigned i = 0; i < numWeights; ++i) {
    auto name = compiled.getArgAttrOfType<StringAttr>(i, "aicc.weight");
    auto value =
        compiled.getArgAttrOfType<ElementsAttr>(i, "aicc.weight_value");
    if (!name || !value)
      return compiled.emitError("weight argument ") << i << " lacks its data",
             failure();
    FailureOr<bundle::Tensor> tensor = describeTensor(
        loc, "weight", name.getValue(), value.getType(), AICC_ROLE_WEIGHT);
    if (failed(tensor) || failed(weightBytes(loc, value, *tensor)))
      return failure();
    result.weights.push_back(std::move(*tensor));
  }
  for (auto &[name, type] : interface.inputs) {
    FailureOr<bundle::Tensor> tensor =
        describeTensor(loc, "input", name, type, AICC_ROLE_INPUT);
    if (failed(tensor))
      return failure();
    result.inputs.push_back(std::move(*tensor));
  }
  for (auto &[name, type] : interface.outputs) {
    FailureOr<bundle::Tensor> tensor =
        describeTensor(loc, "output", name, type, AICC_ROLE_OUTPUT);
    if (failed(tensor))
      return failure();
    result.outputs.push_back(std::move(*tensor));
  }
  if (auto size = compiled->getAttrOfType<IntegerAttr>("aicc.arena_size"))
    result.arenaSize = size.getInt();
  return numWeights;
}

aicc_buffer_ref aicc::bufferOfArgument(unsigned index, unsigned numWeights,
                                       const bundle::Bundle &result) {
  unsigned numInputs = result.inputs.size();
  unsigned numOutputs = result.outputs.size();
  if (index < numWeights)
    return {AICC_BUFFER_WEIGHT, index, 0};
  index -= numWeights;
  if (index < numInputs)
    return {AICC_BUFFER_INPUT, index, 0};
  index -= numInputs;
  if (index < numOutputs)
    return {AICC_BUFFER_OUTPUT, index, 0};
  return {AICC_BUFFER_ARENA, 0, 0};
}
