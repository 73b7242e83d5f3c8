//===- QuantizeInternal.h - Shared by the quantizer's files -----*- C++ -*-===//

#ifndef AICC_LIB_QUANTIZE_QUANTIZEINTERNAL_H
#define AICC_LIB_QUANTIZE_QUANTIZEINTERNAL_H

#include "aicc/Quantize/Quantize.h"

#include "llvm/ADT/ArrayRef.h"

#include "onnx/onnx_pb.h"

namespace aicc::quantize {

/// Runs `model` (float) on the CPU over the calibration samples and
/// measures `tensors` (names of the model's float tensors).
llvm::Expected<CalibrationTable> calibrate(const CompileOptions &base,
                                           const QuantizeOptions &options,
                                           const onnx::ModelProto &model,
                                           llvm::ArrayRef<std::string> tensors,
                                           llvm::raw_ostream &log);

} // namespace aicc::quantize

#endif // AICC_LIB_QUANTIZE_QUANTIZEINTERNAL_H
