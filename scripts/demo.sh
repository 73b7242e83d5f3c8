#!/usr/bin/env bash
# The main job: installs what is missing, builds aicc, then trains a small
# real model (scikit-learn's MLP on the digits that python3-sklearn ships),
# compiles it with aicc for the CPU, runs it with aicc-run and compares its
# predictions and accuracy with scikit-learn's.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo
/usr/bin/python3 scripts/demo/digits.py --bin build/bin --work build/demo
