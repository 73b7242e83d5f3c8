#!/usr/bin/env python3
"""Writes the report of aicc's GPU performance targets from one run of
`scripts/device/gpu-run.sh targets`:

    scripts/bench/targets_report.py --models models.jsonl --gemm gemm.jsonl
        --membound membound.jsonl [--write docs/benchmarks.md]

The lines are those of scripts/bench/gpu.py (--precisions fp16
--peer-precisions fp16), gemm.py and membound.py, as
`scripts/device/gpu-run.sh targets` writes them in one run. The report:
each target with whether it holds (GEMM at least 0.8 of cuBLAS's TFLOP/s
with its numeric checks passing; each memory-bound kernel at least 0.8 of
the copy's bandwidth and matching; every model and batch at most 1.0 of
torch.compile, by the kernels' device time and by whole runs on data
left in device memory where the lines have them, errors within 1e-2),
then the three tables.
With --write, it replaces the part of the file between the lines
`<!-- targets-report:begin -->` and `<!-- targets-report:end -->`; else it
prints.
"""
import argparse
import contextlib
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_table  # noqa: E402

BEGIN = "<!-- targets-report:begin -->"
END = "<!-- targets-report:end -->"
GEMM_FLOOR = 0.8
COPY_FLOOR = 0.8
ERROR_LIMIT = 1e-2


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def verdict(holds):
    return "**holds**" if holds else "**does not hold**"


def gemm_part(records):
    checks = [r for r in records if "check" in r]
    timed = [r for r in records if "gemm" in r]
    ratios = [r.get("aicc_over_cublas_tflops", 0) for r in timed]
    failed = [r["check"] for r in checks if not r.get("ok")]
    holds = bool(timed) and min(ratios) >= GEMM_FLOOR and not failed
    out = [f"- GEMM at least {GEMM_FLOOR:.0%} of cuBLAS: {verdict(holds)} "
           f"(lowest {min(ratios, default=0):.2f}; {len(checks)} numeric "
           f"checks, {len(failed)} failed)"]
    table = ["| size | type | aicc TFLOP/s | cuBLAS TFLOP/s | aicc / cuBLAS "
             "| error |", "|--:|---|--:|--:|--:|--:|"]
    for r in timed:
        table.append(
            f"| {r['gemm']} | {r['dtype']} | {r['aicc_tflops']:.0f} | "
            f"{r['torch_tflops']:.0f} | **{r['aicc_over_cublas_tflops']:.2f}**"
            f" | {r['rel_error_vs_fp32']:.1e} |")
    return holds, out, table


def membound_part(records):
    cases = [r for r in records if r.get("case") not in (None, "copy")]
    copy = next((r for r in records if r.get("case") == "copy"), {})
    holds = bool(cases) and all(
        r.get("ok") and r.get("aicc_over_copy", 0) >= COPY_FLOOR
        for r in cases)
    lowest = min((r.get("aicc_over_copy", 0) for r in cases), default=0)
    out = [f"- memory-bound kernels at least {COPY_FLOOR:.0%} of the copy's "
           f"bandwidth ({copy.get('gb_per_s', 0):.0f} GB/s): "
           f"{verdict(holds)} (lowest {lowest:.2f})"]
    table = ["| kernel | aicc GB/s | aicc / copy | PyTorch / copy | error |",
             "|---|--:|--:|--:|--:|"]
    for r in cases:
        table.append(
            f"| {r['case']} | {r['aicc_gb_per_s']:.0f} | "
            f"**{r['aicc_over_copy']:.2f}** | {r['torch_over_copy']:.2f} | "
            f"{r['rel_error']:.1e} |")
    return holds, out, table


def models_part(records):
    rows = {}
    for r in records:
        rows.setdefault((r["model"], r["batch"]), {}).update(r)
    # Both of aicc's latencies count where the lines have them: the
    # kernels' device time and whole resident runs (data on the device,
    # launch and wait included, on the host's clock).
    keys = ["aicc_device_ms_fp16"]
    if any("aicc_resident_ms_fp16" in r for r in rows.values()):
        keys.append("aicc_resident_ms_fp16")
    ratios, errors = [], []
    for r in rows.values():
        for key in keys:
            if key in r and "compile_ms_half" in r:
                ratios.append(r[key] / r["compile_ms_half"])
            else:
                ratios.append(float("inf"))
        errors.append(r.get("rel_error_fp16", float("inf")))
    holds = bool(rows) and max(ratios) <= 1.0 and max(errors) <= ERROR_LIMIT
    measures = " and ".join({"aicc_device_ms_fp16": "device time",
                             "aicc_resident_ms_fp16": "resident runs"}[k]
                            for k in keys)
    out = [f"- every model and batch at most 1.0 of torch.compile ({measures}),"
           f" errors within {ERROR_LIMIT:g}: {verdict(holds)} (highest ratio "
           f"{max(ratios, default=0):.2f}, highest error "
           f"{max(errors, default=0):.1e}, {len(rows)} rows)"]
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        gpu_table.half_table(rows)
    return holds, out, text.getvalue().rstrip("\n").split("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", required=True)
    parser.add_argument("--gemm", required=True)
    parser.add_argument("--membound", required=True)
    parser.add_argument("--write", metavar="FILE")
    args = parser.parse_args()
    parts = [gemm_part(lines(args.gemm)), membound_part(lines(args.membound)),
             models_part(lines(args.models))]
    report = ["The targets, measured in one run of `sh scripts/device/"
              "gpu-run.sh targets` (written by "
              "`scripts/bench/targets_report.py`):", ""]
    for _, summary, _ in parts:
        report += summary
    for title, (_, _, table) in zip(
            ["GEMM", "Memory-bound kernels (16384 x 4096 f16)",
             "Whole models, fp16, device time and resident runs against "
             "torch.compile(mode=\"reduce-overhead\")"], parts):
        report += ["", title + ":", ""] + table
    text = "\n".join(report) + "\n"
    if not args.write:
        sys.stdout.write(text)
        return
    with open(args.write) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"{args.write}: no {BEGIN} ... {END} section")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(args.write, "w") as f:
        f.write(head + BEGIN + "\n" + text + END + tail)


if __name__ == "__main__":
    main()
