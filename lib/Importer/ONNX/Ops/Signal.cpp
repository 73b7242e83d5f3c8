//===- Signal.cpp - DFT, STFT and window functions ------------------------===//
//
// The discrete Fourier transform as two matrix products with compile-time
// cosine and sine matrices (the signal length is static), STFT as framing
// gathers, a window product and a DFT, and the window functions as
// constants.
//
//===----------------------------------------------------------------------===//

#include "../ImporterInternal.h"

#include <cmath>

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// A constant [rows x columns] matrix of `elementType` from f(row, column).
Value matrix(NodeContext &c, Type elementType, int64_t rows, int64_t columns,
             function_ref<double(int64_t, int64_t)> f) {
  SmallVector<double> values;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j)
      values.push_back(f(i, j));
  auto type = RankedTensorType::get({rows, columns}, c.builder().getF64Type());
  return c.cast(
      c.constant(DenseElementsAttr::get(type, ArrayRef<double>(values))),
      elementType);
}

/// The DFT of `x` (signal dimensions, then a last dimension of 1 for real or
/// 2 for complex input) along signal dimension `axis`, with `length` points
/// (zero-padded or truncated), `inverse`, and `onesided` output. Returns the
/// complex result with a last dimension of 2.
Value dft(NodeContext &c, Value x, int64_t axis, std::optional<int64_t> length,
          bool inverse, bool onesided) {
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type || !type.hasStaticShape()) {
    c.error() << "the signal must have a static shape";
    return c.fail();
  }
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() < 2) {
    c.error() << "the signal needs a dimension besides the last (real or "
                 "complex), but has rank "
              << shape.size();
    return Value();
  }
  int64_t rank = shape.size(), signalRank = rank - 1;
  int64_t channels = shape.back();
  if (channels != 1 && channels != 2) {
    c.error() << "the last dimension must be 1 (real) or 2 (complex), got "
              << channels;
    return Value();
  }
  if (axis < 0 || axis >= signalRank) {
    c.error() << "axis " << axis << " is not a signal dimension";
    return Value();
  }
  Type element = type.getElementType();
  int64_t n = shape[axis];
  int64_t points = length.value_or(n);
  if (points < 1) {
    c.error() << "dft_length must be at least 1, got " << points;
    return Value();
  }
  int64_t bins = onesided ? points / 2 + 1 : points;
  SmallVector<int64_t> signalShape(shape.drop_back());

  // Real and imaginary parts, the transformed axis moved last.
  SmallVector<int64_t> permutation;
  for (int64_t d = 0; d < signalRank; ++d)
    if (d != axis)
      permutation.push_back(d);
  permutation.push_back(axis);
  SmallVector<int64_t> inverseOrder(signalRank);
  for (int64_t d = 0; d < signalRank; ++d)
    inverseOrder[permutation[d]] = d;
  auto part = [&](int64_t channel) -> Value {
    SmallVector<int64_t> starts(rank, 0), sizes(shape), steps(rank, 1);
    starts.back() = channel;
    sizes.back() = 1;
    Value p = c.reshape(c.slice(x, starts, sizes, steps), signalShape);
    p = c.transpose(p, permutation);
    RankedTensorType pt = NodeContext::typeOf(p);
    if (!pt)
      return c.fail();
    SmallVector<int64_t> ps(pt.getShape());
    if (points < n) { // Truncate.
      SmallVector<int64_t> st(signalRank, 0), sz(ps), sp(signalRank, 1);
      sz.back() = points;
      p = c.slice(p, st, sz, sp);
    } else if (points > n) { // Zero-pad at the end.
      PadOp::Properties properties;
      SmallVector<int64_t> padding(2 * signalRank, 0);
      padding.back() = points - n;
      properties.setMode(PadModeAttr::get(c.getContext(), PadMode::constant));
      properties.setPadding(c.builder().getDenseI64ArrayAttr(padding));
      p = c.create<PadOp>({p}, properties);
    }
    return p;
  };
  double sign = inverse ? 1.0 : -1.0;
  Value cosines = matrix(c, element, points, bins, [&](int64_t i, int64_t k) {
    return std::cos(2 * M_PI * double(i * k % points) / double(points));
  });
  Value sines = matrix(c, element, points, bins, [&](int64_t i, int64_t k) {
    return sign * std::sin(2 * M_PI * double(i * k % points) / double(points));
  });
  // (a + ib)(cos + i·sign·sin) = a cos - b sign sin + i (b cos + a sign sin).
  Value real = part(0);
  Value realOut = c.matmul(real, cosines);
  Value imagOut = c.matmul(real, sines);
  if (channels == 2) {
    Value imag = part(1);
    realOut = c.binary(BinaryKind::sub, realOut, c.matmul(imag, sines));
    imagOut = c.binary(BinaryKind::add, imagOut, c.matmul(imag, cosines));
  }
  if (inverse) {
    Value scale = c.scalarLike(realOut, 1.0 / double(points));
    realOut = c.binary(BinaryKind::mul, realOut, scale);
    imagOut = c.binary(BinaryKind::mul, imagOut, scale);
  }
  SmallVector<int64_t> outShape(signalShape);
  outShape[axis] = bins;
  outShape.push_back(1);
  auto finish = [&](Value v) {
    RankedTensorType vt = NodeContext::typeOf(v);
    if (!vt)
      return c.fail();
    return c.reshape(c.transpose(v, inverseOrder), outShape);
  };
  return c.concat({finish(realOut), finish(imagOut)}, rank - 1);
}

