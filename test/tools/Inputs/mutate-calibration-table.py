#!/usr/bin/python3
"""Corrupts a calibration table many ways and checks that aicc rejects each
cleanly or accepts it, never crashing.

    mutate-calibration-table.py AICC MODEL TABLE WORK [COUNT]

Each mutant (byte flips, truncations, insertions, and JSON-level changes:
wrong types, huge or non-finite numbers, missing or extra fields, deep
nesting) is given to `aicc MODEL --quantize=int8 --calibration-table=FILE
--emit=onnx`. A run must exit 0, or 1 with an `error:` line on stderr;
a signal, another status or a silent failure is reported. Prints
"N mutants: A accepted, R rejected, 0 crashed" and exits 1 on a crash.
"""
import json
import os
import random
import subprocess
import sys

aicc, model, table_path, work = sys.argv[1:5]
count = int(sys.argv[5]) if len(sys.argv) > 5 else 100
os.makedirs(work, exist_ok=True)
rng = random.Random(1)
text = open(table_path).read()
table = json.loads(text)
tensor = sorted(table["tensors"])[0]


def structural():
    t = json.loads(text)
    choice = rng.randrange(9)
    if choice == 0:
        t["tensors"][tensor]["min"] = rng.choice(
            ["x", None, [], {}, 1e308 * 10, -1e400, True])
    elif choice == 1:
        del t["tensors"][tensor][rng.choice(["min", "max", "threshold"])]
    elif choice == 2:
        t["tensors"][tensor]["threshold"] = rng.choice([-1.0, 1e30, 0.0])
    elif choice == 3:
        t[rng.choice(["format", "version", "method", "samples"])] = \
            rng.choice([None, 3, "v", -5, 2 ** 70])
    elif choice == 4:
        t["tensors"] = rng.choice([[], "x", None, 7])
    elif choice == 5:
        t["tensors"]["extra" * rng.randrange(1, 50)] = {"min": 0, "max": 1,
                                                        "threshold": 1}
    elif choice == 6:
        return "[" * rng.randrange(1, 20000)
    elif choice == 7:
        t["tensors"][tensor] = {"min": 5, "max": -5, "threshold": 1}
    else:
        return json.dumps(t).replace("1", "1e999", 1)
    return json.dumps(t, allow_nan=True)


def bytewise():
    data = bytearray(text.encode())
    for _ in range(rng.randrange(1, 8)):
        op = rng.randrange(3)
        at = rng.randrange(len(data)) if data else 0
        if op == 0 and data:
            data[at] = rng.randrange(256)
        elif op == 1:
            del data[at:at + rng.randrange(1, 32)]
        else:
            data[at:at] = bytes(rng.randrange(256)
                                for _ in range(rng.randrange(1, 16)))
    return bytes(data)


accepted = rejected = crashed = 0
for i in range(count):
    mutant = structural() if i % 2 else bytewise()
    path = os.path.join(work, f"mutant-{i}.json")
    with open(path, "wb") as f:
        f.write(mutant if isinstance(mutant, bytes) else mutant.encode())
    run = subprocess.run([aicc, model, "--quantize=int8",
                          f"--calibration-table={path}", "--emit=onnx",
                          "-o", os.path.join(work, "out.onnx")],
                         capture_output=True, text=True, errors="replace")
    if run.returncode == 0:
        accepted += 1
    elif run.returncode == 1 and "error:" in run.stderr:
        rejected += 1
    else:
        crashed += 1
        print(f"CRASH {path}: status {run.returncode}: {run.stderr[-300:]}")
print(f"{count} mutants: {accepted} accepted, {rejected} rejected, "
      f"{crashed} crashed")
sys.exit(1 if crashed else 0)
