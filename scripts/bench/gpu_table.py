#!/usr/bin/env python3
"""Prints the markdown table of scripts/bench/gpu.py's JSON lines.

    scripts/bench/gpu_table.py [--half] results.jsonl [more.jsonl ...]

One row per model and batch: aicc's median latency at each precision the
lines measured (fp32, fp16, bf16), PyTorch eager's and
torch.compile(mode="reduce-overhead")'s (fp32), the ratios of each aicc
latency to torch.compile (above 1: aicc is slower), aicc's relative errors
against PyTorch and its compile times. A later line for the same model and
batch adds its fields to an earlier one (or replaces them), so that columns
measured in a later run join earlier ones; the ratios are computed here from
the medians.

With --half, the comparison docs/benchmarks.md reports instead: aicc's fp16 device time (the
kernels with the data on the GPU, as PyTorch's timings have it) against
torch.compile(mode="reduce-overhead") of PyTorch's half model, with the
--autotune build's columns where the lines have them (gpu.py
--autotune-cache), and the errors of aicc's and PyTorch's own half models
against the fp32 output.
"""
import json
import sys

PRECISIONS = (("fp32", ""), ("fp16", "_fp16"), ("bf16", "_bf16"))


def cell(value, form):
    return form.format(value) if isinstance(value, (int, float)) else "-"


def half_table(rows):
    tuned = any("aicc_device_ms_fp16_tuned" in r for r in rows.values())
    tags = ["", "_tuned"] if tuned else [""]
    names = {"": "", "_tuned": "tuned "}
    header = ["model", "batch"]
    header += [f"aicc {names[t]}device ms" for t in tags]
    header += ["compile fp16 ms", "eager fp16 ms"]
    resident = any("aicc_resident_ms_fp16" in r for r in rows.values())
    if resident:
        header += ["aicc resident ms"]
    header += [f"{names[t]}device / compile" for t in tags]
    if resident:
        header += ["resident / compile"]
    header += [f"{names[t]}error" for t in tags]
    header += ["PyTorch fp16 error"]
    header += [f"aicc {names[t]}compile s" for t in tags]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if i == 0 else "--:" for i in
                         range(len(header))) + "|")
    for (model, batch), r in rows.items():
        cells = [model, str(batch)]
        cells += [cell(r.get("aicc_device_ms_fp16" + t), "{:.3f}")
                  for t in tags]
        cells += [cell(r.get("compile_ms_half"), "{:.3f}"),
                  cell(r.get("eager_ms_half"), "{:.3f}")]
        if resident:
            cells.append(cell(r.get("aicc_resident_ms_fp16"), "{:.3f}"))
        keys = ["aicc_device_ms_fp16" + t for t in tags]
        for key in keys + (["aicc_resident_ms_fp16"] if resident else []):
            ratio = (r[key] / r["compile_ms_half"]
                     if key in r and "compile_ms_half" in r else None)
            cells.append("**" + cell(ratio, "{:.2f}") + "**"
                         if ratio is not None else "-")
        for t in tags:
            cells.append("fails: " + r["error_fp16" + t][:60]
                         if "error_fp16" + t in r
                         else cell(r.get("rel_error_fp16" + t), "{:.1e}"))
        cells.append(cell(r.get("torch_half_rel_error"), "{:.1e}"))
        cells += [cell(r.get("aicc_compile_s_fp16" + t), "{:.1f}")
                  for t in tags]
        print("| " + " | ".join(cells) + " |")


def main():
    half = "--half" in sys.argv[1:]
    rows = {}
    for path in [a for a in sys.argv[1:] if a != "--half"]:
        for line in open(path):
            if line.strip():
                record = json.loads(line)
                row = rows.setdefault((record["model"], record["batch"]), {})
                # A later success clears an earlier failure.
                for _, suffix in PRECISIONS:
                    if "aicc_ms" + suffix in record:
                        row.pop("error" + suffix, None)
                row.update(record)
    if half:
        half_table(rows)
        return
    present = [(name, suffix) for name, suffix in PRECISIONS
               if any("aicc_ms" + suffix in r or "error" + suffix in r
                      for r in rows.values())]
    header = ["model", "batch"]
    header += [f"aicc {name} ms" for name, _ in present]
    header += ["eager ms", "compile ms"]
    header += [f"{name} / compile" for name, _ in present]
    header += [f"{name} error" for name, _ in present]
    header += [f"compile s ({name})" for name, _ in present]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if i == 0 else "--:" for i in
                         range(len(header))) + "|")
    for (model, batch), r in rows.items():
        cells = [model, str(batch)]
        if not any("aicc_ms" + s in r for _, s in present):
            reason = r.get("skipped") or next(
                (r[k] for k in r if k.startswith("error")), "")
            print("| " + " | ".join(cells + [reason[:80]]) + " |" +
                  " |" * (len(header) - 3))
            continue
        cells += [cell(r.get("aicc_ms" + s), "{:.2f}") for _, s in present]
        cells += [cell(r.get("eager_ms"), "{:.2f}"),
                  cell(r.get("compile_ms"), "{:.2f}")]
        for _, s in present:
            ratio = (r["aicc_ms" + s] / r["compile_ms"]
                     if "aicc_ms" + s in r and "compile_ms" in r else None)
            cells.append(cell(ratio, "{:.2f}"))
        for _, s in present:
            cells.append("fails: " + r["error" + s][:60] if "error" + s in r
                         else cell(r.get("rel_error" + s), "{:.1e}"))
        cells += [cell(r.get("aicc_compile_s" + s), "{:.1f}")
                  for _, s in present]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
