#!/usr/bin/python3
"""Quantized models' CPU latency: aicc's float bundle, its int8 bundle
computed in float (--integer-quant=false) and on the integers
(--integer-quant; the default on a CPU with VNNI), and ONNX Runtime (onnxruntime-node) on the float model and on aicc's
quantized model (--emit=onnx), all in one run on one thread.

    bench_cpu.py --work DIR [--bin build/bin] [--runs 30] [--rounds 3]
                 [--cpu native]
                 [MODEL ...]   (default: mlp cnn)

Needs the models of make_bench_models.py in DIR and ORT_NODE_DIR (from
scripts/bench/ort-node.sh). The configurations are timed in
interleaved rounds (each round times every one, --runs runs after 5
warm-up runs); a configuration's latency is the median of its per-round
medians, which keeps the comparison fair on a machine whose speed drifts.
Prints one line per model and configuration (median ms, and the ratio to
aicc's float bundle) after checking how far the int8 outputs are from the
float output and from each other.
"""
import argparse
import glob
import json
import os
import re
import subprocess

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--work", required=True)
parser.add_argument("--bin", default="build/bin")
parser.add_argument("--runs", type=int, default=30)
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--cpu", default="native")
parser.add_argument("models", nargs="*", default=["mlp", "cnn"])
args = parser.parse_args()
aicc = os.path.join(args.bin, "aicc")
aicc_run = os.path.join(args.bin, "aicc-run")
ort_script = os.path.join(os.path.dirname(__file__), "..", "bench",
                          "ort_bench.js")


def run(command):
    return subprocess.run(command, check=True, capture_output=True,
                          text=True).stdout


def aicc_time(bundle, x):
    text = run([aicc_run, bundle, "-i", x, "--bench", str(args.runs),
                "--warmup", "5", "--threads", "1"])
    return float(re.search(r"median ([0-9.]+) ms", text).group(1))


def aicc_output(bundle, x, out):
    run([aicc_run, bundle, "-i", x, "--output-dir", out])
    return np.load(sorted(glob.glob(os.path.join(out, "*.npy")))[0])


def ort_time(model, x, out):
    text = run(["node", ort_script, model, x, str(args.runs), "5", "1", out])
    return json.loads(text.strip().splitlines()[-1])["median_ms"]


for name in args.models:
    d = os.path.join(args.work, name)
    model, x = os.path.join(d, "model.onnx"), os.path.join(d, "x.npy")
    quant = ["--quantize=int8", "--per-channel",
             f"--calibration-data={d}/calibration",
             f"--calibration-table={d}/table.json"]
    cpu = [f"--cpu={args.cpu}"]
    run([aicc, model, *cpu, "-o", f"{d}/float.bin"])
    run([aicc, model, *cpu, *quant, "--integer-quant=false", "-o",
         f"{d}/int8.bin"])
    quant = quant[:2] + quant[3:]  # the table from now on
    run([aicc, model, *cpu, *quant, "--integer-quant", "-o",
         f"{d}/int8-integer.bin"])
    run([aicc, model, *quant, "--emit=onnx", "-o", f"{d}/int8.onnx"])
    ref = aicc_output(f"{d}/float.bin", x, f"{d}/out-float")
    q = aicc_output(f"{d}/int8.bin", x, f"{d}/out-int8")
    qi = aicc_output(f"{d}/int8-integer.bin", x, f"{d}/out-int8-integer")
    span = float(np.abs(ref).max())
    print(f"{name}: int8 vs float {np.abs(q - ref).max() / span:.3%} of the "
          f"output range; float path vs integer path "
          f"{np.abs(q - qi).max():.3g}")
    configs = {
        "aicc float": lambda: aicc_time(f"{d}/float.bin", x),
        "aicc int8, float arithmetic": lambda: aicc_time(f"{d}/int8.bin", x),
        "aicc int8, integer arithmetic":
            lambda: aicc_time(f"{d}/int8-integer.bin", x),
        "ORT float": lambda: ort_time(model, x, f"{d}/ort-float.bin"),
        "ORT int8 (aicc's QDQ model)":
            lambda: ort_time(f"{d}/int8.onnx", x, f"{d}/ort-int8.bin"),
    }
    rounds = {label: [] for label in configs}
    for _ in range(args.rounds):
        for label, measure in configs.items():
            rounds[label].append(measure())
    times = {label: float(np.median(v)) for label, v in rounds.items()}
    for label, ms in times.items():
        print(f"  {label:30s} {ms:9.3f} ms  {ms / times['aicc float']:6.2f}x"
              f"  (rounds: {', '.join(f'{v:.2f}' for v in rounds[label])})")
