"""What the GPU end-to-end quantization benchmarks share: compiling a
model with aicc for cuda, running its bundle once for its output, and
timing it with aicc-run (bench_gpu_e2e.py, bench_w4_decode.py)."""
import os
import re
import subprocess

import numpy as np


def compile_bundle(args, model, bundle, flags):
    """Compiles `model` for cuda (sm_90a, fp16, and `flags`) into `bundle`;
    the tail of aicc's errors, or None."""
    proc = subprocess.run(
        [args.aicc, model, "--target=cuda", "--gpu-arch=sm_90a",
         "--precision=fp16", "--progress=never", "-o", bundle, *flags],
        capture_output=True, text=True)
    return proc.stderr.strip()[-400:] if proc.returncode != 0 else None


def run_output(args, bundle, xfile, out):
    """The bundle's first output on input `xfile` (written under `out`), or
    None when the run fails."""
    proc = subprocess.run(
        [args.aicc_run, bundle, "-i", xfile, "--output-dir", out],
        capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    return np.load(os.path.join(out, sorted(os.listdir(out))[0]))


def rel_error(got, ref):
    return float(np.linalg.norm(got.astype(np.float64) - ref) /
                 np.linalg.norm(ref))


def bench_median(args, bundle, xfile, runs):
    """(median ms of `runs` whole runs after 10 warm-ups, None) or (None,
    the tail of what aicc-run printed)."""
    proc = subprocess.run(
        [args.aicc_run, bundle, "-i", xfile, "--bench", str(runs),
         "--warmup", "10"], capture_output=True, text=True)
    found = re.search(r"median ([0-9.]+) ms", proc.stdout)
    if found:
        return float(found.group(1)), None
    return None, (proc.stderr or proc.stdout)[-400:]


def profile_json(args, bundle, xfile, runs):
    """`aicc-run --profile --json` of `runs` runs after 5 warm-ups: its
    stdout."""
    return subprocess.run(
        [args.aicc_run, bundle, "-i", xfile, "--bench", str(runs), "--warmup",
         "5", "--profile", "--json"], capture_output=True, text=True).stdout
