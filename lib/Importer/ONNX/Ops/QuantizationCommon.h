//===- QuantizationCommon.h - Shared by the quantized op families -*- C++
//-*-===//
//
// Dequantizing and quantizing a node's operands, shared by the default
// domain's QuantizeLinear/DequantizeLinear/QLinear* and com.microsoft's
// quantized operators. With compile-time parameters the results are
// tile.dequantize / tile.quantize, whose scheme tile-fold-qdq reads; with
// run-time parameters they are arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_LIB_IMPORTER_ONNX_OPS_QUANTIZATIONCOMMON_H
#define AICC_LIB_IMPORTER_ONNX_OPS_QUANTIZATIONCOMMON_H

#include "../ImporterInternal.h"

namespace aicc::onnx_importer {

/// Where a tensor's scales vary: along `axis` (ignored for one scale),
/// in blocks of `blockSize` along it when positive.
struct Granularity {
  int64_t axis = 0;
  int64_t blockSize = 0;
};

/// The element type of a quantized output: the zero point's, else the
/// output_dtype attribute (opset 21), else `fallback` (uint8 when null).
mlir::Type quantizedType(NodeContext &c, Value zeroPoint,
                         mlir::Type fallback = {});

/// `(q - zeroPoint) * scale` in the scale's float type; `zeroPoint` may be
/// null.
Value dequantizeValue(NodeContext &c, Value q, Value scale, Value zeroPoint,
                      Granularity g = {});

/// `saturate(round(x / scale) + zeroPoint)` in `storage`; `zeroPoint` may
/// be null.
Value quantizeValue(NodeContext &c, Value x, Value scale, Value zeroPoint,
                    mlir::Type storage, Granularity g = {});

/// DynamicQuantizeLinear of `x`: uint8 values, their f32 scale and uint8
/// zero point from the range of `x` widened to include 0.
struct DynamicQuantized {
  Value values, scale, zeroPoint;
};
DynamicQuantized dynamicQuantize(NodeContext &c, Value x);

/// `q` as i32 minus its zero point (none when null), the zero point shaped
/// by `shapeZp`.
Value centered(NodeContext &c, Value q, Value zp,
               llvm::function_ref<Value(Value)> shapeZp);

} // namespace aicc::onnx_importer

#endif // AICC_LIB_IMPORTER_ONNX_OPS_QUANTIZATIONCOMMON_H
