#!/usr/bin/python3
"""Writes DIR/siblings.onnx and DIR/data/{input_0,input_1,output_0..2}.npy:
three independent element-wise ops over one iteration space, two of them
reading the same input (Sigmoid(x), Neg(x) and Tanh(y), each an output of
the graph), for the horizontal fusion of element-wise siblings. The
expected outputs come from numpy in float64.

    make-siblings.py DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

work = sys.argv[1]
os.makedirs(os.path.join(work, "data"), exist_ok=True)
rng = np.random.default_rng(3)
x = rng.standard_normal((8, 64)).astype(np.float32)
y = rng.standard_normal((8, 64)).astype(np.float32)
f64 = lambda a: a.astype(np.float64)
outputs = [1 / (1 + np.exp(-f64(x))), -f64(x), np.tanh(f64(y))]
shape = [8, 64]
graph = helper.make_graph(
    [helper.make_node("Sigmoid", ["x"], ["a"]),
     helper.make_node("Neg", ["x"], ["b"]),
     helper.make_node("Tanh", ["y"], ["c"])],
    "siblings",
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape)
     for n in ("x", "y")],
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape)
     for n in ("a", "b", "c")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(work, "siblings.onnx"))
np.save(os.path.join(work, "data", "input_0.npy"), x)
np.save(os.path.join(work, "data", "input_1.npy"), y)
for i, value in enumerate(outputs):
    np.save(os.path.join(work, "data", f"output_{i}.npy"),
            value.astype(np.float32))
