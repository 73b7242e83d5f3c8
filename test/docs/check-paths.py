#!/usr/bin/env python3
"""Every repository path a walkthrough names in backquotes exists, except
the ones it tells the reader to add (they hold the placeholder NAME or
<...>). Prints each missing one, then a count.

    check-paths.py REPO DOC.md...
"""
import os
import re
import sys

ROOTS = ("lib/", "include/", "dialects/", "runtime/", "test/", "tools/",
         "scripts/", "docs/", "python/", "examples/")


def main():
    repo = sys.argv[1]
    checked = missing = 0
    for doc in sys.argv[2:]:
        text = open(doc).read()
        for path in re.findall(r"`([^`\s]+)`", text):
            path = path.rstrip(".,:;")
            if not path.startswith(ROOTS) or "NAME" in path or "<" in path:
                continue
            checked += 1
            if not os.path.exists(os.path.join(repo, path)):
                missing += 1
                print(f"{os.path.basename(doc)}: no such file: {path}")
    print(f"{checked - missing} of {checked} paths exist")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
