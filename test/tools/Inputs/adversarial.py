#!/usr/bin/python3
"""Tiny models that ask for huge work at compile time, compiled under limits.

    adversarial.py AICC WORKDIR [TARGET...]

Each model is a few hundred bytes; each compile must finish within 60 s in
at most 2 GiB of address space and write a bundle under 1 MiB, or be
refused with an error. Prints one line per model and target:

    NAME TARGET: compiled, B bytes
    NAME TARGET: refused: MESSAGE

and exits 1 when a compile crashed, hung, ran out of its limits or wrote
a large bundle.
"""
import os
import resource
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ADDRESS_SPACE = 2 << 30
SECONDS = 60
LARGEST_BUNDLE = 1 << 20


def value(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def ones(dtype=TensorProto.FLOAT):
    return helper.make_tensor("v", dtype, [1], [1])


def models():
    big = [1 << 16, 1 << 16]  # 2^32 elements, 16 GiB of float
    yield "splat-output", helper.make_graph(
        [helper.make_node("ConstantOfShape", ["s"], ["y"], value=ones())],
        "g", [], [value("y", big)], [const("s", np.array(big, np.int64))])
    yield "splat-plus-input", helper.make_graph(
        [helper.make_node("ConstantOfShape", ["s"], ["c"], value=ones()),
         helper.make_node("Add", ["c", "x"], ["y"])],
        "g", [value("x", [1, 1])], [value("y", big)],
        [const("s", np.array(big, np.int64))])
    yield "splat-int64-output", helper.make_graph(
        [helper.make_node("ConstantOfShape", ["s"], ["y"],
                          value=ones(TensorProto.INT64))],
        "g", [], [value("y", [1 << 14, 1 << 14], TensorProto.INT64)],
        [const("s", np.array([1 << 14, 1 << 14], np.int64))])
    yield "range", helper.make_graph(
        [helper.make_node("Range", ["a", "b", "d"], ["y"])], "g", [],
        [value("y", [1 << 30])],
        [const("a", np.float32(0)), const("b", np.float32(1 << 30)),
         const("d", np.float32(1))])
    small = np.arange(4, dtype=np.float32).reshape(1, 4)
    yield "expand-reduce", helper.make_graph(
        [helper.make_node("Expand", ["w", "s"], ["e"]),
         helper.make_node("ReduceSum", ["e", "axes"], ["y"], keepdims=0)],
        "g", [], [value("y", [4])],
        [const("w", small), const("s", np.array([1 << 28, 4], np.int64)),
         const("axes", np.array([0], np.int64))])
    yield "tile", helper.make_graph(
        [helper.make_node("Tile", ["w", "r"], ["y"])], "g", [],
        [value("y", [1 << 26, 4])],
        [const("w", small), const("r", np.array([1 << 26, 1], np.int64))])
    yield "constant-matmul", helper.make_graph(
        [helper.make_node("ConstantOfShape", ["s"], ["a"], value=ones()),
         helper.make_node("MatMul", ["a", "a"], ["y"])], "g", [],
        [value("y", [8192, 8192])], [const("s", np.array([8192, 8192],
                                                           np.int64))])
    # Recurrent layers are unrolled step by step: a bidirectional LSTM of
    # 512 steps (1024 with both directions) ran past 300 s; it and one of
    # 40 steps (80) are refused, past the 64 steps a model may unroll; one
    # of 32 steps in one direction compiles.
    def lstm(steps, direction):
        dirs = 2 if direction == "bidirectional" else 1
        return helper.make_graph(
            [helper.make_node("LSTM", ["x", "w", "r"], ["y"], hidden_size=4,
                              direction=direction)], "g",
            [value("x", [steps, 1, 4]), value("w", [dirs, 16, 4]),
             value("r", [dirs, 16, 4])], [value("y", None)])
    yield "lstm-512-bidirectional", lstm(512, "bidirectional")
    yield "lstm-40-bidirectional", lstm(40, "bidirectional")
    yield "lstm-32-reverse", lstm(32, "reverse")


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def main():
    aicc, work = sys.argv[1], sys.argv[2]
    targets = sys.argv[3:] or ["cpu"]
    os.makedirs(work, exist_ok=True)
    status = 0
    for name, graph in models():
        model = helper.make_model(graph,
                                  opset_imports=[helper.make_opsetid("", 17)])
        path = os.path.join(work, name + ".onnx")
        onnx.save(model, path)
        assert os.path.getsize(path) < 1024, name
        for target in targets:
            out = os.path.join(work, f"{name}.{target}.bin")
            try:
                proc = subprocess.run(
                    [aicc, path, "-o", out, "--target=" + target,
                     "--progress=never"], capture_output=True, text=True,
                    timeout=SECONDS, preexec_fn=limit)
            except subprocess.TimeoutExpired:
                print(f"{name} {target}: FAIL: no answer in {SECONDS} s")
                status = 1
                continue
            if proc.returncode == 0:
                size = os.path.getsize(out)
                print(f"{name} {target}: compiled, {size} bytes")
                if size > LARGEST_BUNDLE:
                    print(f"{name} {target}: FAIL: the bundle is too large")
                    status = 1
            elif proc.returncode == 1 and "error:" in proc.stderr:
                print(f"{name} {target}: refused: "
                      + proc.stderr.strip().splitlines()[-1])
            else:
                print(f"{name} {target}: FAIL: exit {proc.returncode}: "
                      + proc.stderr.strip()[-300:])
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
