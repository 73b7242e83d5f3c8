//===- Quantize.h - Post-training quantization of ONNX models ---*- C++ -*-===//
//
// aicc's post-training quantization works on the ONNX model before import:
// it picks the operators to quantize (Conv, MatMul and Gemm with constant
// weights, minus --quantize-exclude), measures the ranges of their
// activation inputs by running the float model on the CPU runtime over the
// calibration samples (or reads them from a calibration table), and writes
// the quantized model as QDQ ONNX: QuantizeLinear/DequantizeLinear pairs
// on activations, weights stored quantized behind DequantizeLinear (int8,
// fp8) or packed into MatMulNBits (int4 weights). The importer and
// tile-fold-qdq then compile it like any quantized model, and --emit=onnx
// hands it to other tools. The rewrite is a pure function of the model, the
// options and the table.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_QUANTIZE_QUANTIZE_H
#define AICC_QUANTIZE_QUANTIZE_H

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace aicc {

struct CompileOptions;

enum class QuantizeMode { None, Int8, FP8, Int4Weight };
enum class CalibrationMethod { MinMax, Entropy, Percentile };

struct QuantizeOptions {
  QuantizeMode mode = QuantizeMode::None;
  /// One folder per sample, each with input_<k>.npy in graph-input order.
  std::string calibrationDir;
  CalibrationMethod method = CalibrationMethod::MinMax;
  /// int8 weights: one scale per output channel instead of per tensor.
  bool perChannel = false;
  /// Node names (or output tensor names) left in float.
  std::vector<std::string> exclude;
  /// Read when it exists (and no calibration data is given), else written
  /// after calibration.
  std::string tablePath;
  /// int4-weight: the weights' group size along K (32, 64 or 128).
  int64_t blockSize = 128;
  /// percentile: the share of |x| the range covers, in percent.
  double percentile = 99.99;
};

/// The measured range of one activation tensor.
struct TensorRange {
  double min = 0, max = 0;
  /// The clipping threshold the method chose for |x| (entropy, percentile;
  /// for minmax, max(|min|, |max|)).
  double threshold = 0;
};

struct CalibrationTable {
  std::string method;
  int64_t samples = 0;
  std::map<std::string, TensorRange> tensors;
};

/// Reads a calibration table (JSON), checking every field.
llvm::Expected<CalibrationTable> readCalibrationTable(const std::string &path);
llvm::Error writeCalibrationTable(const CalibrationTable &table,
                                  const std::string &path);

/// Quantizes the ONNX model at options.inputPath: returns the quantized
/// model's serialized bytes. Calibration compiles the float model for the
/// CPU (with `base`'s input shapes) and runs it; progress and errors go to
/// `log`.
llvm::Expected<std::string> quantizeModel(const CompileOptions &base,
                                          const QuantizeOptions &options,
                                          llvm::raw_ostream &log);

} // namespace aicc

#endif // AICC_QUANTIZE_QUANTIZE_H
