#!/usr/bin/python3
"""Writes a QDQ matrix product whose integer form the CPU's VNNI kernels
take (64 columns, whole vector registers; a reduction of 102, not a
multiple of four, so the kernel's last steps take the plain loop), and its
numpy reference.

    make-qdq-matmul.py DIR

DIR/model.onnx  x float[5, 102] -> Q/DQ (uint8, zero point 131) -> MatMul
                with int8 weights per column (symmetric) -> y float[5, 64]
DIR/x.npy, DIR/expected/output_0.npy (float64 arithmetic, exact integer
products).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

work = sys.argv[1]
os.makedirs(os.path.join(work, "expected"), exist_ok=True)
rng = np.random.default_rng(4)
m, k, n = 5, 102, 64
x = rng.standard_normal((m, k)).astype(np.float32)
sx, zx = np.float32(0.025), np.uint8(131)
w = rng.integers(-128, 128, (k, n)).astype(np.int8)
sw = (rng.random(n) * 0.01 + 0.001).astype(np.float32)
init = [numpy_helper.from_array(a, name) for a, name in
        [(sx, "sx"), (zx, "zx"), (w, "w"), (sw, "sw"),
         (np.zeros(n, np.int8), "zw")]]
nodes = [helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
         helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
         helper.make_node("DequantizeLinear", ["w", "sw", "zw"], ["wd"],
                          axis=1),
         helper.make_node("MatMul", ["xd", "wd"], ["y"])]
graph = helper.make_graph(
    nodes, "qdq-matmul",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [m, k])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [m, n])], init)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, os.path.join(work, "model.onnx"))
np.save(os.path.join(work, "x.npy"), x)
q = np.clip(np.rint(x / np.float64(sx)) + int(zx), 0, 255).astype(np.int64)
acc = (q - int(zx)) @ w.astype(np.int64)
y = acc * (np.float64(sx) * sw.astype(np.float64))
np.save(os.path.join(work, "expected", "output_0.npy"), y.astype(np.float32))
