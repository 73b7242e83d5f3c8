//===- MicrosoftQuantization.cpp - com.microsoft's quantized operators ----===//
//
// The quantized operators ONNX Runtime's tools write in the com.microsoft
// domain. Each is what it means in real numbers: its quantized operands
// dequantized, the float operator, the result quantized again, so that a
// chain of them is DQ -> op -> Q islands that tile-fold-qdq turns into
// integer arithmetic where an integer form exists and tile-lower-quant
// computes in float elsewhere. The matrix products whose activation is
// quantized at run time (DynamicQuantizeMatMul, MatMulIntegerToFloat) are
// integer products directly, as ONNX Runtime computes them. MatMulNBits'
// packed 2-, 4- or 8-bit weights are unpacked at compile time into a
// blocked tile.dequantize.
//
//===----------------------------------------------------------------------===//

#include "QuantizationCommon.h"

#include "aicc/Support/StoredBytes.h"

#include "Tile/IR/Constants.h"
#include "Tile/IR/QuantArithmetic.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// The element type of input `i` (null when unknown).
Type elementOf(NodeContext &c, size_t i) {
  RankedTensorType type = NodeContext::typeOf(c.input(i));
  return type ? type.getElementType() : Type();
}

/// Dequantizes input `x` with per-tensor parameters at inputs `x + 1` and
/// `x + 2` (the zero point optional).
Value dequantizeInput(NodeContext &c, size_t x) {
  return dequantizeValue(c, c.input(x), c.input(x + 1), c.optionalInput(x + 2));
}

/// Quantizes `real` with the per-tensor parameters at inputs `scale` and
/// `scale + 1` (optional) into the type of input 0.
Value quantizeOutput(NodeContext &c, Value real, size_t scale) {
  Value zeroPoint = c.optionalInput(scale + 1);
  return quantizeValue(c, real, c.input(scale), zeroPoint,
                       quantizedType(c, zeroPoint, elementOf(c, 0)));
}

/// QLinearAdd, QLinearMul: A, A_scale, A_zp, B, B_scale, B_zp, C_scale,
/// C_zp.
Converter binaryConverter(BinaryKind kind) {
  return [kind](NodeContext &c) {
    Value a = dequantizeInput(c, 0);
    Value b = dequantizeInput(c, 3);
    return c.setOutputs({quantizeOutput(c, c.binary(kind, a, b), 6)});
  };
}

/// QLinearSigmoid, QLinearLeakyRelu: X, X_scale, X_zp, Y_scale, Y_zp.
Converter unaryConverter(UnaryKind kind,
                         std::optional<double> defaultAlpha = std::nullopt) {
  return [kind, defaultAlpha](NodeContext &c) {
    std::optional<double> alpha;
    if (defaultAlpha)
      alpha = c.getFloat("alpha", *defaultAlpha);
    Value x = dequantizeInput(c, 0);
    return c.setOutputs({quantizeOutput(c, c.unary(kind, x, alpha), 3)});
  };
}

/// QLinearSoftmax: X, X_scale, X_zp, Y_scale, Y_zp; `opset` is the opset of
/// the Softmax it replaced: before 13, the input is flattened to rows at
/// `axis`.
LogicalResult convertQLinearSoftmax(NodeContext &c) {
  Value x = dequantizeInput(c, 0);
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return c.fail(), failure();
  int64_t rank = type.getRank();
  std::optional<int64_t> axis = c.normalizeAxis(c.getInt("axis", -1), rank);
  if (!axis)
    return failure();
  auto softmax = [&](Value input, int64_t dim) {
    SoftmaxOp::Properties properties;
    properties.setAxis(c.builder().getI64IntegerAttr(dim));
    return c.create<SoftmaxOp>({input}, properties);
  };
  Value y = alongSoftmaxAxis(c, x, *axis, c.getInt("opset", 13) < 13, softmax);
  return c.setOutputs({quantizeOutput(c, y, 3)});
}

