#!/usr/bin/python3
"""Writes a QDQ-quantized model, as ONNX Runtime's quantizer writes them,
and its numpy reference, for the quantization tests.

    make-qdq-model.py DIR

DIR/model.onnx   x float[2, 3, 8, 8] -> Q/DQ (uint8, zero point 128) ->
                 Conv 3x3 pad 1 with int8 weights per output channel
                 (symmetric) and an int32 bias -> Relu -> Q/DQ (uint8) ->
                 Reshape [2, 256] -> MatMul with int8 weights per column
                 (asymmetric) -> Q/DQ (uint8) -> y float[2, 10]
DIR/x.npy        an input
DIR/expected/    output_0.npy: the model's meaning computed with numpy in
                 float64 (dequantize, operate, quantize with rounding half
                 to even)
DIR/step         the output's quantization step (its scale)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

work = sys.argv[1]
os.makedirs(os.path.join(work, "expected"), exist_ok=True)
rng = np.random.default_rng(3)

x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
sx, zx = np.float32(0.03), np.uint8(128)
w1 = rng.integers(-127, 128, (4, 3, 3, 3)).astype(np.int8)
sw1 = (rng.random(4) * 0.01 + 0.002).astype(np.float32)
b1 = rng.integers(-2000, 2000, 4).astype(np.int32)
sb1 = (sx * sw1).astype(np.float32)
sh, zh = np.float32(0.05), np.uint8(0)
w2 = rng.integers(-127, 128, (256, 10)).astype(np.int8)
sw2 = (rng.random(10) * 0.004 + 0.001).astype(np.float32)
zw2 = rng.integers(-5, 6, 10).astype(np.int8)
sy, zy = np.float32(0.02), np.uint8(100)


def t(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


initializers = [
    t("sx", sx), t("zx", zx), t("w1", w1), t("sw1", sw1),
    t("zw1", np.zeros(4, np.int8)), t("b1", b1), t("sb1", sb1),
    t("zb1", np.zeros(4, np.int32)), t("sh", sh), t("zh", zh),
    t("shape", np.array([2, 256], np.int64)), t("w2", w2), t("sw2", sw2),
    t("zw2", zw2), t("sy", sy), t("zy", zy)]
nodes = [
    helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
    helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
    helper.make_node("DequantizeLinear", ["w1", "sw1", "zw1"], ["w1d"],
                     axis=0),
    helper.make_node("DequantizeLinear", ["b1", "sb1", "zb1"], ["b1d"],
                     axis=0),
    helper.make_node("Conv", ["xd", "w1d", "b1d"], ["c"], pads=[1, 1, 1, 1],
                     kernel_shape=[3, 3]),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("QuantizeLinear", ["r", "sh", "zh"], ["rq"]),
    helper.make_node("DequantizeLinear", ["rq", "sh", "zh"], ["rd"]),
    helper.make_node("Reshape", ["rd", "shape"], ["f"]),
    helper.make_node("DequantizeLinear", ["w2", "sw2", "zw2"], ["w2d"],
                     axis=1),
    helper.make_node("MatMul", ["f", "w2d"], ["m"]),
    helper.make_node("QuantizeLinear", ["m", "sy", "zy"], ["yq"]),
    helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"]),
]
graph = helper.make_graph(
    nodes, "qdq",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 10])],
    initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(work, "model.onnx"))
np.save(os.path.join(work, "x.npy"), x)


def quantize(v, scale, zp, low, high):
    return np.clip(np.rint(v / np.float64(scale)) + int(zp), low, high)


def dequantize(q, scale, zp):
    return (q.astype(np.float64) - np.asarray(zp, np.float64)) * scale


xd = dequantize(quantize(x, sx, zx, 0, 255), sx, zx)
w1d = dequantize(w1, sw1.astype(np.float64)[:, None, None, None], 0)
padded = np.pad(xd, ((0, 0), (0, 0), (1, 1), (1, 1)))
conv = np.zeros((2, 4, 8, 8))
for i in range(8):
    for j in range(8):
        patch = padded[:, :, i:i + 3, j:j + 3]
        conv[:, :, i, j] = np.einsum("nchw,mchw->nm", patch, w1d)
conv += dequantize(b1, sb1.astype(np.float64), 0)[None, :, None, None]
hd = dequantize(quantize(np.maximum(conv, 0), sh, zh, 0, 255), sh, zh)
w2d = dequantize(w2, sw2.astype(np.float64), zw2)
m = hd.reshape(2, 256) @ w2d
y = dequantize(quantize(m, sy, zy, 0, 255), sy, zy).astype(np.float32)
np.save(os.path.join(work, "expected", "output_0.npy"), y)
with open(os.path.join(work, "step"), "w") as f:
    f.write(f"{float(sy)}\n")
