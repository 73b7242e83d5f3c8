#!/usr/bin/python3
"""Writes DIR/attention.onnx and DIR/data/{input_0,output_0}.npy: BERT's
self-attention as its exporter writes it, for horizontal fusion: three
MatMuls of one input x float[2, 16, 32] with their biases (q, k and v; k's
bias added on the left), a head split into 4 heads of 8, softmax of the
scaled scores, the head merge and the output projection. The expected
output comes from numpy in float64.

    make-attention.py DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

work = sys.argv[1]
os.makedirs(os.path.join(work, "data"), exist_ok=True)
rng = np.random.default_rng(0)
batch, seq, hidden, heads = 2, 16, 32, 4
size = hidden // heads

initializers = []


def weight(name, *shape):
    value = (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32)
    initializers.append(numpy_helper.from_array(value, name))
    return value.astype(np.float64)


def constant(name, values):
    initializers.append(
        numpy_helper.from_array(np.array(values, dtype=np.int64), name))


wq, wk, wv, wo = (weight(n, hidden, hidden) for n in ["wq", "wk", "wv", "wo"])
bq, bk, bv, bo = (weight(n, hidden) for n in ["bq", "bk", "bv", "bo"])
initializers.append(numpy_helper.from_array(
    np.array(1 / np.sqrt(size), dtype=np.float32), "scale"))
constant("split", [batch, seq, heads, size])
constant("merge", [batch, seq, hidden])

x = rng.standard_normal((batch, seq, hidden)).astype(np.float32)
x64 = x.astype(np.float64)


def heads_of(t):
    return t.reshape(batch, seq, heads, size).transpose(0, 2, 1, 3)


q, k, v = (heads_of(x64 @ w + b) for w, b in [(wq, bq), (wk, bk), (wv, bv)])
s = q @ k.transpose(0, 1, 3, 2) * np.float64(np.float32(1 / np.sqrt(size)))
p = np.exp(s - s.max(axis=-1, keepdims=True))
p /= p.sum(axis=-1, keepdims=True)
o = (p @ v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
y = o @ wo + bo

nodes = []
for name in "qkv":
    nodes.append(helper.make_node("MatMul", ["x", "w" + name], [name + "m"]))
    inputs = ["b" + name, name + "m"] if name == "k" else [name + "m", "b" + name]
    nodes.append(helper.make_node("Add", inputs, [name + "b"]))
    nodes.append(helper.make_node("Reshape", [name + "b", "split"], [name + "r"]))
nodes += [
    helper.make_node("Transpose", ["qr"], ["qt"], perm=[0, 2, 1, 3]),
    helper.make_node("Transpose", ["kr"], ["kt"], perm=[0, 2, 3, 1]),
    helper.make_node("Transpose", ["vr"], ["vt"], perm=[0, 2, 1, 3]),
    helper.make_node("MatMul", ["qt", "kt"], ["s0"]),
    helper.make_node("Mul", ["s0", "scale"], ["s"]),
    helper.make_node("Softmax", ["s"], ["p"], axis=-1),
    helper.make_node("MatMul", ["p", "vt"], ["o0"]),
    helper.make_node("Transpose", ["o0"], ["o1"], perm=[0, 2, 1, 3]),
    helper.make_node("Reshape", ["o1", "merge"], ["o"]),
    helper.make_node("MatMul", ["o", "wo"], ["ym"]),
    helper.make_node("Add", ["ym", "bo"], ["y"]),
]
graph = helper.make_graph(
    nodes, "attention",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, seq, hidden])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, seq, hidden])],
    initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(work, "attention.onnx"))
np.save(os.path.join(work, "data", "input_0.npy"), x)
np.save(os.path.join(work, "data", "output_0.npy"), y.astype(np.float32))