/// A length input given as a scalar tensor, or std::nullopt when absent.
std::optional<int64_t> scalarInput(NodeContext &c, size_t i, StringRef what) {
  if (!c.hasInput(i))
    return std::nullopt;
  std::optional<SmallVector<int64_t>> values = c.constantInts(i, what);
  if (!values)
    return std::nullopt;
  if (values->size() != 1) {
    c.error() << what << " must be a scalar";
    return std::nullopt;
  }
  return (*values)[0];
}

LogicalResult convertDFT(NodeContext &c) {
  Value x = c.input(0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return failure();
  std::optional<int64_t> length = scalarInput(c, 1, "dft_length");
  int64_t axis = 1;
  if (c.opset >= 20) {
    std::optional<int64_t> given = scalarInput(c, 2, "axis");
    axis = given.value_or(-2);
  } else {
    axis = c.getInt("axis", 1);
  }
  if (c.failed())
    return failure();
  if (axis < 0)
    axis += type.getRank();
  return c.setOutputs({dft(c, x, axis, length, c.getInt("inverse", 0) != 0,
                           c.getInt("onesided", 0) != 0)});
}

LogicalResult convertSTFT(NodeContext &c) {
  Value signal = c.input(0);
  std::optional<SmallVector<int64_t>> shape =
      c.staticShape(signal, "the signal");
  if (!shape)
    return failure();
  if (shape->size() != 3) {
    c.error() << "the signal must be batch x length x (1 or 2)";
    return failure();
  }
  Value window = c.optionalInput(2);
  std::optional<int64_t> frameLength;
  if (c.hasInput(3) && c.constantValue(c.input(3)))
    frameLength = scalarInput(c, 3, "frame_length");
  if (!frameLength && window) {
    RankedTensorType windowType = NodeContext::typeOf(window);
    if (windowType && windowType.getRank() == 1 && !windowType.isDynamicDim(0))
      frameLength = windowType.getDimSize(0);
  }
  std::optional<int64_t> step = c.constantValue(c.input(1))
                                    ? scalarInput(c, 1, "frame_step")
                                    : std::nullopt;
  bool onesided = c.getInt("onesided", 1) != 0;
  if (!c.failed() && (!step || !frameLength)) {
    // Run-time frame step or length: find the only values consistent with
    // the declared output (batch x frames x bins x 2).
    std::optional<SmallVector<int64_t>> out =
        c.requireDeclaredShape(0, "the frame step or length");
    if (!out)
      return failure();
    if (out->size() != 4) {
      c.error() << "the declared output must have rank 4";
      return failure();
    }
    int64_t frames = (*out)[1], bins = (*out)[2];
    SmallVector<std::pair<int64_t, int64_t>> solutions;
    SmallVector<int64_t> lengths;
    if (frameLength)
      lengths.push_back(*frameLength);
    else if (onesided)
      lengths = {2 * bins - 2, 2 * bins - 1};
    else
      lengths = {bins};
    for (int64_t fl : lengths) {
      if (fl <= 0 || fl > (*shape)[1] || (onesided ? fl / 2 + 1 : fl) != bins)
        continue;
      for (int64_t s = 1; s <= (*shape)[1]; ++s)
        if ((!step || s == *step) && 1 + ((*shape)[1] - fl) / s == frames)
          solutions.push_back({fl, s});
    }
    if (solutions.size() != 1) {
      c.error() << "the frame step and length are run-time data that the "
                   "declared output shape does not determine";
      return failure();
    }
    frameLength = solutions.front().first;
    step = solutions.front().second;
  }
  if (c.failed() || !step || !frameLength || *step <= 0 || *frameLength <= 0 ||
      *frameLength > (*shape)[1]) {
    if (!c.failed())
      c.error() << "needs a positive frame_step and a frame length within the "
                   "signal";
    return failure();
  }
  int64_t batch = (*shape)[0], length = (*shape)[1], channels = (*shape)[2];
  int64_t frames = 1 + (length - *frameLength) / *step;
  SmallVector<int64_t> positions;
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t j = 0; j < *frameLength; ++j)
      positions.push_back(f * *step + j);
  Value framed = c.gather(signal,
                          c.constant(DenseElementsAttr::get(
                              RankedTensorType::get({frames, *frameLength},
                                                    c.builder().getI64Type()),
                              ArrayRef<int64_t>(positions))),
                          1);
  if (window)
    framed = c.binary(BinaryKind::mul, framed,
                      c.reshape(window, {1, 1, *frameLength, 1}));
  (void)batch;
  (void)channels;
  return c.setOutputs({dft(c, framed, 2, std::nullopt, false, onesided)});
}

