#!/usr/bin/python3
"""Writes a small float CNN for the post-training quantization tests, its
calibration samples and an input with the float model's output.

    make-ptq-model.py DIR

DIR/model.onnx     x float[2, 3, 12, 12] -> Conv 3x3 (8) + bias -> Relu ->
                   Conv 3x3 stride 2 (16) + bias -> Relu ->
                   GlobalAveragePool -> Flatten -> Gemm (transB, 10) -> y
                   (nodes named conv1, conv2, pool, flatten, fc)
DIR/calibration/   sample_00 ... sample_07, each with input_0.npy
DIR/x.npy          an input outside the calibration set
DIR/expected/      output_0.npy: the float model's output (numpy, float64)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

work = sys.argv[1]
rng = np.random.default_rng(21)
w1 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
b1 = (rng.standard_normal(8) * 0.1).astype(np.float32)
w2 = (rng.standard_normal((16, 8, 3, 3)) * 0.2).astype(np.float32)
b2 = (rng.standard_normal(16) * 0.1).astype(np.float32)
w3 = (rng.standard_normal((10, 16)) * 0.5).astype(np.float32)
b3 = (rng.standard_normal(10) * 0.1).astype(np.float32)
init = [numpy_helper.from_array(a, n) for a, n in
        [(w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"), (w3, "w3"),
         (b3, "b3")]]
nodes = [
    helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1",
                     pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
    helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2",
                     pads=[1, 1, 1, 1], strides=[2, 2]),
    helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
    helper.make_node("GlobalAveragePool", ["r2"], ["p"], name="pool"),
    helper.make_node("Flatten", ["p"], ["f"], name="flatten"),
    helper.make_node("Gemm", ["f", "w3", "b3"], ["y"], name="fc", transB=1),
]
graph = helper.make_graph(
    nodes, "ptq-cnn",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 12, 12])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 10])], init)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
os.makedirs(os.path.join(work, "expected"), exist_ok=True)
onnx.save(model, os.path.join(work, "model.onnx"))


def conv(x, w, b, stride):
    n, c, h, wd = x.shape
    m, _, k, _ = w.shape
    p = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    oh, ow = (h + 2 - k) // stride + 1, (wd + 2 - k) // stride + 1
    out = np.zeros((n, m, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = p[:, :, i * stride:i * stride + k, j * stride:j * stride + k]
            out[:, :, i, j] = np.einsum("nchw,mchw->nm", patch, w)
    return out + b[None, :, None, None]


def forward(x):
    h = np.maximum(conv(x.astype(np.float64), w1, b1, 1), 0)
    h = np.maximum(conv(h, w2, b2, 2), 0)
    return h.mean(axis=(2, 3)) @ w3.T.astype(np.float64) + b3


for s in range(8):
    folder = os.path.join(work, "calibration", f"sample_{s:02d}")
    os.makedirs(folder, exist_ok=True)
    np.save(os.path.join(folder, "input_0.npy"),
            rng.standard_normal((2, 3, 12, 12)).astype(np.float32))
x = rng.standard_normal((2, 3, 12, 12)).astype(np.float32)
np.save(os.path.join(work, "x.npy"), x)
np.save(os.path.join(work, "expected", "output_0.npy"),
        forward(x).astype(np.float32))
