#!/usr/bin/python3
"""Writes DIR/matmul.onnx: y = a @ b for a float16[M, K] and b float16[K, N],
both graph inputs (no weights), for the tests of the large-product kernels.

    make-matmul.py DIR M N K
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

work = sys.argv[1]
m, n, k = (int(v) for v in sys.argv[2:5])
os.makedirs(work, exist_ok=True)
graph = helper.make_graph(
    [helper.make_node("MatMul", ["a", "b"], ["y"])],
    "matmul",
    [helper.make_tensor_value_info("a", TensorProto.FLOAT16, [m, k]),
     helper.make_tensor_value_info("b", TensorProto.FLOAT16, [k, n])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [m, n])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(work, "matmul.onnx"))
