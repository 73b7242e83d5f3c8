#!/usr/bin/env python3
"""Summarizes a `gpu-run.sh sanitize` run: how many aicc-run processes each
compute-sanitizer tool checked, which reported errors (with the first error
lines), and how many conformance tests passed under the sanitizer.

    sanitizer_summary.py LOG_DIR [RESULTS.json]
"""
import json
import os
import re
import sys

SUMMARY = {
    "memcheck": re.compile(r"ERROR SUMMARY: (\d+) error"),
    "racecheck": re.compile(r"RACECHECK SUMMARY: (\d+) hazard"),
}


def main():
    logs = sys.argv[1]
    results = sys.argv[2] if len(sys.argv) > 2 else None
    status = 0
    for tool, pattern in SUMMARY.items():
        runs, flagged, unfinished = 0, [], []
        for name in sorted(os.listdir(logs)):
            if not name.endswith("." + tool + ".log"):
                continue
            runs += 1
            with open(os.path.join(logs, name), errors="replace") as f:
                text = f.read()
            match = pattern.search(text)
            if not match:
                unfinished.append(name)
            elif int(match.group(1)) > 0:
                first = [l for l in text.splitlines() if "=====" in l][:3]
                flagged.append((name, first))
        print(f"{tool}: {runs} runs, {len(flagged)} with reports, "
              f"{len(unfinished)} without a summary line")
        for name, lines in flagged:
            print(f"  {name}:")
            for line in lines:
                print(f"    {line}")
        for name in unfinished[:10]:
            print(f"  no summary: {name}")
        if flagged or unfinished or runs == 0:
            status = 1
    if not results:
        return status
    with open(results) as f:
        outcome = json.load(f)["cuda"]
    passed = sum(1 for ok, _ in outcome.values() if ok)
    print(f"conformance under compute-sanitizer: {passed}/{len(outcome)} pass")
    return status


if __name__ == "__main__":
    sys.exit(main())
