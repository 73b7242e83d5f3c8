#!/usr/bin/env python3
"""Finds where aicc's execution of a model first parts from ONNX Runtime's.

    first_divergence.py MODEL.onnx INPUT.npy... [--target cuda] [--aicc PATH]
                        [--aicc-run PATH] [--work DIR] [--tolerance T]
                        [--show N] [AICC_FLAG ...]

Every float tensor a node computes becomes a graph output (as far as shape
inference types it); the model is run by ONNX Runtime (CPU, graph
optimizations off, so that every tensor exists) and compiled and run by
aicc. In the nodes' order, each tensor's largest difference relative to
its range is printed for the first --show tensors past --tolerance, with
the node that computes it and that node's inputs' differences (a scalar's
range is 0: its difference is then relative to 1e-12). Needs python
onnxruntime; compiling for the CPU needs the linker the relocatable
package does not carry.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx

from float_tensors import float_outputs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--target", default="cpu")
    parser.add_argument("--aicc", default="build/bin/aicc")
    parser.add_argument("--aicc-run", default="build/bin/aicc-run")
    parser.add_argument("--work", default="/tmp/first-divergence")
    parser.add_argument("--tolerance", type=float, default=1e-3)
    parser.add_argument("--show", type=int, default=5)
    args, flags = parser.parse_known_args()
    import onnxruntime
    os.makedirs(args.work, exist_ok=True)
    model = float_outputs(onnx.load(args.model))
    outputs = [o.name for o in model.graph.output]
    path = os.path.join(args.work, "all-outputs.onnx")
    onnx.save(model, path)

    feeds = {i.name: np.load(f)
             for i, f in zip(model.graph.input, args.inputs)}
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = (
        onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL)
    session = onnxruntime.InferenceSession(
        path, options, providers=["CPUExecutionProvider"])
    expected = dict(zip([o.name for o in session.get_outputs()],
                        session.run(None, feeds)))

    bundle = os.path.join(args.work, "model.bin")
    subprocess.run([args.aicc, path, f"--target={args.target}", "-o", bundle,
                    "--progress=never", *flags], check=True)
    out = os.path.join(args.work, "out")
    subprocess.run([args.aicc_run, bundle, "--output-dir", out,
                    *sum((["-i", f] for f in args.inputs), [])], check=True)
    got = {}
    for i, name in enumerate(outputs):
        file = os.path.join(out, f"output_{i}.npy")
        if os.path.exists(file):
            got[name] = np.load(file)

    def difference(name):
        if name not in got or name not in expected:
            return None
        e = expected[name].astype(np.float64)
        span = max(float(np.ptp(e)), 1e-12)
        return float(np.abs(got[name].astype(np.float64) - e).max()) / span

    shown = 0
    for node in model.graph.node:
        for name in node.output:
            d = difference(name)
            if d is None or d <= args.tolerance:
                continue
            parts = ", ".join(
                f"{i}: {difference(i):.2e}" if difference(i) is not None
                else f"{i}: -" for i in node.input if i)
            print(f"{name} ({node.op_type} {node.name}): {d:.2e} of its "
                  f"range; inputs {parts}")
            shown += 1
            if shown >= args.show:
                return 0
    if not shown:
        print(f"every tensor within {args.tolerance} of its range")
    return 0


if __name__ == "__main__":
    sys.exit(main())
