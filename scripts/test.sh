#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
# `.ci/run` calls this and nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
/usr/lib/llvm-22/bin/lit -sv --show-unsupported build/test
# The ONNX conformance set, compiled and run end to end on the CPU, held to
# the checked-in list of expected failures.
/usr/bin/python3 scripts/conformance/run.py cpu --check-expected --require 0.9
