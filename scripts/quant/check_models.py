#!/usr/bin/env python3
"""Compiles and runs the quantized models of make_ort_models.py with aicc
and compares them with ONNX Runtime's outputs.

    check_models.py DIR [--target cpu|cuda] [--aicc PATH] [--aicc-run PATH]
                    [--json FILE] [AICC_FLAG ...]

For each DIR/<variant>/ it prints the largest difference between aicc's
output and ONNX Runtime's (expected/), next to the largest difference
between ONNX Runtime's optimized and unoptimized executions (unoptimized/):
aicc agrees with ONNX Runtime as closely as ONNX Runtime agrees with itself
when the first is at most the second (or both are within float rounding,
1e-5 relative to the output's range). Exit status 1 when any variant fails
to compile, run, or agree.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--target", default="cpu")
parser.add_argument("--aicc", default="build/bin/aicc")
parser.add_argument("--aicc-run", default="build/bin/aicc-run")
parser.add_argument("--json")
args, flags = parser.parse_known_args()

rows = []
ok = True
for folder in sorted(glob.glob(os.path.join(args.dir, "*/"))):
    variant = os.path.basename(folder.rstrip("/"))
    if not os.path.exists(os.path.join(folder, "expected", "output_0.npy")):
        continue  # ONNX Runtime could not run it (make_ort_models.py says)
    bundle = os.path.join(folder, f"model-{args.target}.bin")
    outdir = os.path.join(folder, f"aicc-{args.target}")
    row = {"variant": variant}
    compile_ = subprocess.run(
        [args.aicc, os.path.join(folder, "model.onnx"),
         f"--target={args.target}", "-o", bundle, *flags],
        capture_output=True, text=True)
    if compile_.returncode != 0:
        row["error"] = "compile: " + compile_.stderr.strip().splitlines()[0]
    else:
        inputs = sorted(glob.glob(os.path.join(folder, "input_*.npy")),
                        key=lambda p: int(p.rsplit("_", 1)[1][:-4]))
        command = [args.aicc_run, bundle, "--output-dir", outdir]
        for path in inputs:
            command += ["-i", path]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            row["error"] = "run: " + (run.stderr.strip().splitlines() or
                                      ["exit status %d" % run.returncode])[0]
    if "error" not in row:
        expected = np.load(os.path.join(folder, "expected", "output_0.npy"))
        unoptimized = np.load(
            os.path.join(folder, "unoptimized", "output_0.npy"))
        got = np.load(sorted(glob.glob(os.path.join(outdir, "*.npy")))[0])
        span = float(np.abs(expected).max()) or 1.0
        row["aicc_vs_ort"] = float(np.abs(got - expected).max())
        row["ort_all_vs_none"] = float(np.abs(expected - unoptimized).max())
        row["agrees"] = bool(
            row["aicc_vs_ort"] <= max(row["ort_all_vs_none"], 1e-5 * span))
    rows.append(row)
    if "error" in row:
        ok = False
        print(f"{variant:30s} {row['error'][:160]}")
    else:
        ok &= row["agrees"]
        print(f"{variant:30s} aicc-vs-ort {row['aicc_vs_ort']:.4g}  "
              f"ort-all-vs-none {row['ort_all_vs_none']:.4g}  "
              f"{'agrees' if row['agrees'] else 'DIFFERS'}", flush=True)

if args.json:
    with open(args.json, "w") as f:
        json.dump(rows, f, indent=1)
agreeing = sum(1 for r in rows if r.get("agrees"))
print(f"{args.target}: {agreeing}/{len(rows)} variants agree with ONNX Runtime")
sys.exit(0 if ok else 1)