/// HannWindow, HammingWindow, BlackmanWindow as constants of the window size
/// (the input, or the declared output length when the size is run-time
/// data).
Converter windowConverter(double a0, double a1, double a2) {
  return [=](NodeContext &c) -> LogicalResult {
    std::optional<int64_t> size;
    if (c.constantValue(c.input(0))) {
      size = scalarInput(c, 0, "size");
    } else if (std::optional<SmallVector<int64_t>> out =
                   c.requireDeclaredShape(0, "size")) {
      if (out->size() == 1)
        size = (*out)[0];
    }
    if (!size || *size < 0)
      return c.fail(), failure();
    Type element = c.builder().getF32Type();
    if (std::optional<int64_t> dtype = c.getOptionalInt("output_datatype")) {
      element = convertElementType(c.getContext(), *dtype);
      if (!element) {
        c.error() << "output_datatype " << dataTypeName(*dtype)
                  << " is not supported";
        return failure();
      }
    }
    double denominator =
        c.getInt("periodic", 1) ? double(*size) : double(*size - 1);
    SmallVector<double> values;
    for (int64_t i = 0; i < *size; ++i) {
      double t = denominator > 0 ? 2 * M_PI * double(i) / denominator : 0;
      values.push_back(a0 - a1 * std::cos(t) + a2 * std::cos(2 * t));
    }
    auto type = RankedTensorType::get({*size}, c.builder().getF64Type());
    return c.setOutputs({c.cast(
        c.constant(DenseElementsAttr::get(type, ArrayRef<double>(values))),
        element)});
  };
}

} // namespace

void registerSignalOps(OpTable &t) {
  t.add("DFT", 17, convertDFT);
  t.add("STFT", 17, convertSTFT);
  t.add("HannWindow", 17, windowConverter(0.5, 0.5, 0.0));
  t.add("HammingWindow", 17, windowConverter(25.0 / 46.0, 21.0 / 46.0, 0.0));
  t.add("BlackmanWindow", 17, windowConverter(0.42, 0.5, 0.08));
}

} // namespace aicc::onnx_importer
