#!/bin/sh
# What one call on the lent GPU machine runs (see docs/gpu.md):
#
#   scripts/device/gpu-run.sh conformance|models|gemm [ARGS...]
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
