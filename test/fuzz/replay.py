#!/usr/bin/python3
"""Replays every fuzz finding kept in test/fuzz/regressions through the
programs, in the regular build: ONNX inputs through `aicc` (CPU and ROCm
targets), bundles through `aicc-run`. Each must end in exit status 0 or in
the program's error status (aicc 1, aicc-run 2) with an "error:" message:
never a signal, never a hang.

    replay.py AICC AICC_RUN WORKDIR
"""
import os
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regressions")


def run(command, what, failures, error_status):
    try:
        proc = subprocess.run(command, capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        failures.append(f"{what}: no answer in 120 s")
        return
    if proc.returncode == 0:
        print(f"{what}: accepted")
    elif proc.returncode == error_status and "error:" in proc.stderr:
        print(f"{what}: refused")
    else:
        failures.append(f"{what}: exit {proc.returncode}: "
                        + proc.stderr.strip()[-300:])


def main():
    aicc, aicc_run, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failures, count = [], 0
    def entries(kind):
        return sorted(n for n in os.listdir(os.path.join(HERE, kind))
                      if not n.startswith("."))

    for name in entries("onnx"):
        path = os.path.join(HERE, "onnx", name)
        for target in ("cpu", "rocm"):
            count += 1
            run([aicc, path, "--target=" + target, "--progress=never", "-o",
                 os.path.join(work, f"{name}.{target}.bin")],
                f"onnx/{name} {target}", failures, 1)
    for name in entries("bundle"):
        count += 1
        run([aicc_run, os.path.join(HERE, "bundle", name), "--info"],
            f"bundle/{name}", failures, 2)
    for failure in failures:
        print("FAIL " + failure)
    print(f"replayed {count} fuzz findings, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
