#!/bin/sh
# Fills .device/ (ignored by git) with what scripts/device/gpu-run.sh needs
# on the GPU machine: the package and the ONNX conformance test data.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
scripts/package.sh build .device
# The runtime's test programs, for `gpu-run.sh faults`.
mkdir -p .device/tests
for test in cuda-smoke fault stress; do
  cp build/bin/aicc-runtime-$test-test .device/tests/
done
tar -C /usr/share/libonnx-testdata -cf - data/node data/pytorch-converted \
  data/pytorch-operator data/simple | xz -T0 -6 >.device/testdata.tar.xz
du -ch .device/* | tail -1
