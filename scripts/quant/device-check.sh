#!/bin/sh
# On a machine with an NVIDIA GPU, python onnxruntime and torch: quantizes
# small models with ONNX Runtime's tools (make_ort_models.py), then compiles
# and runs them, and the com.microsoft operator models of the tests, with
# aicc for cuda from the package in .device/. Results go to $OUT.
set -u
out=${OUT:-$PWD/quant-out}
mkdir -p "$out" /tmp/aicc
tar -C /tmp/aicc -xJf .device/aicc-*-linux-x86_64.tar.xz
pkg=$(ls -d /tmp/aicc/aicc-*-linux-x86_64)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import onnxruntime, torch; print('onnxruntime', onnxruntime.__version__, 'torch', torch.__version__)"
python3 scripts/quant/make_ort_models.py "$out/models" > "$out/make.log" 2>&1
tail -n 40 "$out/make.log"
python3 scripts/quant/check_models.py "$out/models" --target cuda \
  --aicc "$pkg/bin/aicc" --aicc-run "$pkg/bin/aicc-run" \
  --json "$out/cuda.json" "$@"
ms=/tmp/ms-ops
for name in $(python3 test/tools/Inputs/make-ms-quant-models.py $ms); do
  "$pkg/bin/aicc" $ms/$name/model.onnx --target=cuda -o $ms/$name.bin &&
    "$pkg/bin/aicc-run" $ms/$name.bin -i $ms/$name/x.npy --expect \
      $ms/$name/expected --rtol 0 --atol "$(cat $ms/$name/atol)" | tail -n 1 |
    sed "s/^/cuda $name: /"
done
python3 test/tools/Inputs/make-qdq-model.py /tmp/qdq >/dev/null
"$pkg/bin/aicc" /tmp/qdq/model.onnx --target=cuda -o /tmp/qdq/model.bin &&
  "$pkg/bin/aicc-run" /tmp/qdq/model.bin -i /tmp/qdq/x.npy --expect \
    /tmp/qdq/expected --rtol 0 --atol 0.0201 | tail -n 1 | sed "s/^/cuda qdq: /"
# The models and their results in one file (the folders are too deep to
# come back one by one), without the bundles.
rm -f "$out"/models/*/model-*.bin
tar -C "$out" -cJf "$out/models.tar.xz" models && rm -rf "$out/models"