/// QLinearConcat: Y_scale, Y_zp, then (X, X_scale, X_zp) per input.
LogicalResult convertQLinearConcat(NodeContext &c) {
  size_t n = c.numInputs();
  if (n < 5 || (n - 2) % 3 != 0) {
    c.error() << "expected Y_scale, Y_zero_point and a (tensor, scale, "
                 "zero point) triple per input, got "
              << n << " inputs";
    return failure();
  }
  SmallVector<Value> parts;
  for (size_t i = 2; i < n; i += 3)
    parts.push_back(dequantizeInput(c, i));
  RankedTensorType first = NodeContext::typeOf(parts.front());
  if (!first)
    return c.fail(), failure();
  std::optional<int64_t> axis =
      c.normalizeAxis(c.getInt("axis", 0), first.getRank());
  if (!axis)
    return failure();
  Value zeroPoint = c.optionalInput(1);
  Value y = quantizeValue(c, c.concat(parts, *axis), c.input(0), zeroPoint,
                          quantizedType(c, zeroPoint, elementOf(c, 2)));
  return c.setOutputs({y});
}

/// The permutations between channels-last (N, spatial..., C) and
/// channels-first (N, C, spatial...) layouts of rank `rank`.
SmallVector<int64_t> toChannelsFirst(int64_t rank) {
  SmallVector<int64_t> perm = {0, rank - 1};
  for (int64_t d = 1; d + 1 < rank; ++d)
    perm.push_back(d);
  return perm;
}
SmallVector<int64_t> toChannelsLast(int64_t rank) {
  SmallVector<int64_t> perm = {0};
  for (int64_t d = 2; d < rank; ++d)
    perm.push_back(d);
  perm.push_back(1);
  return perm;
}

/// QLinearAveragePool and QLinearGlobalAveragePool: X, X_scale, X_zp,
/// Y_scale, Y_zp, in either layout (channels_last).
Converter poolConverter(bool global) {
  return [global](NodeContext &c) {
    Value x = dequantizeInput(c, 0);
    RankedTensorType type = NodeContext::typeOf(x);
    if (!type)
      return c.fail(), failure();
    int64_t rank = type.getRank();
    if (rank < 3) {
      c.error() << "expected an input with at least one spatial dimension";
      return failure();
    }
    bool channelsLast = c.getInt("channels_last", 0) != 0;
    if (channelsLast)
      x = c.transpose(x, toChannelsFirst(rank));
    Value y;
    if (global) {
      GlobalPoolOp::Properties properties;
      properties.setKind(PoolKindAttr::get(c.getContext(), PoolKind::avg));
      y = c.create<GlobalPoolOp>({x}, properties);
    } else {
      y = buildPool(c, x, PoolKind::avg);
    }
    if (channelsLast)
      y = c.transpose(y, toChannelsLast(rank));
    return c.setOutputs({quantizeOutput(c, y, 3)});
  };
}

/// `scale` (rank 0, one element or one per column) as f32 shaped to
/// broadcast along the last dimension of a matrix product.
Value columnScale(NodeContext &c, Value scale) {
  RankedTensorType type = NodeContext::typeOf(scale);
  if (!type)
    return c.fail();
  Value f32 = c.cast(scale, c.builder().getF32Type());
  if (type.getRank() == 1 && type.getDimSize(0) == 1)
    return c.reshape(f32, {});
  return f32;
}

/// QGemm: A, a_scale, a_zp, B, b_scale, b_zp (per tensor or per column of
/// the product), C (optional i32 bias in the accumulator's scale), y_scale
/// and y_zp (optional: without them the output is float).
LogicalResult convertQGemm(NodeContext &c) {
  bool transA = c.getInt("transA", 0) != 0;
  bool transB = c.getInt("transB", 0) != 0;
  double alpha = c.getFloat("alpha", 1.0);
  RankedTensorType bType = NodeContext::typeOf(c.input(3));
  RankedTensorType bScaleType = NodeContext::typeOf(c.input(4));
  if (!bType || !bScaleType)
    return c.fail(), failure();
  if (bType.getRank() != 2) {
    c.error() << "B must be a matrix";
    return failure();
  }
  Value a = dequantizeInput(c, 0);
  Granularity columns;
  columns.axis = transB ? 0 : 1;
  Value b =
      dequantizeValue(c, c.input(3), c.input(4), c.optionalInput(5), columns);
  Value y = c.matmul(a, b, transA, transB);
  if (Value bias = c.optionalInput(6)) {
    // The bias is in the accumulator's scale, a_scale * b_scale.
    Value scale = c.binary(BinaryKind::mul, columnScale(c, c.input(1)),
                           columnScale(c, c.input(4)));
    y = c.binary(BinaryKind::add, y,
                 c.binary(BinaryKind::mul,
                          c.cast(bias, c.builder().getF32Type()), scale));
  }
  if (alpha != 1.0)
    y = c.binary(BinaryKind::mul, y, c.scalarLike(y, alpha));
  if (!c.hasInput(7))
    return c.setOutputs({y});
  return c.setOutputs({quantizeOutput(c, y, 7)});
}

