# RUN: %python %s aicc %t | FileCheck %s
#
# What aicc does with good input: reads external data from the model's folder,
# keeps symbolic dimensions dynamic unless pinned, makes large initializers
# named weights and small ones foldable constants, lists its operators, and
# writes -o files.

import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

aicc, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def run(*args):
    proc = subprocess.run([aicc, "--emit=tile", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stderr)
        sys.exit(1)
    return proc.stdout


def save(nodes, inputs, outputs, initializers=(), name="model.onnx"):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    path = os.path.join(work, name)
    onnx.save(m, path)
    return path


f32 = TensorProto.FLOAT

# External data at an offset inside the model's folder.
with open(os.path.join(work, "weights.bin"), "wb") as f:
    f.write(b"\xff" * 8 + np.array([1, 2, 3, 4], np.float32).tobytes())
w = TensorProto(name="w", data_type=f32, dims=[4],
                data_location=TensorProto.EXTERNAL)
for key, value in (("location", "weights.bin"), ("offset", "8"),
                   ("length", "16")):
    entry = w.external_data.add()
    entry.key, entry.value = key, value
path = save([helper.make_node("Add", ["x", "w"], ["y"])],
            [helper.make_tensor_value_info("x", f32, [4])],
            [helper.make_tensor_value_info("y", f32, [4])], [w],
            name="external.onnx")
# CHECK-LABEL: external data
# CHECK: tile.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
print("external data")
print(run(path))

# Symbolic dimensions stay dynamic; --input-shape pins them.
path = save([helper.make_node("Relu", ["x"], ["y"])],
            [helper.make_tensor_value_info("x", f32, ["batch", 4])],
            [helper.make_tensor_value_info("y", f32, ["batch", 4])],
            name="symbolic.onnx")
# CHECK-LABEL: symbolic
# CHECK: func.func @main(%arg0: tensor<?x4xf32> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"})
# CHECK-LABEL: pinned
# CHECK: func.func @main(%arg0: tensor<8x4xf32> {onnx.name = "x"}) -> (tensor<8x4xf32> {onnx.name = "y"})
print("symbolic")
print(run(path))
print("pinned")
print(run(path, "--input-shape=x=8x4"))

# Initializers above the constant limit (4096 elements) are named weights.
big = numpy_helper.from_array(np.zeros((64, 65), np.float32), "fc.weight")
small = numpy_helper.from_array(np.ones(64, np.float32), "fc.bias")
path = save([helper.make_node("Gemm", ["x", "fc.weight", "fc.bias"], ["y"],
                              transB=1)],
            [helper.make_tensor_value_info("x", f32, [2, 65])],
            [helper.make_tensor_value_info("y", f32, [2, 64])], [big, small],
            name="weights.onnx")
# CHECK-LABEL: weights
# CHECK: tile.weight "fc.weight" = dense_resource<fc.weight> : tensor<64x65xf32>
# CHECK: tile.constant dense<1.000000e+00> : tensor<64xf32>
print("weights")
out = os.path.join(work, "weights.mlir")
run(path, "-o", out, "--mlir-elide-resource-strings-if-larger=16")
print(open(out).read())

# CHECK-LABEL: list-ops
# CHECK: Operators of the default ONNX domain that aicc imports
# CHECK: Conv{{ +}}opset 1-21
# CHECK: Reshape{{ +}}opset 1-21
# CHECK: {{[0-9]+}} operators
print("list-ops")
print(subprocess.run([aicc, "--list-ops"], capture_output=True, text=True).stdout)
