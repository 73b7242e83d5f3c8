#!/usr/bin/python3
"""Writes a tiny model and its test data for the tool tests.

    make-model.py DIR

DIR/model.onnx      y = Relu(x @ w + b): x float[4, 80] input, w float[80, 64]
                    (large enough to be a weight of the bundle) and b
                    float[64] (small enough to be a constant) initializers
DIR/x.npy           an input
DIR/expected/       output_0.npy, the numpy reference for x.npy
DIR/wrong/          output_0.npy, the reference with one element changed
DIR/dynamic.onnx    the same graph with a symbolic batch dimension
DIR/bad.onnx        bytes that are not a model
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

work = sys.argv[1]
os.makedirs(os.path.join(work, "expected"), exist_ok=True)
os.makedirs(os.path.join(work, "wrong"), exist_ok=True)

rng = np.random.default_rng(0)
w = rng.standard_normal((80, 64)).astype(np.float32)
b = rng.standard_normal(64).astype(np.float32)
x = rng.standard_normal((4, 80)).astype(np.float32)


def save(path, batch):
    nodes = [helper.make_node("MatMul", ["x", "w"], ["xw"]),
             helper.make_node("Add", ["xw", "b"], ["s"]),
             helper.make_node("Relu", ["s"], ["y"])]
    graph = helper.make_graph(
        nodes, "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 80])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, 64])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, path)


save(os.path.join(work, "model.onnx"), 4)
save(os.path.join(work, "dynamic.onnx"), "batch")
np.save(os.path.join(work, "x.npy"), x)
y = np.maximum(x @ w + b, 0).astype(np.float32)
np.save(os.path.join(work, "expected", "output_0.npy"), y)
wrong = y.copy()
wrong[1, 2] += 1.0
np.save(os.path.join(work, "wrong", "output_0.npy"), wrong)
with open(os.path.join(work, "bad.onnx"), "wb") as f:
    f.write(b"this is not an ONNX model\n")
