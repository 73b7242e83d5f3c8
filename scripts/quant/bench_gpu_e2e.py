#!/usr/bin/python3
"""End-to-end int8 against fp16 on an NVIDIA GPU: ResNet-50 and BERT-base.

For each model (scripts/bench/gpu.py's, exported with a dynamic batch and
compiled at --batch): a calibration table from ONNX Runtime's float run of
--samples random inputs (every float tensor's min and max: the ranges
aicc's own calibration would record; aicc calibrates on the CPU runtime,
which needs a linker that the relocatable package does not carry), then
four bundles for --gpu-arch=sm_90a: fp16, int8 products computed in
float (--quantize=int8 --per-channel, fp16 elsewhere), int8 products on
the integer tensor cores (--integer-quant) and fp8 (e4m3fn) products on
the tensor cores (--quantize=fp8 --integer-quant). Each is checked against ONNX
Runtime's float output on a fresh input (relative error of the whole
output) and timed with `aicc-run --bench` (median of --runs after a
warm-up, host copies included, as for every aicc-run latency). One JSON
line per model and bundle goes to --out, and a table is printed last.

    python3 scripts/quant/bench_gpu_e2e.py --aicc PKG/bin/aicc
        --aicc-run PKG/bin/aicc-run --work /tmp/e2e --out e2e.jsonl
        [--models resnet50 bert_base] [--batch 32] [--profile]
"""
import json
import os
import sys

import numpy as np
import onnx
import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "bench"))
import benchlib  # noqa: E402
import gpu  # noqa: E402
from aicc_runs import (bench_median, compile_bundle, profile_json,  # noqa: E402
                       rel_error, run_output)
from float_tensors import float_outputs  # noqa: E402


def calibration_table(path, samples, table):
    """The min and max of every float tensor over `samples` (lists of input
    arrays) in ONNX Runtime, written as an aicc calibration table."""
    import onnxruntime
    model = float_outputs(onnx.load(path))
    session = onnxruntime.InferenceSession(model.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    inputs = [i.name for i in session.get_inputs()]
    ranges = {}
    for sample in samples:
        feed = dict(zip(inputs, sample))
        for name, value in zip(names, session.run(None, feed)):
            low, high = float(value.min()), float(value.max())
            if name in ranges:
                low = min(low, ranges[name][0])
                high = max(high, ranges[name][1])
            ranges[name] = (low, high)
        for name, value in feed.items():
            if value.dtype == np.float32:
                ranges[name] = (float(value.min()), float(value.max()))
    tensors = {name: {"min": low, "max": high,
                      "threshold": max(abs(low), abs(high))}
               for name, (low, high) in ranges.items()}
    with open(table, "w") as f:
        json.dump({"format": "aicc-calibration", "version": 1,
                   "method": "minmax", "samples": len(samples),
                   "tensors": tensors}, f)


def reference(path, x):
    import onnxruntime
    session = onnxruntime.InferenceSession(path,
                                           providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: x})[0]


def main():
    parser = benchlib.parser(__doc__)
    parser.add_argument("--models", nargs="*",
                        default=["resnet50", "bert_base"])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--samples", type=int, default=2)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--profile", action="store_true",
                        help="also write each bundle's per-kernel profile "
                             "(aicc-run --profile --json) beside --out")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    emit = benchlib.emitter(args.out)
    rows = []
    for name in args.models:
        torch.manual_seed(0)
        model, make_input = gpu.build(name)
        model.eval()
        path = os.path.join(args.work, name + ".onnx")
        gpu.export(model, make_input(1), path)
        samples = [[make_input(args.batch).numpy()]
                   for _ in range(args.samples)]
        table = os.path.join(args.work, name + ".table.json")
        calibration_table(path, samples, table)
        x = make_input(args.batch).numpy()
        xfile = os.path.join(args.work, name + ".x.npy")
        np.save(xfile, x)
        ref = reference(path, x).astype(np.float64)
        shape = "x".join(str(d) for d in x.shape)
        quant = ["--quantize=int8", "--per-channel",
                 f"--calibration-table={table}"]
        configs = [("fp16", []), ("int8-in-float", quant),
                   ("int8-integer", quant + ["--integer-quant"]),
                   ("fp8-tensor-cores", ["--quantize=fp8",
                                         f"--calibration-table={table}",
                                         "--integer-quant"])]
        times = {}
        for label, extra in configs:
            bundle = os.path.join(args.work, f"{name}-{label}.bin")
            record = {"model": name, "batch": args.batch, "bundle": label}
            error = compile_bundle(args, path, bundle,
                                   [f"--input-shape=x={shape}", *extra])
            if error:
                record["error"] = error
                emit(record)
                continue
            got = run_output(args, bundle, xfile,
                             os.path.join(args.work, f"out-{name}-{label}"))
            if got is not None:
                record["rel_error_vs_ort_fp32"] = rel_error(got, ref)
            median, error = bench_median(args, bundle, xfile, args.runs)
            if args.profile:
                with open(f"{args.out}.{name}-{label}.profile.json",
                          "w") as f:
                    f.write(profile_json(args, bundle, xfile, 20))
            if median is not None:
                record["median_ms"] = times[label] = median
            else:
                record["error"] = error
            emit(record)
        rows.append((name, times))
    labels = [label for label, _ in configs]
    print(f"{'model':<12}" + "".join(f"{label:>18}" for label in labels))
    for name, t in rows:
        print(f"{name:<12}" + "".join(f"{t.get(label, float('nan')):>18.3f}"
                                     for label in labels))


if __name__ == "__main__":
    main()
