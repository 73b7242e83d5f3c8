"""What the generators of com.microsoft operator models share: writing one
case (make-ms-quant-models.py, make-ms-fusion-models.py)."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper

MS = "com.microsoft"


def write_case(work, name, nodes, x, y, initializers, atol, opset):
    """WORK/NAME/: model.onnx (float input x -> `nodes` -> float output y,
    ai.onnx at `opset` and com.microsoft 1), x.npy,
    expected/output_0.npy and atol; prints NAME."""
    out = os.path.join(work, name)
    os.makedirs(os.path.join(out, "expected"), exist_ok=True)
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)],
        initializers)
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", opset), helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    onnx.save(model, os.path.join(out, "model.onnx"))
    np.save(os.path.join(out, "x.npy"), x.astype(np.float32))
    np.save(os.path.join(out, "expected", "output_0.npy"),
            y.astype(np.float32))
    with open(os.path.join(out, "atol"), "w") as f:
        f.write(f"{atol:.6g}\n")
    print(name)
