//===- ModelInterface.h - A model's tensors in the bundle -------*- C++ -*-===//
//
// What every target's part of the bundle shares: the model's inputs and
// outputs as imported (names and element types, which the lowering loses),
// and the reading of a compiled entry function's arguments — weights,
// inputs, outputs, arena — into the bundle's tensors and buffer
// references.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_TARGET_MODELINTERFACE_H
#define AICC_TARGET_MODELINTERFACE_H

#include "aicc/bundle_format.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace aicc {

namespace bundle {
struct Bundle;
} // namespace bundle

/// The model's interface as imported.
struct ModelInterface {
  mlir::Location loc;
  std::vector<std::pair<std::string, mlir::Type>> inputs, outputs;
};

/// The interface of the imported `main` (names from `onnx.name`).
ModelInterface recordInterface(mlir::func::FuncOp main);

/// Checks, before any lowering, that every input and output has a static
/// shape and an element type a bundle can hold.
mlir::LogicalResult checkStaticInterface(const ModelInterface &interface);

/// Reads a compiled function's argument list, [weights, inputs, outputs,
/// `trailing`...], into `result`'s tensors, checking it against
/// `interface`. Weight arguments carry `aicc.weight` and
/// `aicc.weight_value`; `trailing` names the attribute of each argument
/// after the outputs. Returns the number of weights.
mlir::FailureOr<unsigned> describeTensors(
    mlir::FunctionOpInterface compiled, const ModelInterface &interface,
    llvm::ArrayRef<llvm::StringRef> trailing, bundle::Bundle &result);

/// The buffer a compiled function's argument `index` is, for a function
/// whose arguments are [weights, inputs, outputs, arena].
aicc_buffer_ref bufferOfArgument(unsigned index, unsigned numWeights,
                                 const bundle::Bundle &result);

} // namespace aicc

#endif // AICC_TARGET_MODELINTERFACE_H
