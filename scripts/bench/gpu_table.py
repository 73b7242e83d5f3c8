#!/usr/bin/env python3
"""Prints the markdown table of scripts/bench/gpu.py's JSON lines.

    scripts/bench/gpu_table.py results.jsonl [more.jsonl ...]

One row per model and batch: aicc's median latency in fp32 and, where
measured, with --precision=fp16, PyTorch eager's and
torch.compile(mode="reduce-overhead")'s (fp32), the ratios to
torch.compile (above 1: aicc is slower) and aicc's relative errors against
PyTorch. A later line for the same model and batch replaces an earlier one.
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
    print("| model | batch | aicc fp32 ms | aicc fp16 ms | eager ms | "
          "compile ms | fp32 / eager | fp32 / compile | fp16 / eager | "
          "fp16 / compile | fp32 error | fp16 error | aicc compile s (fp32) |")
    print("|-------|------:|-------------:|-------------:|---------:|"
          "-----------:|-------------:|---------------:|-------------:|"
          "---------------:|-----------:|-----------:|------:|")
    for (model, batch), r in rows.items():
        if "skipped" in r or "aicc_ms" not in r and "aicc_ms_fp16" not in r:
            reason = r.get("skipped") or r.get("error") or \
                r.get("error_fp16", "")
            print(f"| {model} | {batch} | {reason[:80]} |" + " |" * 11)
            continue
        print(f"| {model} | {batch} | {cell(r.get('aicc_ms'), '{:.2f}')} | "
              f"{cell(r.get('aicc_ms_fp16'), '{:.2f}')} | "
              f"{cell(r.get('eager_ms'), '{:.2f}')} | "
              f"{cell(r.get('compile_ms'), '{:.2f}')} | "
              f"{cell(r.get('aicc_over_eager'), '{:.2f}')} | "
              f"{cell(r.get('aicc_over_compile'), '{:.2f}')} | "
              f"{cell(r.get('aicc_over_eager_fp16'), '{:.2f}')} | "
              f"{cell(r.get('aicc_over_compile_fp16'), '{:.2f}')} | "
              f"{cell(r.get('rel_error'), '{:.1e}')} | "
              f"{cell(r.get('rel_error_fp16'), '{:.1e}')} | "
              f"{cell(r.get('aicc_compile_s'), '{:.1f}')} |")

if __name__ == "__main__":
    main()
