#!/bin/sh
# On a machine with an NVIDIA GPU, python onnxruntime and torch: the
# quantization checks for the cuda target, with aicc from the package in
# .device/. Results go to $OUT.
#
#   1. models quantized by ONNX Runtime's tools (make_ort_models.py), each
#      compiled for cuda and compared with ONNX Runtime, computed in float
#      (the default) and on the integers (--integer-quant);
#   2. the com.microsoft operator models, the float8 casts and the QDQ and
#      post-training-quantization test models of test/tools/Inputs;
#   3. latency of float, int8-in-float and int8-on-integers bundles
#      (aicc-run --bench) for the benchmark models of make_bench_models.py.
#
# Calibration compiles for the CPU, which needs ld.lld; the package has
# none, so the calibration tables come from the development machine in
# .device/quant-tables/ (TEST-OR-MODEL.json, for the same seeded models).
set -u
out=${OUT:-$PWD/quant-out}
mkdir -p "$out" /tmp/aicc
tar -C /tmp/aicc -xJf .device/aicc-*-linux-x86_64.tar.xz
pkg=$(ls -d /tmp/aicc/aicc-*-linux-x86_64)
aicc=$pkg/bin/aicc
run=$pkg/bin/aicc-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import onnxruntime, torch; print('onnxruntime', onnxruntime.__version__, 'torch', torch.__version__)"
"$aicc" --version

echo "== ONNX Runtime's quantized models"
python3 scripts/quant/make_ort_models.py "$out/models" > "$out/make.log" 2>&1
grep -E "FAILED" "$out/make.log"
python3 scripts/quant/check_models.py "$out/models" --target cuda \
  --aicc "$aicc" --aicc-run "$run" --json "$out/cuda.json" | tail -n 30
python3 scripts/quant/check_models.py "$out/models" --target cuda \
  --aicc "$aicc" --aicc-run "$run" --json "$out/cuda-integer.json" \
  --integer-quant | tail -n 1 | sed 's/^/--integer-quant: /'
rm -f "$out"/models/*/model-*.bin
rm -rf "$out"/models/*/aicc-*
tar -C "$out" -cJf "$out/models.tar.xz" models && rm -rf "$out/models"

echo "== test models on cuda"
t=/tmp/quant-tests
mkdir -p $t
expect() { # NAME MODEL X EXPECTED ATOL [AICC FLAGS]
  name=$1 model=$2 x=$3 expected=$4 atol=$5
  shift 5
  "$aicc" "$model" --target=cuda "$@" -o $t/$name.bin 2>$t/$name.err &&
    "$run" $t/$name.bin -i "$x" --expect "$expected" --rtol 0 \
      --atol "$atol" | tail -n 1 | sed "s/^/$name: /" ||
    echo "$name: FAILED $(head -c 300 $t/$name.err)"
}
for name in $(python3 test/tools/Inputs/make-ms-quant-models.py $t/ms); do
  expect "ms-$name" $t/ms/$name/model.onnx $t/ms/$name/x.npy \
    $t/ms/$name/expected "$(cat $t/ms/$name/atol)"
done
for name in $(python3 test/tools/Inputs/make-float8-casts.py $t/f8); do
  if [ "$name" = weight ]; then atol=1e-4; else atol=0; fi
  expect "float8-$name" $t/f8/$name/model.onnx $t/f8/$name/x.npy \
    $t/f8/$name/expected $atol
done
python3 test/tools/Inputs/make-qdq-model.py $t/qdq >/dev/null
expect qdq $t/qdq/model.onnx $t/qdq/x.npy $t/qdq/expected 0.0201
expect qdq-integer $t/qdq/model.onnx $t/qdq/x.npy $t/qdq/expected 0.0201 \
  --integer-quant
python3 test/tools/Inputs/make-qdq-matmul.py $t/qmm >/dev/null
expect qdq-matmul-integer $t/qmm/model.onnx $t/qmm/x.npy $t/qmm/expected \
  1e-5 --integer-quant
python3 test/tools/Inputs/make-ptq-model.py $t/ptq
tables=$PWD/.device/quant-tables
expect ptq-int8 $t/ptq/model.onnx $t/ptq/x.npy $t/ptq/expected 0.026 \
  --quantize=int8 --per-channel --calibration-table=$tables/ptq.json
expect ptq-fp8 $t/ptq/model.onnx $t/ptq/x.npy $t/ptq/expected 0.2 \
  --quantize=fp8 --calibration-table=$tables/ptq.json
# The same on the tensor cores' 8-bit products (wgmma, sm_90a).
expect ptq-int8-wgmma $t/ptq/model.onnx $t/ptq/x.npy $t/ptq/expected 0.026 \
  --quantize=int8 --per-channel --calibration-table=$tables/ptq.json \
  --integer-quant --gpu-arch=sm_90a
expect ptq-fp8-wgmma $t/ptq/model.onnx $t/ptq/x.npy $t/ptq/expected 0.2 \
  --quantize=fp8 --calibration-table=$tables/ptq.json --integer-quant \
  --gpu-arch=sm_90a
expect ptq-int4 $t/ptq/model.onnx $t/ptq/x.npy $t/ptq/expected 0.3 \
  --quantize=int4-weight --quantize-block-size=32

echo "== latency on cuda (aicc-run --bench 100, median ms)"
b=/tmp/quant-bench
python3 scripts/quant/make_bench_models.py $b > /dev/null 2>&1
for name in mlp cnn; do
  d=$b/$name
  table=$tables/$name.json
  for config in "float" "int8-float --quantize=int8 --per-channel --calibration-table=$table" \
      "int8-integer --quantize=int8 --per-channel --calibration-table=$table --integer-quant"; do
    label=${config%% *}
    flags=${config#"$label"}
    for precision in fp32 fp16; do
      "$aicc" $d/model.onnx --target=cuda --gpu-arch=sm_90a \
        --precision=$precision $flags -o $d/$label-$precision.bin \
        2>$d/err.txt || { echo "$name $label $precision: FAILED $(head -c 200 $d/err.txt)"; continue; }
      ms=$("$run" $d/$label-$precision.bin -i $d/x.npy --bench 100 \
        --warmup 10 | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' | head -n 1)
      echo "$name $label $precision $ms"
    done
  done
done | tee "$out/latency.txt"
