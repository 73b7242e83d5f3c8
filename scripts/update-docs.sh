#!/usr/bin/env bash
# Copies the documentation generated from ODS (build/docs) into docs/dialects,
# where it is committed. The lit test docs/generated-docs-in-sync.test fails
# when the two differ, so run this after changing any .td file.
set -euo pipefail
cd "$(dirname "$0")/.."
ninja -C build aicc-docs
mkdir -p docs/dialects
cp build/docs/Tile/TileDialect.md docs/dialects/TileDialect.md
cp build/docs/Tile/TilePasses.md docs/dialects/TilePasses.md
echo "docs/dialects updated"
