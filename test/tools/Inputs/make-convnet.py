#!/usr/bin/python3
"""Writes DIR/convnet.onnx and DIR/data/{input_0,input_1,output_0,output_1,
output_2}.npy: a small convolutional network whose convolutions have the
channel counts tile-channels-last takes (8 or more per group, depthwise over
32 groups, an RGB stem it pads to 8 channels) between ops it moves
transposes through (Relu, Clip, Add with a strided 1x1 shortcut, MaxPool,
GlobalAveragePool) and ops it does not (the model's 4-D outputs). The
expected outputs come from a numpy convolution in float64.

    make-convnet.py DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

work = sys.argv[1]
os.makedirs(os.path.join(work, "data"), exist_ok=True)
rng = np.random.default_rng(0)


def conv(x, w, b, stride=1, pad=0, dilation=1, group=1):
    """Cross-correlation of NCHW x with MCKK w, as ONNX Conv."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, m, oh, ow))
    mg = m // group
    for g in range(group):
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg,
                           i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                           j * dilation:j * dilation + stride * (ow - 1) + 1:stride]
                out[:, g * mg:(g + 1) * mg] += np.einsum(
                    "nchw,mc->nmhw", patch, w[g * mg:(g + 1) * mg, :, i, j])
    if b is not None:
        out += b[None, :, None, None]
    return out


def weight(name, *shape):
    value = rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]))
    return value, numpy_helper.from_array(value.astype(np.float32), name)


x = rng.standard_normal((2, 16, 12, 12))
w1, t_w1 = weight("w1", 32, 16, 3, 3)
b1, t_b1 = weight("b1", 32)
wd, t_wd = weight("wd", 32, 1, 3, 3)
bd, t_bd = weight("bd", 32)
wg, t_wg = weight("wg", 32, 16, 3, 3)
ws, t_ws = weight("ws", 32, 16, 1, 1)
we, t_we = weight("we", 16, 32, 1, 1)
rgb = rng.standard_normal((2, 3, 16, 16))
wr, t_wr = weight("wr", 8, 3, 7, 7)
br, t_br = weight("br", 8)
x = x.astype(np.float32).astype(np.float64)
rgb = rgb.astype(np.float32).astype(np.float64)
for name in ["w1", "b1", "wd", "bd", "wg", "ws", "we", "wr", "br"]:
    globals()[name] = globals()[name].astype(np.float32).astype(np.float64)

r1 = np.maximum(conv(x, w1, b1, pad=1), 0)
d = np.clip(conv(r1, wd, bd, stride=2, pad=1, group=32), 0, 6)
g = conv(d, wg, None, pad=2, dilation=2, group=2)
s = conv(x, ws, None, stride=2)
a = np.maximum(g + s, 0)
mp = a.reshape(2, 32, 3, 2, 3, 2).max(axis=(3, 5))
e = conv(mp, we, None)
y = e.mean(axis=(2, 3))
# The stem: 7x7 stride 2 pad 3, ReLU, 3x3 max pool stride 2 pad 1.
stem = np.maximum(conv(rgb, wr, br, stride=2, pad=3), 0)
stem = np.pad(stem, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
z = np.full((2, 8, 4, 4), -np.inf)
for i in range(3):
    for j in range(3):
        z = np.maximum(z, stem[:, :, i:i + 7:2, j:j + 7:2])

lo = numpy_helper.from_array(np.array(0, dtype=np.float32), "lo")
hi = numpy_helper.from_array(np.array(6, dtype=np.float32), "hi")
nodes = [
    helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c1"], ["r1"]),
    helper.make_node("Conv", ["r1", "wd", "bd"], ["cd"], group=32,
                     strides=[2, 2], pads=[1, 1, 1, 1]),
    helper.make_node("Clip", ["cd", "lo", "hi"], ["d"]),
    helper.make_node("Conv", ["d", "wg"], ["g"], group=2, dilations=[2, 2],
                     pads=[2, 2, 2, 2]),
    helper.make_node("Conv", ["x", "ws"], ["s"], strides=[2, 2]),
    helper.make_node("Add", ["g", "s"], ["sum"]),
    helper.make_node("Relu", ["sum"], ["a"]),
    helper.make_node("MaxPool", ["a"], ["mp"], kernel_shape=[2, 2],
                     strides=[2, 2]),
    helper.make_node("Conv", ["mp", "we"], ["e"]),
    helper.make_node("GlobalAveragePool", ["e"], ["p"]),
    helper.make_node("Flatten", ["p"], ["y"]),
    helper.make_node("Conv", ["rgb", "wr", "br"], ["cr"], strides=[2, 2],
                     pads=[3, 3, 3, 3]),
    helper.make_node("Relu", ["cr"], ["rr"]),
    helper.make_node("MaxPool", ["rr"], ["z"], kernel_shape=[3, 3],
                     strides=[2, 2], pads=[1, 1, 1, 1]),
]
graph = helper.make_graph(
    nodes, "convnet",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 16, 12, 12]),
     helper.make_tensor_value_info("rgb", TensorProto.FLOAT, [2, 3, 16, 16])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 16]),
     helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 32, 6, 6]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 8, 4, 4])],
    [t_w1, t_b1, t_wd, t_bd, t_wg, t_ws, t_we, t_wr, t_br, lo, hi])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(work, "convnet.onnx"))
np.save(os.path.join(work, "data", "input_0.npy"), x.astype(np.float32))
np.save(os.path.join(work, "data", "input_1.npy"), rgb.astype(np.float32))
np.save(os.path.join(work, "data", "output_0.npy"), y.astype(np.float32))
np.save(os.path.join(work, "data", "output_1.npy"), a.astype(np.float32))
np.save(os.path.join(work, "data", "output_2.npy"), z.astype(np.float32))
