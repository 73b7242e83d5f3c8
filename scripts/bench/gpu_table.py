#!/usr/bin/env python3
"""Prints the markdown table of scripts/bench/gpu.py's JSON lines.

    scripts/bench/gpu_table.py results.jsonl [more.jsonl ...]

One row per model and batch: aicc's median latency in fp32 and, where
measured, with --precision=fp16, PyTorch eager's and
torch.compile(mode="reduce-overhead")'s (fp32), the ratios to
torch.compile (above 1: aicc is slower) and aicc's relative errors against
PyTorch. A later line for the same model and batch adds its fields to an earlier one (or replaces them), so
that fp16 rows measured in a later run join the fp32 ones; the ratios are
computed here from the medians.
"""
import json
import sys


def cell(value, form):
    return form.format(value) if isinstance(value, (int, float)) else "-"


def ratio(record, a, b):
    if a in record and b in record:
        return record[a] / record[b]
    return None


def main():
    rows = {}
    for path in sys.argv[1:]:
        for line in open(path):
            if line.strip():
                record = json.loads(line)
                key = (record["model"], record["batch"])
                row = rows.setdefault(key, {})
                # A later success clears an earlier failure.
                for suffix in ("", "_fp16"):
                    if "aicc_ms" + suffix in record:
                        row.pop("error" + suffix, None)
                row.update(record)
    print("| model | batch | aicc fp32 ms | aicc fp16 ms | eager ms | "
          "compile ms | fp32 / eager | fp32 / compile | fp16 / eager | "
          "fp16 / compile | fp32 error | fp16 error | aicc compile s (fp32) |")
    print("|-------|------:|-------------:|-------------:|---------:|"
          "-----------:|-------------:|---------------:|-------------:|"
          "---------------:|-----------:|-----------:|------:|")
    for (model, batch), r in rows.items():
        if "aicc_ms" not in r and "aicc_ms_fp16" not in r:
            reason = r.get("skipped") or r.get("error") or \
                r.get("error_fp16", "")
            print(f"| {model} | {batch} | {reason[:80]} |" + " |" * 11)
            continue
        print(f"| {model} | {batch} | {cell(r.get('aicc_ms'), '{:.2f}')} | "
              f"{cell(r.get('aicc_ms_fp16'), '{:.2f}')} | "
              f"{cell(r.get('eager_ms'), '{:.2f}')} | "
              f"{cell(r.get('compile_ms'), '{:.2f}')} | "
              f"{cell(ratio(r, 'aicc_ms', 'eager_ms'), '{:.2f}')} | "
              f"{cell(ratio(r, 'aicc_ms', 'compile_ms'), '{:.2f}')} | "
              f"{cell(ratio(r, 'aicc_ms_fp16', 'eager_ms'), '{:.2f}')} | "
              f"{cell(ratio(r, 'aicc_ms_fp16', 'compile_ms'), '{:.2f}')} | "
              f"{cell(r.get('rel_error'), '{:.1e}')} | "
              f"{cell(r.get('rel_error_fp16'), '{:.1e}') if 'error_fp16' not in r else 'fails: ' + r['error_fp16'][:60]} | "
              f"{cell(r.get('aicc_compile_s'), '{:.1f}')} |")

if __name__ == "__main__":
    main()
