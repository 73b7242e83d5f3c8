#!/usr/bin/python3
"""Writes DIR/gemms.onnx and DIR/data/{input_0,output_0}.npy: two ONNX
Gemms with transB = 1 (PyTorch's nn.Linear on a matrix: weights stored N x
K) and biases, of one input x float[16, 32], multiplied together, for
horizontal fusion of transposed matrices. The expected output comes from
numpy in float64.

    make-gemms.py DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

work = sys.argv[1]
os.makedirs(os.path.join(work, "data"), exist_ok=True)
rng = np.random.default_rng(1)
x = rng.standard_normal((16, 32)).astype(np.float32)
wa = (rng.standard_normal((24, 32)) / 6).astype(np.float32)
wb = (rng.standard_normal((24, 32)) / 6).astype(np.float32)
ba = rng.standard_normal(24).astype(np.float32)
bb = rng.standard_normal(24).astype(np.float32)
f64 = lambda a: a.astype(np.float64)
y = (f64(x) @ f64(wa).T + f64(ba)) * (f64(x) @ f64(wb).T + f64(bb))
graph = helper.make_graph(
    [helper.make_node("Gemm", ["x", "wa", "ba"], ["a"], transB=1),
     helper.make_node("Gemm", ["x", "wb", "bb"], ["b"], transB=1),
     helper.make_node("Mul", ["a", "b"], ["y"])],
    "gemms",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [16, 32])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16, 24])],
    [numpy_helper.from_array(wa, "wa"), numpy_helper.from_array(wb, "wb"),
     numpy_helper.from_array(ba, "ba"), numpy_helper.from_array(bb, "bb")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(work, "gemms.onnx"))
np.save(os.path.join(work, "data", "input_0.npy"), x)
np.save(os.path.join(work, "data", "output_0.npy"), y.astype(np.float32))
