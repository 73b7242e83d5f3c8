#!/usr/bin/env bash
# Copies the documentation generated from ODS (build/docs) into docs/dialects
# (dialects) and docs/passes (passes), where it is committed. The lit test
# docs/generated-docs-in-sync.test fails when the two differ, so run this
# after changing any .td file.
set -euo pipefail
cd "$(dirname "$0")/.."
ninja -C build aicc-docs
/usr/bin/python3 scripts/docs_sync.py build --write
echo "docs/dialects and docs/passes updated"
