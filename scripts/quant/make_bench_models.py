#!/usr/bin/python3
"""Writes the float models of the quantized-speed benchmark, their
calibration samples and an input.

    make_bench_models.py DIR [TORCHVISION_MODEL ...]

DIR/mlp/  MatMul 64x1024 by 1024x1024 -> Relu -> MatMul by 1024x1024
DIR/cnn/  three 3x3 convolutions of 64 channels on 56x56 (ResNet's first
          stage), each followed by Relu
DIR/<name>/ for each torchvision model named (resnet50, vit_b_16, ...):
          scripts/bench/export_models.py's export (torchvision's
          initialization under a fixed seed, batch 1, 3x224x224)
Each holds model.onnx, calibration/sample_<i>/input_0.npy (4 samples of
normal noise) and x.npy.
"""
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

work = sys.argv[1]
rng = np.random.default_rng(0)


def save(name, nodes, shape, out_name, out_shape, initializers):
    folder = os.path.join(work, name)
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                    shape)],
        [helper.make_tensor_value_info(out_name, TensorProto.FLOAT,
                                       out_shape)], initializers)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    os.makedirs(folder, exist_ok=True)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for s in range(4):
        sample = os.path.join(folder, "calibration", f"sample_{s}")
        os.makedirs(sample, exist_ok=True)
        np.save(os.path.join(sample, "input_0.npy"),
                rng.standard_normal(shape).astype(np.float32))
    np.save(os.path.join(folder, "x.npy"),
            rng.standard_normal(shape).astype(np.float32))


m, k, n = 64, 1024, 1024
weights = [(rng.standard_normal((k, n)) * 0.03).astype(np.float32),
           (rng.standard_normal((n, n)) * 0.03).astype(np.float32)]
save("mlp", [helper.make_node("MatMul", ["x", "w1"], ["h"]),
             helper.make_node("Relu", ["h"], ["r"]),
             helper.make_node("MatMul", ["r", "w2"], ["y"])],
     [m, k], "y", [m, n],
     [numpy_helper.from_array(w, f"w{i + 1}") for i, w in
      enumerate(weights)])

nodes, source = [], "x"
filters = [(rng.standard_normal((64, 64, 3, 3)) * 0.05).astype(np.float32)
           for _ in range(3)]
for i in range(3):
    nodes += [helper.make_node("Conv", [source, f"w{i}"], [f"c{i}"],
                               pads=[1, 1, 1, 1]),
              helper.make_node("Relu", [f"c{i}"], [f"r{i}"])]
    source = f"r{i}"
save("cnn", nodes, [1, 64, 56, 56], source, [1, 64, 56, 56],
     [numpy_helper.from_array(w, f"w{i}") for i, w in enumerate(filters)])

for name in sys.argv[2:]:
    export = os.path.join(work, "_export")
    subprocess.run([sys.executable,
                    os.path.join(os.path.dirname(__file__), "..", "bench",
                                 "export_models.py"), "--out", export, name],
                   check=True)
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    shutil.copy(os.path.join(export, name + ".onnx"),
                os.path.join(folder, "model.onnx"))
    shutil.copy(os.path.join(export, "input.npy"),
                os.path.join(folder, "x.npy"))
    for s in range(4):
        sample = os.path.join(folder, "calibration", f"sample_{s}")
        os.makedirs(sample, exist_ok=True)
        np.save(os.path.join(sample, "input_0.npy"),
                rng.standard_normal((1, 3, 224, 224)).astype(np.float32))