/// The float result of an integer matrix product of centered operands:
/// `product * aScale * bScale (+ bias)`, the scales per tensor or (B's)
/// per column.
Value scaledProduct(NodeContext &c, Value product, Value aScale, Value bScale,
                    Value bias) {
  Type f32 = c.builder().getF32Type();
  Value y = c.binary(BinaryKind::mul, c.cast(product, f32),
                     c.binary(BinaryKind::mul, columnScale(c, aScale),
                              columnScale(c, bScale)));
  return bias ? c.binary(BinaryKind::add, y, bias) : y;
}

/// DynamicQuantizeMatMul: A (float, quantized here as DynamicQuantizeLinear
/// does), B, b_scale, b_zp (optional), bias (optional).
LogicalResult convertDynamicQuantizeMatMul(NodeContext &c) {
  DynamicQuantized a = dynamicQuantize(c, c.input(0));
  auto same = [](Value v) { return v; };
  Value product =
      numpyMatmul(c, centered(c, a.values, a.zeroPoint, same),
                  centered(c, c.input(1), c.optionalInput(3), same));
  return c.setOutputs(
      {scaledProduct(c, product, a.scale, c.input(2), c.optionalInput(4))});
}

/// MatMulIntegerToFloat: A, B, a_scale, b_scale, a_zp, b_zp, bias (the last
/// three optional).
LogicalResult convertMatMulIntegerToFloat(NodeContext &c) {
  auto same = [](Value v) { return v; };
  Value product =
      numpyMatmul(c, centered(c, c.input(0), c.optionalInput(4), same),
                  centered(c, c.input(1), c.optionalInput(5), same));
  return c.setOutputs(
      {scaledProduct(c, product, c.input(2), c.input(3), c.optionalInput(6))});
}

/// The bytes of a compile-time 8-bit tensor, or std::nullopt.
std::optional<SmallVector<uint8_t>> constantBytes(NodeContext &c, Value v) {
  ElementsAttr attr = c.constantValue(v);
  if (!attr || !attr.getElementType().isInteger(8))
    return std::nullopt;
  if (std::optional<ArrayRef<char>> stored = aicc::storedBytes(attr))
    return SmallVector<uint8_t>(stored->begin(), stored->end());
  // A splat: one value for every element.
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return std::nullopt;
  SmallVector<uint8_t> bytes;
  for (const APInt &value : dense.getValues<APInt>())
    bytes.push_back(static_cast<uint8_t>(value.getZExtValue()));
  return bytes;
}

/// The values of a compile-time float tensor, or std::nullopt.
std::optional<SmallVector<APFloat>> constantFloats(NodeContext &c, Value v) {
  ElementsAttr attr = c.constantValue(v);
  auto real = attr ? dyn_cast<FloatType>(attr.getElementType()) : FloatType();
  if (!real)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return SmallVector<APFloat>(dense.getValues<APFloat>());
  std::optional<ArrayRef<char>> stored = aicc::storedBytes(attr);
  unsigned width = real.getWidth();
  if (!stored || width % 8 != 0 ||
      int64_t(stored->size()) != attr.getNumElements() * (width / 8))
    return std::nullopt;
  SmallVector<APFloat> values;
  for (int64_t i = 0; i < attr.getNumElements(); ++i) {
    uint64_t bits = 0;
    for (unsigned b = 0; b < width / 8; ++b)
      bits |= uint64_t(static_cast<uint8_t>((*stored)[i * (width / 8) + b]))
              << (8 * b);
    values.push_back(APFloat(real.getFloatSemantics(), APInt(width, bits)));
  }
  return values;
}

