#!/usr/bin/env python3
"""Device medians of two aiccs' runs of the same models, side by side.

    ab_summary.py NEW.jsonl OLD.jsonl NEW2.jsonl

The three files are scripts/bench/gpu.py's records of one run of
`gpu-run.sh ab`: this aicc, an older one, this one again. Prints a
Markdown table: each model and batch's fp16 device median of each run,
the new runs' mean over the old one, and the errors against the fp32
reference.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return {(r["model"], r["batch"]): r for r in map(json.loads, f)}


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    new, old, new2 = (load(p) for p in sys.argv[1:])
    print("| model | batch | new ms | old ms | new ms again | new / old "
          "| errors new, old |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    key = "aicc_device_ms_fp16"
    pairs = list(new) + [k for r in (old, new2) for k in r if k not in new]
    for model, batch in dict.fromkeys(pairs):
        runs = [r.get((model, batch), {}) for r in (new, old, new2)]
        if any(key not in r for r in runs):
            errors = [r.get("error_fp16", "missing") for r in runs]
            print(f"| {model} | {batch} | failed: {errors} | | | | |")
            continue
        a, b, c = (r[key] for r in runs)
        ratio = (a + c) / 2 / b
        print(f"| {model} | {batch} | {a:.3f} | {b:.3f} | {c:.3f} "
              f"| **{ratio:.3f}** | {runs[0]['rel_error_fp16']:.1e}, "
              f"{runs[1]['rel_error_fp16']:.1e} |")


if __name__ == "__main__":
    main()
