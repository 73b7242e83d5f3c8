#!/bin/sh
# What one call on the lent GPU machine runs (see docs/gpu.md):
#
#   scripts/device/gpu-run.sh conformance|sanitize|models|gemm [ARGS...]
#
# .device/ carries the package (scripts/package.sh) and, for conformance,
# the ONNX test data (scripts/device/prepare.sh makes both). Results and
# logs go to $OUT (or ./gpu-out).
set -u
stage=$1
shift
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out" /tmp/aicc
tar -C /tmp/aicc -xJf .device/aicc-*-linux-x86_64.tar.xz
pkg=$(ls -d /tmp/aicc/aicc-*-linux-x86_64)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
"$pkg/bin/aicc" --version

case $stage in
conformance)
  mkdir -p /tmp/testdata
  tar -C /tmp/testdata -xJf .device/testdata.tar.xz
  AICC_ONNX_TESTDATA=/tmp/testdata/data PYTHONUNBUFFERED=1 python3 \
    scripts/conformance/run.py cuda --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --jobs 16 --timeout 120 \
    --results "$out/cuda-conformance.json" "$@" 2>&1 | tee "$out/conformance.log"
  ;;
sanitize)
  # The conformance set with every aicc-run under compute-sanitizer's
  # memcheck and racecheck (scripts/device/sanitize-run.sh); the summary
  # counts the logs that report errors.
  mkdir -p /tmp/testdata "$out/sanitizer"
  tar -C /tmp/testdata -xJf .device/testdata.tar.xz
  compute-sanitizer --version | tail -1
  AICC_RUN="$pkg/bin/aicc-run" AICC_SANITIZER_LOGS="$out/sanitizer" \
    AICC_ONNX_TESTDATA=/tmp/testdata/data PYTHONUNBUFFERED=1 python3 \
    scripts/conformance/run.py cuda --aicc "$pkg/bin/aicc" \
    --aicc-run "$PWD/scripts/device/sanitize-run.sh" --jobs 16 --timeout 300 \
    --results "$out/cuda-sanitize.json" "$@" 2>&1 | tee "$out/sanitize.log"
  python3 scripts/device/sanitizer_summary.py "$out/sanitizer" \
    "$out/cuda-sanitize.json" | tee "$out/sanitizer-summary.txt"
  # The tensor-core kernels (shared memory, barriers, ldmatrix) through
  # the GEMM benchmark's numeric checks, without its timing.
  mkdir -p "$out/sanitizer-mma"
  AICC_RUN="$pkg/bin/aicc-run" AICC_SANITIZER_LOGS="$out/sanitizer-mma" \
    PYTHONUNBUFFERED=1 python3 scripts/bench/gemm.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$PWD/scripts/device/sanitize-run.sh" --work /tmp/gemm \
    --out "$out/gemm-sanitize.jsonl" --sizes 2>&1 | tee "$out/gemm-sanitize.log"
  python3 scripts/device/sanitizer_summary.py "$out/sanitizer-mma" |
    tee -a "$out/sanitizer-summary.txt"
  ;;
models)
  PYTHONUNBUFFERED=1 python3 scripts/bench/gpu.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --work /tmp/models \
    --out "$out/models.jsonl" "$@" 2>&1 | tee "$out/models.log"
  ;;
gemm)
  PYTHONUNBUFFERED=1 python3 scripts/bench/gemm.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --work /tmp/gemm \
    --out "$out/gemm.jsonl" "$@" 2>&1 | tee "$out/gemm.log"
  ;;
esac
