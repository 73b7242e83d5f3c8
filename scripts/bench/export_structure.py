#!/usr/bin/env python3
"""Exports the benchmark models' graphs with their large weights replaced by
a constant, so that a model exported on the GPU machine (which has PyTorch)
can be brought back compressed and compiled here, where there is none, to
look at aicc's IR for it (`aicc-opt --mlir-print-ir-before=...`).

    python3 scripts/bench/export_structure.py --out DIR [--models ...]
        [--batch 1]

Float initializers of more than 1024 elements become 0.01 everywhere (the
graph, every shape and every small constant stay as exported); DIR gets
NAME.onnx.xz per model.
"""
import argparse
import lzma
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu  # noqa: E402  (the benchmark's model definitions and export)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--models", nargs="*", default=["bert_base", "gpt2"])
    parser.add_argument("--batch", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.models:
        gpu.torch.manual_seed(0)
        model, make_input = gpu.build(name)
        path = os.path.join(args.out, name + ".onnx")
        gpu.export(model.eval(), make_input(args.batch), path)
        proto = onnx.load(path)
        for init in proto.graph.initializer:
            array = numpy_helper.to_array(init)
            if array.dtype.kind == "f" and array.size > 1024:
                init.CopyFrom(numpy_helper.from_array(
                    np.full(array.shape, 0.01, array.dtype), init.name))
        with lzma.open(path + ".xz", "wb", preset=6) as f:
            f.write(proto.SerializeToString())
        os.remove(path)
        print(name, os.path.getsize(path + ".xz"), "bytes compressed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
