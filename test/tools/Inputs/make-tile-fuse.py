#!/usr/bin/python3
"""Writes DIR/recompute.onnx: s = a + b over 2^23 floats (32 MiB each,
more than tile-fuse's cache-bytes), then y = z * s with z of 4 x 2^23,
reading s broadcast. One kernel would compute s again for each of z's
rows, reading a and b from memory each time; tile-fuse keeps s a kernel
of its own. No data: the test only compiles it.

    make-tile-fuse.py DIR
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

n = 1 << 23
graph = helper.make_graph(
    [helper.make_node("Add", ["a", "b"], ["s"]),
     helper.make_node("Mul", ["z", "s"], ["y"])],
    "recompute",
    [helper.make_tensor_value_info("a", TensorProto.FLOAT, [n]),
     helper.make_tensor_value_info("b", TensorProto.FLOAT, [n]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, [4, n])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, n])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
os.makedirs(sys.argv[1], exist_ok=True)
onnx.save(model, os.path.join(sys.argv[1], "recompute.onnx"))
