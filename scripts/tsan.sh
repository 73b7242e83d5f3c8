#!/usr/bin/env bash
# The runtime under ThreadSanitizer: builds the runtime project on its own
# (runtime/, no LLVM) with clang 22 and -fsanitize=thread into build-tsan/,
# compiles a small model for the CPU with the regular build's aicc, and runs
# the stress test (one model, THREADS threads each with its own context of
# two threads, contexts created and released while others run). Any data
# race or other report fails the run:
#
#   scripts/tsan.sh [THREADS] [RUNS]      (defaults 8 and 30)
#
# The model's kernels (compiled code the runtime loads) are not
# instrumented; the runtime's loading, planning, thread pools and contexts
# are.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-8}
runs=${2:-30}

scripts/install-deps.sh >/dev/null
scripts/build.sh aicc >/dev/null
if [ ! -f build-tsan/build.ninja ]; then
  cmake -S runtime -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS=-fsanitize=thread \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread >/dev/null
fi
ninja -C build-tsan aicc-runtime-stress-test >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 test/tools/Inputs/make-model.py "$work"
build/bin/aicc "$work/model.onnx" -o "$work/model.bin" --progress=never
stress=$(find build-tsan -name aicc-runtime-stress-test -type f | head -1)
TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" \
  "$stress" "$work/model.bin" "$threads" "$runs" 2
echo "tsan: no reports"
