#!/usr/bin/env python3
"""The references generated from ODS (BUILD/docs/<Dir>/*Dialect.md and
*Passes.md) and their committed copies (docs/dialects and docs/passes):

    scripts/docs_sync.py BUILD            exits 1, naming each difference
    scripts/docs_sync.py BUILD --write    copies the generated ones in

A new dialect or pass library's reference is picked up by its name.
"""
import filecmp
import glob
import os
import shutil
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pairs(build):
    for generated in sorted(glob.glob(os.path.join(build, "docs", "*", "*.md"))):
        name = os.path.basename(generated)
        if name.endswith("Dialect.md"):
            folder = "dialects"
        elif name.endswith("Passes.md"):
            folder = "passes"
        else:
            continue
        yield generated, os.path.join(REPO, "docs", folder, name)


def main():
    build = sys.argv[1]
    write = "--write" in sys.argv[2:]
    found = list(pairs(build))
    if not found:
        print(f"no generated references under {build}/docs")
        return 1
    stale = []
    for generated, committed in found:
        if write:
            os.makedirs(os.path.dirname(committed), exist_ok=True)
            shutil.copyfile(generated, committed)
        elif not os.path.exists(committed) or not filecmp.cmp(
                generated, committed, shallow=False):
            stale.append(os.path.relpath(committed, REPO))
    wanted = {os.path.basename(c) for _, c in found}
    for folder in ("dialects", "passes"):
        for committed in glob.glob(os.path.join(REPO, "docs", folder, "*.md")):
            if os.path.basename(committed) not in wanted:
                stale.append(os.path.relpath(committed, REPO) +
                             " (nothing generates it)")
    for path in stale:
        print(f"out of date: {path}")
    if not write:
        print(f"{len(found) - len(stale)} of {len(found)} references current"
              if not stale else "run scripts/update-docs.sh")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
