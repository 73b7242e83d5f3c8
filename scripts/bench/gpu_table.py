#!/usr/bin/env python3
"""Prints the markdown table of scripts/bench/gpu.py's JSON lines.

    scripts/bench/gpu_table.py results.jsonl [more.jsonl ...]

One row per model and batch: aicc's median latency (fp32), PyTorch eager's
and torch.compile(mode="reduce-overhead")'s, the ratios (above 1: aicc is
slower) and aicc's relative error against PyTorch. A later line for the same
model and batch replaces an earlier one.
"""
import json
import sys


def cell(value, form):
    return form.format(value) if isinstance(value, (int, float)) else "-"


def main():
    rows = {}
    for path in sys.argv[1:]:
        for line in open(path):
            if line.strip():
                record = json.loads(line)
                rows[(record["model"], record["batch"])] = record
    print("| model | batch | aicc fp32 ms | eager ms | compile ms | "
          "aicc / eager | aicc / compile | rel. error | aicc compile s |")
    print("|-------|------:|-------------:|---------:|-----------:|"
          "-------------:|---------------:|-----------:|---------------:|")
    for (model, batch), r in rows.items():
        if "error" in r or "skipped" in r:
            reason = r.get("error") or r.get("skipped")
            print(f"| {model} | {batch} | {reason[:80]} | | | | | | |")
            continue
        print(f"| {model} | {batch} | {cell(r.get('aicc_ms'), '{:.2f}')} | "
              f"{cell(r.get('eager_ms'), '{:.2f}')} | "
              f"{cell(r.get('compile_ms'), '{:.2f}')} | "
              f"{cell(r.get('aicc_over_eager'), '{:.2f}')} | "
              f"{cell(r.get('aicc_over_compile'), '{:.2f}')} | "
              f"{cell(r.get('rel_error'), '{:.1e}')} | "
              f"{cell(r.get('aicc_compile_s'), '{:.1f}')} |")


if __name__ == "__main__":
    main()
