"""Two Gemms, the second's weight and bias reaching it through Identity
nodes, as PyTorch's exporter writes equal tensors (one copy, an Identity
for each other use): x [1, 64] -> Gemm(W1, b) -> Gemm(W2, b'). Writes
DIR/model.onnx and DIR/x.npy."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
w1 = rng.standard_normal((64, 64)).astype(np.float32) * 0.1
w2 = rng.standard_normal((64, 32)).astype(np.float32) * 0.1
bias = np.zeros(64, np.float32)
nodes = [
    helper.make_node("Gemm", ["x", "w1", "b"], ["h"]),
    helper.make_node("Identity", ["w2_init"], ["w2"]),
    helper.make_node("Identity", ["b32"], ["b_w2"]),
    helper.make_node("Gemm", ["h", "w2", "b_w2"], ["y"]),
]
graph = helper.make_graph(
    nodes, "aliased",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32])],
    [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2_init"),
     numpy_helper.from_array(bias, "b"),
     numpy_helper.from_array(np.zeros(32, np.float32), "b32")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "x.npy"), rng.standard_normal((1, 64)).astype(
    np.float32))
