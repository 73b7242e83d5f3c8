#!/usr/bin/env python3
"""One package's runtime against an older one's, on the same bundles.

The benchmark models (scripts/bench/gpu.py's definitions, random weights,
seed 0) are exported once, compiled once by this package's aicc (fp16,
--gpu-arch=sm_90a) at each batch, and each bundle is timed with
`aicc-run --bench` of this package, of the older one, and of this one
again (new, old, new, so that drift shows); both aicc-runs link their
package's runtime. Prints a Markdown table of the copy-inclusive, device
and resident medians and new / old, and writes each run's JSON line to
--out.

    python3 scripts/bench/runtime_ab.py --aicc PKG/bin/aicc
        --aicc-run PKG/bin/aicc-run --old-aicc-run OLD/bin/aicc-run
        --work /tmp/rab --out runtime-ab.jsonl [--models resnet50 bert_base]
        [--batches 1 32] [--runs 200]
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu  # noqa: E402  (the benchmark's model definitions and export)


def bench(aicc_run, bundle, inputs, runs):
    command = [aicc_run, bundle, "--bench", str(runs), "--warmup", "20",
               "--json"]
    for path in inputs:
        command += ["-i", path]
    result = subprocess.run(command, capture_output=True, text=True,
                            timeout=600)
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip() or result.stdout.strip())
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aicc", required=True)
    parser.add_argument("--aicc-run", required=True)
    parser.add_argument("--old-aicc-run", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--models", nargs="*",
                        default=["resnet50", "bert_base"])
    parser.add_argument("--batches", nargs="*", type=int, default=[1, 32])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    keys = ("median_ms", "device_median_ms", "resident_median_ms")
    print("| model | batch | ms: new, old, new again (copies, device, "
          "resident) | new / old (copies, device, resident) |")
    print("|---|--:|---|---|")
    with open(args.out, "w") as out:
        for name in args.models:
            torch.manual_seed(0)
            model, make_input = gpu.build(name)
            onnx_path = os.path.join(args.work, name + ".onnx")
            gpu.export(model.eval(), make_input(1), onnx_path)
            for batch in args.batches:
                x = make_input(batch).numpy()
                input_path = os.path.join(args.work, f"{name}-{batch}.npy")
                np.save(input_path, x)
                shape = "x".join(map(str, x.shape))
                bundle = os.path.join(args.work, f"{name}-{batch}.bin")
                subprocess.run(
                    [args.aicc, onnx_path, "--target=cuda",
                     "--precision=fp16", "--gpu-arch=sm_90a",
                     f"--input-shape=x={shape}", "--progress=never",
                     "-o", bundle], check=True)
                results = {}
                for run, tool in (("new", args.aicc_run),
                                  ("old", args.old_aicc_run),
                                  ("new2", args.aicc_run)):
                    record = bench(tool, bundle, [input_path], args.runs)
                    record.update(model=name, batch=batch, run=run)
                    out.write(json.dumps(record) + "\n")
                    out.flush()
                    results[run] = record
                times = ", ".join(
                    "/".join(f"{results[r][k]:.3f}" for r in
                             ("new", "old", "new2")) for k in keys)
                ratios = ", ".join(
                    f"{(results['new'][k] + results['new2'][k]) / 2 / results['old'][k]:.3f}"
                    for k in keys)
                print(f"| {name} | {batch} | {times} | **{ratios}** |",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
