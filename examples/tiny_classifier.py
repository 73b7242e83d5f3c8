"""Writes a tiny ONNX classifier and one input for trying aicc-classify.

    /usr/bin/python3 examples/tiny_classifier.py DIR

DIR/tiny_classifier.onnx computes probs = Softmax(x @ w + b) for x: float32
[1, 4] and three classes; DIR/input.npy is one x. Prints numpy's answer, to
compare with what the compiled model gives.
"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

out = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out, exist_ok=True)

w = np.arange(12, dtype=np.float32).reshape(4, 3) / 10 - 0.5
b = np.array([0.1, -0.2, 0.3], dtype=np.float32)
x = np.array([[1, 2, 3, 4]], dtype=np.float32)

graph = helper.make_graph(
    [helper.make_node("Gemm", ["x", "w", "b"], ["logits"]),
     helper.make_node("Softmax", ["logits"], ["probs"], axis=1)],
    "tiny_classifier",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
    [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 3])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
save(model, os.path.join(out, "tiny_classifier.onnx"))
np.save(os.path.join(out, "input.npy"), x)

logits = x @ w + b
probs = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
print("numpy: probs", np.array2string(probs[0], precision=6),
      "argmax", int(probs.argmax()))
