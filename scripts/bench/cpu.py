#!/usr/bin/python3
"""aicc's CPU latency against ONNX Runtime's, measured in one run.

For each model: compile with `aicc --cpu=native`, check aicc's output against
ONNX Runtime's (numerics before timing), then time both in interleaved
rounds on the same input (aicc with `aicc-run --bench`, ONNX Runtime with
onnxruntime-node), and report the median of the per-round medians and the
ratio aicc / ONNX Runtime. Both use every core of the machine.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def run(command, **kwargs):
    return subprocess.run(command, check=True, text=True,
                          capture_output=True, **kwargs)


def last_json(text):
    return json.loads(text.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--work", default="build/bench")
    parser.add_argument("--ort-node-dir", required=True,
                        help="folder holding node_modules/onnxruntime-node")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("models", nargs="*",
                        default=["resnet50", "mobilenet_v3_large", "vit_b_16"])
    args = parser.parse_args()
    threads = os.cpu_count()
    env = dict(os.environ,
               ORT_NODE_DIR=os.path.join(args.ort_node_dir, "node_modules"))
    x = os.path.join(args.work, "input.npy")
    results = []
    failed = False
    for name in args.models:
        onnx_path = os.path.join(args.work, name + ".onnx")
        bundle = os.path.join(args.work, name + ".bin")
        compiled = run([os.path.join(args.bin, "aicc"), onnx_path, "-o",
                        bundle, "--cpu=native", "--timings"])
        compile_s = float(compiled.stderr.strip().splitlines()[-1].split()[-2])

        # Numerics first.
        out_dir = os.path.join(args.work, name + ".out")
        run([os.path.join(args.bin, "aicc-run"), bundle, "-i", x,
             "--output-dir", out_dir])
        ours = np.load(os.path.join(out_dir, "output_0.npy")).ravel()
        ort_out = os.path.join(args.work, name + ".ort.bin")
        ort_cmd = ["node", os.path.join(HERE, "ort_bench.js"), onnx_path, x,
                   str(args.runs), "3", str(threads), ort_out]
        run(ort_cmd, env=env)
        theirs = np.fromfile(ort_out, dtype=np.float32)
        scale = float(np.abs(theirs).max())
        error = float(np.abs(ours - theirs).max()) / max(scale, 1e-30)
        agree = int(ours.argmax() == theirs.argmax())

        aicc_medians, ort_medians = [], []
        for _ in range(args.rounds):
            mine = last_json(run([os.path.join(args.bin, "aicc-run"), bundle,
                                  "-i", x, "--bench", str(args.runs),
                                  "--warmup", "3", "--json"]).stdout)
            aicc_medians.append(mine["median_ms"])
            peer = last_json(run(ort_cmd, env=env).stdout)
            ort_medians.append(peer["median_ms"])
        aicc_ms = statistics.median(aicc_medians)
        ort_ms = statistics.median(ort_medians)
        row = {"model": name, "aicc_ms": round(aicc_ms, 2),
               "onnxruntime_ms": round(ort_ms, 2),
               "ratio": round(aicc_ms / ort_ms, 2),
               "max_error_relative_to_max_output": error,
               "same_top1": bool(agree), "compile_s": compile_s,
               "aicc_round_medians": [round(v, 2) for v in aicc_medians],
               "onnxruntime_round_medians": [round(v, 2) for v in ort_medians]}
        results.append(row)
        failed |= error > 1e-3
        print(f"{name}: aicc {aicc_ms:.1f} ms, ONNX Runtime {ort_ms:.1f} ms, "
              f"ratio {aicc_ms / ort_ms:.2f}; max error {error:.1e} of the "
              f"largest output, top-1 {'agrees' if agree else 'DIFFERS'}; "
              f"compiled in {compile_s:.1f} s", flush=True)

    print()
    print(f"| model | aicc median (ms) | ONNX Runtime median (ms) | ratio | "
          f"max error / max output |")
    print("|---|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r['model']} | {r['aicc_ms']:.1f} | "
              f"{r['onnxruntime_ms']:.1f} | {r['ratio']:.2f} | "
              f"{r['max_error_relative_to_max_output']:.1e} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"threads": threads, "rounds": args.rounds,
                       "runs": args.runs, "models": results}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
