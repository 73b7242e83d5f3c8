#!/usr/bin/env bash
# Checks aicc's com.microsoft operators against ONNX Runtime: writes the
# models of test/tools/Inputs/make-ms-{quant,fusion}-models.py, runs each
# in ONNX Runtime (onnxruntime-node, CPU) and in aicc on the CPU, and prints,
# per model, the largest difference of aicc and of the numpy reference from
# ONNX Runtime, in units of the test's tolerance. Expects a build (build/bin).
set -euo pipefail
cd "$(dirname "$0")/../.."
ort=$(scripts/bench/ort-node.sh)
work=build/quant/ms-ops
rm -rf "$work" && mkdir -p "$work"
status=0
names=$(/usr/bin/python3 test/tools/Inputs/make-ms-quant-models.py "$work"
  /usr/bin/python3 test/tools/Inputs/make-ms-fusion-models.py "$work")
for name in $names; do
  dir=$work/$name
  ORT_NODE_DIR=$ort node scripts/bench/ort_bench.js "$dir/model.onnx" \
    "$dir/x.npy" 1 0 1 "$dir/ort.bin" >/dev/null
  build/bin/aicc "$dir/model.onnx" -o "$dir/model.bin"
  build/bin/aicc-run "$dir/model.bin" -i "$dir/x.npy" \
    --output-dir "$dir/aicc" >/dev/null
  /usr/bin/python3 - "$dir" "$name" <<'PY' || status=1
import glob, sys
import numpy as np
d, name = sys.argv[1:]
expected = np.load(f"{d}/expected/output_0.npy")
ort = np.fromfile(f"{d}/ort.bin", np.float32).reshape(expected.shape)
aicc = np.load(sorted(glob.glob(f"{d}/aicc/*.npy"))[0])
atol = float(open(f"{d}/atol").read())
a, r = np.abs(aicc - ort).max(), np.abs(expected - ort).max()
print(f"{name:32s} aicc-ort {a:.3g} ({a / atol:.2f} tol)  "
      f"numpy-ort {r:.3g} ({r / atol:.2f} tol)")
sys.exit(0 if a <= atol and r <= atol else 1)
PY
done
exit $status
