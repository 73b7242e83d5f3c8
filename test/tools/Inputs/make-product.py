#!/usr/bin/python3
"""Writes DIR/product.onnx: y = Conv(x, k) reshaped, times w, for the
tensor-core tests: x float[2, 8, 10, 10], k float[16, 8, 3, 3] (a 3x3
convolution, an implicit GEMM of M = 2 * 8 * 8, N = 16, K = 72), then
float[32, 64] @ w float[64, 48] (a matrix product of M = 32, N = 48, K = 64).

    make-product.py DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

work = sys.argv[1]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(0)
k = numpy_helper.from_array(
    rng.standard_normal((16, 8, 3, 3)).astype(np.float32), "k")
w = numpy_helper.from_array(
    rng.standard_normal((64, 48)).astype(np.float32), "w")
shape = numpy_helper.from_array(np.array([32, 64], dtype=np.int64), "shape")
graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "k"], ["c"]),
     helper.make_node("Reshape", ["c", "shape"], ["r"]),
     helper.make_node("MatMul", ["r", "w"], ["y"])],
    "product",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8, 10, 10])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [32, 48])],
    [k, w, shape])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(work, "product.onnx"))
