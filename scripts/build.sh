#!/usr/bin/env bash
# Configures (once) and builds aicc into build/. Extra arguments go to ninja.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja
fi
ninja -C build "$@"