/// MatMulNBits: A (float, [..., K]), B (uint8 [N, blocks, blockBytes]: each
/// column of the product's weight packed `bits` to a value, low bits
/// first), scales ([N * blocks] or [N, blocks]), zero points (optional:
/// packed like B, or float [N * blocks]; default 2^(bits-1)), g_idx
/// (unsupported), bias (optional, [N]). The weight is W[k, n] =
/// (q[n, k] - zp[n, k / block]) * scale[n, k / block].
LogicalResult convertMatMulNBits(NodeContext &c) {
  int64_t k = c.getInt("K", 0), n = c.getInt("N", 0);
  int64_t bits = c.getInt("bits", 4), block = c.getInt("block_size", 0);
  if (k <= 0 || n <= 0 || (bits != 2 && bits != 4 && bits != 8) || block < 16 ||
      (block & (block - 1)) != 0) {
    c.error() << "expected positive K and N, bits 2, 4 or 8 and a power-of-"
                 "two block_size of at least 16; got K "
              << k << ", N " << n << ", bits " << bits << ", block_size "
              << block;
    return failure();
  }
  if (c.hasInput(4)) {
    c.error() << "g_idx (activation-order block indices) is not supported";
    return failure();
  }
  int64_t blocks = (k + block - 1) / block;
  int64_t blockBytes = block * bits / 8;
  std::optional<SmallVector<uint8_t>> packed = constantBytes(c, c.input(1));
  if (!packed) {
    c.error() << "B must be a compile-time uint8 tensor";
    return failure();
  }
  if (static_cast<int64_t>(packed->size()) != n * blocks * blockBytes) {
    c.error() << "B holds " << packed->size() << " bytes; N " << n << " x "
              << blocks << " blocks x " << blockBytes << " bytes expected";
    return failure();
  }
  int64_t mask = (1 << bits) - 1;
  auto unpack = [&](ArrayRef<uint8_t> bytes, int64_t row, int64_t rowBytes,
                    int64_t index) {
    int64_t bit = index * bits;
    return (bytes[row * rowBytes + bit / 8] >> (bit % 8)) & mask;
  };
  // The weight as [K, N] values, the scheme's block axis 0.
  std::vector<char> values;
  values.reserve(k * n);
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t nn = 0; nn < n; ++nn)
      values.push_back(
          static_cast<char>(unpack(*packed, nn, blocks * blockBytes, kk)));
  MLIRContext *ctx = c.getContext();
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  auto qType = RankedTensorType::get({k, n}, u8);
  // A weight where weights may be (the function's entry block), so that
  // tile-lower-quant can fold or pack it; a constant elsewhere.
  Block *insertion = c.builder().getInsertionBlock();
  Value q = insertion && insertion->isEntryBlock() &&
                    isa<func::FuncOp>(insertion->getParentOp())
                ? createWeight(c.builder(), c.loc, qType,
                               c.node.output(0) + "_q", values)
                : c.constant(DenseElementsAttr::getFromRawBuffer(
                      qType, ArrayRef<char>(values.data(), values.size())));

  Value scales = c.input(2);
  RankedTensorType scaleType = NodeContext::typeOf(scales);
  if (!scaleType || !scaleType.hasStaticShape() ||
      scaleType.getNumElements() != n * blocks) {
    c.error() << "scales must hold N x blocks = " << n * blocks << " values";
    return c.fail(), failure();
  }
  // The scales as [blocks, N]: transposed here when they are constants, so
  // that the dequantization carries them as its scheme (a weight that
  // tile-lower-quant folds or packs), else by a transpose at run time.
  Value blockScales;
  if (std::optional<SmallVector<APFloat>> values = constantFloats(c, scales)) {
    SmallVector<APFloat> transposed;
    transposed.reserve(values->size());
    for (int64_t b = 0; b < blocks; ++b)
      for (int64_t nn = 0; nn < n; ++nn)
        transposed.push_back((*values)[nn * blocks + b]);
    blockScales = c.constant(DenseElementsAttr::get(
        RankedTensorType::get({blocks, n}, scaleType.getElementType()),
        transposed));
  } else {
    blockScales = c.transpose(c.reshape(scales, {n, blocks}), {1, 0});
  }
  Granularity g;
  g.axis = 0;
  g.blockSize = block;

  Value zeroPoints = c.optionalInput(3);
  RankedTensorType zpType = NodeContext::typeOf(zeroPoints);
  Value w;
  if (zpType && isa<FloatType>(zpType.getElementType())) {
    // Float zero points: (q - zp) * scale in float.
    if (!zpType.hasStaticShape() || zpType.getNumElements() != n * blocks) {
      c.error() << "float zero points must hold N x blocks = " << n * blocks
                << " values";
      return failure();
    }
    Value zp = c.transpose(c.reshape(zeroPoints, {n, blocks}), {1, 0});
    Type real = scaleType.getElementType();
    Value expandedScale =
        expandQuantParameter(c.builder(), c.loc, blockScales, {k, n}, 0, block);
    Value expandedZp =
        expandQuantParameter(c.builder(), c.loc, zp, {k, n}, 0, block);
    w = c.binary(BinaryKind::mul,
                 c.binary(BinaryKind::sub, c.cast(q, real), expandedZp),
                 expandedScale);
  } else {
    int64_t zpRowBytes = (blocks * bits + 7) / 8;
    SmallVector<APInt> zps;
    if (zeroPoints) {
      std::optional<SmallVector<uint8_t>> zpBytes =
          constantBytes(c, zeroPoints);
      if (!zpBytes || static_cast<int64_t>(zpBytes->size()) != n * zpRowBytes) {
        c.error() << "packed zero points must be a compile-time uint8 "
                     "tensor of N x "
                  << zpRowBytes << " bytes";
        return failure();
      }
      for (int64_t b = 0; b < blocks; ++b)
        for (int64_t nn = 0; nn < n; ++nn)
          zps.push_back(APInt(8, unpack(*zpBytes, nn, zpRowBytes, b), false));
    } else {
      zps.assign(blocks * n, APInt(8, 1 << (bits - 1), false));
    }
    Value zp = c.constant(
        DenseElementsAttr::get(RankedTensorType::get({blocks, n}, u8), zps));
    w = dequantizeValue(c, q, blockScales, zp, g);
  }
  Value y = numpyMatmul(c, c.input(0), w);
  if (Value bias = c.optionalInput(5))
    y = c.binary(BinaryKind::add, y, bias);
  return c.setOutputs({y});
}

} // namespace

void registerMicrosoftQuantizationOps(OpTable &t) {
  StringRef ms = kMicrosoftDomain;
  t.add(ms, "QLinearAdd", 1, binaryConverter(BinaryKind::add));
  t.add(ms, "QLinearMul", 1, binaryConverter(BinaryKind::mul));
  t.add(ms, "QLinearSigmoid", 1, unaryConverter(UnaryKind::sigmoid));
  t.add(ms, "QLinearLeakyRelu", 1, unaryConverter(UnaryKind::leaky_relu, 0.01));
  t.add(ms, "QLinearSoftmax", 1, convertQLinearSoftmax);
  t.add(ms, "QLinearConcat", 1, convertQLinearConcat);
  t.add(ms, "QLinearAveragePool", 1, poolConverter(false));
  t.add(ms, "QLinearGlobalAveragePool", 1, poolConverter(true));
  t.add(ms, "QGemm", 1, convertQGemm);
  t.add(ms, "DynamicQuantizeMatMul", 1, convertDynamicQuantizeMatMul);
  t.add(ms, "MatMulIntegerToFloat", 1, convertMatMulIntegerToFloat);
  t.add(ms, "MatMulNBits", 1, convertMatMulNBits);
}

} // namespace aicc::onnx_importer
