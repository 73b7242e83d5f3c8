#!/usr/bin/python3
"""Writes one small model per quantized operator of the com.microsoft
domain (as ONNX Runtime's quantization tools emit them), each with an input
and its output computed here with numpy from the operator's definition.

    make-ms-quant-models.py DIR

Each DIR/<name>/ holds model.onnx (float input x -> QuantizeLinear -> the
operator -> DequantizeLinear where its output is quantized -> float output
y), x.npy, expected/output_0.npy and atol (the comparison's absolute
tolerance: one step of the output's quantization, or the float rounding of
a float output). The names are printed one per line.

Models whose output is quantized may differ from the reference by one step
where x / scale falls within rounding of a tie.
"""
import sys

import numpy as np
from onnx import helper, numpy_helper

from ms_models import MS, write_case

work = sys.argv[1]
rng = np.random.default_rng(11)


def quantize(v, scale, zp, dtype):
    info = np.iinfo(dtype)
    q = np.rint(np.asarray(v, np.float64) / np.float64(scale)) + np.int64(zp)
    return np.clip(q, info.min, info.max).astype(dtype)


def dequantize(q, scale, zp):
    return (q.astype(np.float64) - np.asarray(zp, np.float64)) * \
        np.asarray(scale, np.float64)


def tensor(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def write(name, nodes, x, y, initializers, atol, opset=13):
    write_case(work, name, nodes, x, y, initializers, atol, opset)


def quantized_io(dtype, sx, zx, sy, zy):
    """Initializers and nodes for x -> Q -> (op) -> DQ -> y."""
    return ([tensor("sx", np.float32(sx)), tensor("zx", dtype(zx)),
             tensor("sy", np.float32(sy)), tensor("zy", dtype(zy))],
            helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
            helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"]))


def elementwise(name, dtype, zx, zy, shape, op, reference, extra_inputs=(),
                extra_init=(), **attrs):
    x = rng.standard_normal(shape).astype(np.float32)
    sx, sy = 0.02, 0.015
    init, q, dq = quantized_io(dtype, sx, zx, sy, zy)
    node = helper.make_node(op, ["xq", "sx", "zx", *extra_inputs, "sy", "zy"],
                            ["yq"], domain=MS, **attrs)
    real = reference(dequantize(quantize(x, sx, zx, dtype), sx, zx))
    y = dequantize(quantize(real, sy, zy, dtype), sy, zy)
    write(name, [q, node, dq], x, y, init + list(extra_init), sy * 1.01)


# Element-wise: a constant second operand broadcast per channel.
for op, dtype, zx, zy, fn in [
        ("QLinearAdd", np.uint8, 128, 120, np.add),
        ("QLinearMul", np.int8, -3, 2, np.multiply)]:
    b = rng.integers(-100, 100, (4, 1, 1)).astype(dtype) if dtype == np.int8 \
        else rng.integers(0, 255, (4, 1, 1)).astype(dtype)
    sb, zb = np.float32(0.03), dtype(5)
    bd = dequantize(b, sb, zb)
    elementwise(op.lower(), dtype, zx, zy, (2, 4, 5, 5), op,
                lambda v, fn=fn, bd=bd: fn(v, bd), ["b", "sb", "zb"],
                [tensor("b", b), tensor("sb", sb), tensor("zb", zb)])

elementwise("qlinearsigmoid", np.uint8, 110, 0, (3, 7), "QLinearSigmoid",
            lambda v: 1 / (1 + np.exp(-v)))
elementwise("qlinearleakyrelu", np.int8, 4, -10, (3, 7), "QLinearLeakyRelu",
            lambda v: np.where(v >= 0, v, 0.1 * v), alpha=0.1)


def softmax(v, axis):
    e = np.exp(v - v.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# QLinearSoftmax from a Softmax of opset 13 (along the axis) and of opset 11
# (rows of the input flattened at the axis).
elementwise("qlinearsoftmax", np.uint8, 128, 0, (2, 3, 6), "QLinearSoftmax",
            lambda v: softmax(v, 1), axis=1, opset=13)
elementwise("qlinearsoftmax-opset11", np.int8, 0, -128, (2, 3, 6),
            "QLinearSoftmax",
            lambda v: softmax(v.reshape(2, 18), 1).reshape(2, 3, 6), axis=1,
            opset=11)


def pooled(v, kernel, stride, pad):
    n, c, h, w = v.shape
    oh = (h + 2 * pad - kernel) // stride + 1
    ow = (w + 2 * pad - kernel) // stride + 1
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * stride - pad, j * stride - pad
            hs, ws = max(h0, 0), max(w0, 0)
            he, we = min(h0 + kernel, h), min(w0 + kernel, w)
            out[:, :, i, j] = v[:, :, hs:he, ws:we].mean(axis=(2, 3))
    return out


def pool_model(name, op, channels_last, reference, shape, **attrs):
    def ref(v):
        if channels_last:
            return reference(v.transpose(0, 3, 1, 2)).transpose(0, 2, 3, 1)
        return reference(v)
    elementwise(name, np.uint8, 128, 100, shape, op, ref,
                channels_last=channels_last, **attrs)


pool_model("qlinearaveragepool", "QLinearAveragePool", 0,
           lambda v: pooled(v, 3, 2, 1), (2, 3, 9, 9), kernel_shape=[3, 3],
           strides=[2, 2], pads=[1, 1, 1, 1])
pool_model("qlinearaveragepool-nhwc", "QLinearAveragePool", 1,
           lambda v: pooled(v, 2, 2, 0), (2, 8, 8, 3), kernel_shape=[2, 2],
           strides=[2, 2])
pool_model("qlinearglobalaveragepool", "QLinearGlobalAveragePool", 0,
           lambda v: v.mean(axis=(2, 3), keepdims=True), (2, 5, 6, 6))
pool_model("qlinearglobalaveragepool-nhwc", "QLinearGlobalAveragePool", 1,
           lambda v: v.mean(axis=(2, 3), keepdims=True), (2, 6, 6, 5))

# QLinearConcat: the input twice at different scales, and a constant.
x = rng.standard_normal((2, 3, 4)).astype(np.float32)
sx, zx, s2, z2, sy, zy = 0.02, 128, 0.05, 100, 0.03, 90
k = rng.integers(0, 255, (2, 2, 4)).astype(np.uint8)
sk, zk = np.float32(0.01), np.uint8(7)
init, q, dq = quantized_io(np.uint8, sx, zx, sy, zy)
init += [tensor("s2", np.float32(s2)), tensor("z2", np.uint8(z2)),
         tensor("k", k), tensor("sk", sk), tensor("zk", zk)]
nodes = [q, helper.make_node("QuantizeLinear", ["x", "s2", "z2"], ["x2"]),
         helper.make_node("QLinearConcat",
                          ["sy", "zy", "xq", "sx", "zx", "x2", "s2", "z2",
                           "k", "sk", "zk"], ["yq"], domain=MS, axis=1), dq]
real = np.concatenate(
    [dequantize(quantize(x, sx, zx, np.uint8), sx, zx),
     dequantize(quantize(x, s2, z2, np.uint8), s2, z2),
     dequantize(k, sk, zk)], axis=1)
write("qlinearconcat", nodes, x,
      dequantize(quantize(real, sy, zy, np.uint8), sy, zy), init, sy * 1.01)

# QGemm: transposed int8 weights per output column with an int32 bias,
# quantized output; and plain weights per tensor with a float output.
for name, trans_b, per_column, quantized_out in [
        ("qgemm", 1, True, True), ("qgemm-float", 0, False, False)]:
    m, kk, n = 3, 16, 8
    x = rng.standard_normal((m, kk)).astype(np.float32)
    sx, zx, sy, zy = 0.025, 128, 0.04, 110
    w = rng.integers(-127, 128, (n, kk) if trans_b else (kk, n)).astype(
        np.int8)
    sw = (rng.random(n) * 0.01 + 0.005).astype(np.float32) if per_column \
        else np.float32(0.008)
    zw = np.zeros(n, np.int8) if per_column else np.int8(0)
    bias = rng.integers(-3000, 3000, n).astype(np.int32)
    alpha = 0.5 if quantized_out else 1.0
    init, q, dq = quantized_io(np.uint8, sx, zx, sy, zy)
    init += [tensor("w", w), tensor("sw", sw), tensor("zw", zw),
             tensor("bias", bias)]
    inputs = ["xq", "sx", "zx", "w", "sw", "zw", "bias"]
    if quantized_out:
        inputs += ["sy", "zy"]
    node = helper.make_node("QGemm", inputs, ["yq" if quantized_out else "y"],
                            domain=MS, transB=trans_b, alpha=alpha)
    wd = dequantize(w.T if trans_b else w, sw, zw)
    xd = dequantize(quantize(x, sx, zx, np.uint8), sx, zx)
    real = alpha * (xd @ wd + bias * (np.float64(sx) * sw.astype(np.float64)))
    if quantized_out:
        write(name, [q, node, dq], x,
              dequantize(quantize(real, sy, zy, np.uint8), sy, zy), init,
              sy * 1.01)
    else:
        write(name, [q, node], x, real, init, 1e-4)


def dynamic_quantize(v):
    v = v.astype(np.float32)
    low, high = min(np.float32(0), v.min()), max(np.float32(0), v.max())
    scale = np.float32((high - low) / np.float32(255))
    zp = np.clip(np.rint(-low / scale), 0, 255)
    q = np.clip(np.rint(v / scale) + zp, 0, 255).astype(np.uint8)
    return q, scale, zp


# DynamicQuantizeMatMul: per-column asymmetric int8 weights and a bias.
x = rng.standard_normal((2, 3, 16)).astype(np.float32)
w = rng.integers(-127, 128, (16, 8)).astype(np.int8)
sw = (rng.random(8) * 0.01 + 0.005).astype(np.float32)
zw = rng.integers(-4, 5, 8).astype(np.int8)
bias = rng.standard_normal(8).astype(np.float32)
xq, xs, xz = dynamic_quantize(x)
acc = (xq.astype(np.int64) - int(xz)) @ (w.astype(np.int64) - zw)
y = acc * (np.float64(xs) * sw.astype(np.float64)) + bias
write("dynamicquantizematmul",
      [helper.make_node("DynamicQuantizeMatMul", ["x", "w", "sw", "zw",
                                                  "bias"], ["y"], domain=MS)],
      x, y, [tensor("w", w), tensor("sw", sw), tensor("zw", zw),
             tensor("bias", bias)], 1e-4)

# MatMulIntegerToFloat: a statically quantized activation.
x = rng.standard_normal((4, 16)).astype(np.float32)
sx, zx = 0.02, 120
w = rng.integers(0, 256, (16, 8)).astype(np.uint8)
sw = np.float32(0.004)
zw = np.uint8(128)
bias = rng.standard_normal(8).astype(np.float32)
init = [tensor("sx", np.float32(sx)), tensor("zx", np.uint8(zx)),
        tensor("w", w), tensor("sw", sw), tensor("zw", zw),
        tensor("bias", bias)]
xq = quantize(x, sx, zx, np.uint8)
acc = (xq.astype(np.int64) - zx) @ (w.astype(np.int64) - int(zw))
y = acc * (np.float64(np.float32(sx)) * np.float64(sw)) + bias
write("matmulintegertofloat",
      [helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
       helper.make_node("MatMulIntegerToFloat",
                        ["xq", "w", "sx", "sw", "zx", "zw", "bias"], ["y"],
                        domain=MS)], x, y, init, 1e-4)


def pack(values, bits):
    """Packs rows of small unsigned integers, low bits first."""
    rows, count = values.shape
    per_byte = 8 // bits
    nbytes = (count + per_byte - 1) // per_byte
    out = np.zeros((rows, nbytes), np.uint8)
    for i in range(count):
        out[:, i // per_byte] |= (values[:, i].astype(np.uint8) <<
                                  (bits * (i % per_byte))).astype(np.uint8)
    return out


# MatMulNBits: a K that is not a multiple of the block, with and without
# packed zero points, in 4 and 8 bits.
for name, bits, with_zp in [("matmulnbits", 4, True),
                            ("matmulnbits-nozp", 4, False),
                            ("matmulnbits-8bit", 8, True)]:
    kk, n, block = 40, 12, 16
    blocks = (kk + block - 1) // block
    x = rng.standard_normal((2, 3, kk)).astype(np.float32)
    qw = rng.integers(0, 1 << bits, (n, blocks * block))
    qw[:, kk:] = 0
    scales = (rng.random((n, blocks)) * 0.05 + 0.01).astype(np.float32)
    zps = rng.integers(0, 1 << bits, (n, blocks)) if with_zp else \
        np.full((n, blocks), 1 << (bits - 1))
    b = pack(qw, bits).reshape(n, blocks, block * bits // 8)
    bias = rng.standard_normal(n).astype(np.float32)
    init = [tensor("b", b), tensor("scales", scales.reshape(-1)),
            tensor("bias", bias)]
    inputs = ["x", "b", "scales", "zp" if with_zp else "", "", "bias"]
    if with_zp:
        init.append(tensor("zp", pack(zps, bits).reshape(-1)))
    wd = (qw[:, :kk] - np.repeat(zps, block, axis=1)[:, :kk]) * \
        np.repeat(scales.astype(np.float64), block, axis=1)[:, :kk]
    y = x.astype(np.float64) @ wd.T + bias
    write(name, [helper.make_node("MatMulNBits", inputs, ["y"], domain=MS,
                                  K=kk, N=n, bits=bits, block_size=block)],
          x, y, init, 1e-4)

# MatMulNBits of one row, k a multiple of the groups (32): on cuda the
# weight stays packed (tile.matmul_int4); on the CPU it becomes a float
# weight. Ten columns: not a multiple of the kernel's four a warp.
kk, n, block = 64, 10, 32
blocks = kk // block
x = rng.standard_normal((1, kk)).astype(np.float32)
qw = rng.integers(0, 16, (n, kk))
scales = (rng.random((n, blocks)) * 0.05 + 0.01).astype(np.float32)
zps = rng.integers(0, 16, (n, blocks))
bias = rng.standard_normal(n).astype(np.float32)
init = [tensor("b", pack(qw, 4).reshape(n, blocks, block // 2)),
        tensor("scales", scales.reshape(-1)), tensor("zp", pack(zps, 4)),
        tensor("bias", bias)]
wd = (qw - np.repeat(zps, block, axis=1)) * \
    np.repeat(scales.astype(np.float64), block, axis=1)
write("matmulnbits-row", [helper.make_node(
    "MatMulNBits", ["x", "b", "scales", "zp", "", "bias"], ["y"], domain=MS,
    K=kk, N=n, bits=4, block_size=block)],
    x, x.astype(np.float64) @ wd.T + bias, init, 1e-4)
