#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
# `.ci/run` calls this and nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
/usr/lib/llvm-22/bin/lit -sv build/test
