#!/usr/bin/env bash
# The main job: installs what is missing, builds aicc, then compiles an example
# ONNX model and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo
echo "aicc is built: build/bin/aicc-opt drives the tile dialect and its passes."
echo "Compiling and running an ONNX model needs the importer and the CPU target,"
echo "which have not landed yet; this demo stops here."
