#!/usr/bin/env bash
# Copies the documentation generated from ODS (build/docs) into docs/dialects
# and docs/passes, where it is committed. The lit test
# docs/generated-docs-in-sync.test fails when the two differ, so run this
# after changing any .td file.
set -euo pipefail
cd "$(dirname "$0")/.."
ninja -C build aicc-docs
mkdir -p docs/dialects docs/passes
cp build/docs/Tile/TileDialect.md docs/dialects/TileDialect.md
cp build/docs/Tile/TilePasses.md docs/dialects/TilePasses.md
cp build/docs/AiccGPU/AiccGPUDialect.md docs/dialects/AiccGPUDialect.md
cp build/docs/Transforms/TransformsPasses.md docs/passes/TransformsPasses.md
cp build/docs/Conversion/ConversionPasses.md docs/passes/ConversionPasses.md
cp build/docs/Target/CPUPasses.md docs/passes/CPUPasses.md
cp build/docs/Target/GPUPasses.md docs/passes/GPUPasses.md
echo "docs/dialects and docs/passes updated"
