"""The model of test/tools/aicc/large-bundle.test: Gather of row 7 from a
1,050,000 x 128 float table (row r holds r), written to DIR with its input
and expected output."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rows = 1_050_000
table = np.repeat(np.arange(rows, dtype=np.float32)[:, None], 128, axis=1)
graph = helper.make_graph(
    [helper.make_node("Gather", ["table", "ids"], ["y"])], "large",
    [helper.make_tensor_value_info("ids", TensorProto.INT64, [1])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 128])],
    [numpy_helper.from_array(table, "table")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "ids.npy"), np.array([7], np.int64))
os.makedirs(os.path.join(out, "expected"), exist_ok=True)
np.save(os.path.join(out, "expected", "output_0.npy"),
        np.full((1, 128), 7, np.float32))
