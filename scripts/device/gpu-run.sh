#!/bin/sh
# The stages aicc's GPU checks and benchmarks run on a machine with an
# NVIDIA GPU (see docs/gpu.md):
#
#   scripts/device/gpu-run.sh conformance|sanitize|sanitize-gemm|sanitize-models|
#       faults|models|gemm|membound|mma-stages|resident|targets|ab|runtime-ab
#       [ARGS...]
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

# Removes the compute-sanitizer logs in folder $1 that report nothing: they
# say no more than the summary, and only a few files of $OUT are kept.
drop_clean_logs() {
  grep -lE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$1"/*.log |
    xargs -r rm -f
}

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
  # The conformance set (ARGS: run.py's, e.g. --shard 0/4 to split it over
  # several runs) with every aicc-run under compute-sanitizer's memcheck and
  # racecheck (scripts/device/sanitize-run.sh); the summary counts the logs
  # that report errors.
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
  drop_clean_logs "$out/sanitizer"
  ;;
sanitize-gemm)
  # The tensor-core kernels (shared memory, barriers, ldmatrix, cp.async
  # and wgmma) through the GEMM benchmark's numeric checks, without its
  # timing (ARGS: gemm.py's, e.g. --aicc-arg=--gpu-arch=sm_90a).
  mkdir -p "$out/sanitizer-mma"
  AICC_RUN="$pkg/bin/aicc-run" AICC_SANITIZER_LOGS="$out/sanitizer-mma" \
    PYTHONUNBUFFERED=1 python3 scripts/bench/gemm.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$PWD/scripts/device/sanitize-run.sh" --work /tmp/gemm \
    --out "$out/gemm-sanitize.jsonl" --sizes "$@" 2>&1 |
    tee "$out/gemm-sanitize.log"
  python3 scripts/device/sanitizer_summary.py "$out/sanitizer-mma" |
    tee "$out/sanitizer-mma-summary.txt"
  drop_clean_logs "$out/sanitizer-mma"
  ;;
sanitize-models)
  # Whole models (ARGS: gpu.py's, e.g. --models bert_base --precisions
  # fp16) compiled by aicc and run once under memcheck and racecheck: every
  # kernel kind a real model uses (tensor cores with split K and epilogues,
  # warp reductions, fused element-wise chains) in one graph; no peers, no
  # timing. A run the sanitizer faults is recorded as an error ("run: ...").
  mkdir -p "$out/sanitizer-models"
  AICC_RUN="$pkg/bin/aicc-run" AICC_SANITIZER_LOGS="$out/sanitizer-models" \
    PYTHONUNBUFFERED=1 python3 scripts/bench/gpu.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$PWD/scripts/device/sanitize-run.sh" --work /tmp/models \
    --out "$out/models-sanitize.jsonl" --runs 1 --warmup 0 \
    --peer-precisions --no-compile "$@" 2>&1 | tee "$out/models-sanitize.log"
  python3 scripts/device/sanitizer_summary.py "$out/sanitizer-models" |
    tee "$out/sanitizer-models-summary.txt"
  drop_clean_logs "$out/sanitizer-models"
  ;;
faults)
  # Faults on the real device, with the runtime's test programs
  # (.device/tests, scripts/device/prepare.sh): a kernel that faults
  # (an illegal address) gives AICC_DEVICE_LOST on that run and every later
  # call; every host allocation of the runtime fails in turn while a CUDA
  # model loads and runs (aicc-runtime-fault-test).
  {
    set -x
    python3 test/runtime/Inputs/make-cuda-bundle.py /tmp/fault --fault \
      --ptx sm_90=test/runtime/Inputs/cuda-kernels.ptx
    python3 test/runtime/Inputs/make-cuda-bundle.py /tmp/good \
      --ptx sm_90=test/runtime/Inputs/cuda-kernels.ptx
    .device/tests/aicc-runtime-cuda-smoke-test /tmp/fault/cuda.bin --expect-lost
    echo "smoke-test --expect-lost exit $?"
    "$pkg/bin/aicc-run" /tmp/fault/cuda.bin -i /tmp/fault/x.npy
    echo "aicc-run on a faulting kernel: exit $?"
    .device/tests/aicc-runtime-cuda-smoke-test /tmp/good/cuda.bin
    echo "smoke-test exit $?"
    .device/tests/aicc-runtime-fault-test /tmp/good/cuda.bin
    echo "fault-test (hand-written bundle) exit $?"
    python3 test/tools/Inputs/make-model.py /tmp/model
    "$pkg/bin/aicc" /tmp/model/model.onnx --target=cuda -o /tmp/model/cuda.bin
    .device/tests/aicc-runtime-fault-test /tmp/model/cuda.bin
    echo "fault-test (compiled model) exit $?"
    .device/tests/aicc-runtime-stress-test /tmp/model/cuda.bin 8 40 1
    echo "stress-test exit $?"
  } 2>&1 | tee "$out/faults.log"
  ;;
models)
  PYTHONUNBUFFERED=1 python3 scripts/bench/gpu.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --work /tmp/models \
    --out "$out/models.jsonl" "$@" 2>&1 | tee "$out/models.log"
  ;;
membound)
  # Layer norm, softmax and an element-wise chain on 128 MiB f16 tensors:
  # aicc's kernels' bandwidth against the device-to-device copy's.
  PYTHONUNBUFFERED=1 python3 scripts/bench/membound.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --work /tmp/membound \
    --out "$out/membound.jsonl" "$@" 2>&1 | tee "$out/membound.log"
  ;;
gemm)
  PYTHONUNBUFFERED=1 python3 scripts/bench/gemm.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --work /tmp/gemm \
    --out "$out/gemm.jsonl" "$@" 2>&1 | tee "$out/gemm.log"
  ;;
mma-stages)
  # The sm_80 kernel (mma.sync) on this GPU: its default tiling, then each
  # tiling ARGS names (e.g. 128x128x32x3, cp.async stages), through the
  # GEMM benchmark's numeric checks and timing, one jsonl per tiling.
  for tile in default "$@"; do
    extra=""
    [ "$tile" = default ] || extra="--aicc-arg=--mma-tile=$tile"
    PYTHONUNBUFFERED=1 python3 scripts/bench/gemm.py --aicc "$pkg/bin/aicc" \
      --aicc-run "$pkg/bin/aicc-run" --work "/tmp/gemm-$tile" --runs 10 \
      --aicc-arg=--gpu-arch=sm_80 $extra --out "$out/gemm-sm80-$tile.jsonl" \
      > "$out/gemm-sm80-$tile.log" 2>&1
    echo "== $tile"; tail -12 "$out/gemm-sm80-$tile.log"
  done
  ;;
resident)
  # Resident runs (aicc_context_run_resident) and sibling fusion on the real
  # driver: the smoke test, whose resident check writes inputs into a
  # context's device buffers with the driver's own copies, runs resident
  # and requires the outputs read back to equal a copying run's, on the
  # hand-written bundle, on the sibling model (ARGS: more bundles, e.g. the
  # models stage's /tmp/models/*.bin); the sibling model's outputs on cuda
  # against float64 numpy with and without aicc-fuse-siblings, f32 and f16.
  {
    python3 test/runtime/Inputs/make-cuda-bundle.py /tmp/good \
      --ptx sm_90=test/runtime/Inputs/cuda-kernels.ptx
    python3 test/tools/Inputs/make-siblings.py /tmp/sib
    i=0
    for flags in "" "--fuse-siblings=false" "--precision=fp16" \
        "--precision=fp16 --fuse-siblings=false"; do
      i=$((i + 1))
      tol="--rtol 1e-5 --atol 1e-6"
      case $flags in *fp16*) tol="--rtol 1e-2 --atol 1e-3" ;; esac
      # shellcheck disable=SC2086
      "$pkg/bin/aicc" /tmp/sib/siblings.onnx --target=cuda \
        --gpu-arch=sm_90a $flags -o /tmp/sib/cuda-$i.bin &&
        "$pkg/bin/aicc-run" /tmp/sib/cuda-$i.bin \
          -i /tmp/sib/data/input_0.npy -i /tmp/sib/data/input_1.npy \
          --expect /tmp/sib/data $tol --profile --bench 20
      echo "siblings [$flags] exit $?"
    done
    for bundle in /tmp/good/cuda.bin /tmp/sib/cuda-1.bin "$@"; do
      .device/tests/aicc-runtime-cuda-smoke-test "$bundle" --runs 5
      echo "smoke-test $bundle exit $?"
    done
  } 2>&1 | tee "$out/resident.log"
  ;;
ab)
  # This package's aicc against an older one on the same machine: the libexec
  # binary of an earlier package, xz-compressed, as .device/aicc-old.xz
  # (with this package's libraries and aicc-run). The models ARGS names
  # (gpu.py's, e.g. --models gpt2 --batches 1) in fp16, compiled and timed
  # by each, run new, old, new; PyTorch only as the fp32 reference. The
  # summary gives each one's device medians and new / old.
  if [ ! -f .device/aicc-old.xz ]; then
    echo "ab: no .device/aicc-old.xz (carry it)" >&2
    exit 2
  fi
  xz -dc .device/aicc-old.xz >"$pkg/libexec/aicc-old" || exit 2
  sed 's|libexec/aicc"|libexec/aicc-old"|' "$pkg/bin/aicc" >"$pkg/bin/aicc-old"
  chmod +x "$pkg/libexec/aicc-old" "$pkg/bin/aicc-old"
  for run in new old new2; do
    aicc="$pkg/bin/aicc"
    [ "$run" = old ] && aicc="$pkg/bin/aicc-old"
    PYTHONUNBUFFERED=1 python3 scripts/bench/gpu.py --aicc "$aicc" \
      --aicc-run "$pkg/bin/aicc-run" --work "/tmp/ab-$run" --no-compile \
      --precisions fp16 --peer-precisions fp32 --aicc-arg=--gpu-arch=sm_90a \
      --out "$out/ab-$run.jsonl" "$@" >"$out/ab-$run.log" 2>&1
  done
  python3 scripts/bench/ab_summary.py "$out/ab-new.jsonl" "$out/ab-old.jsonl" \
    "$out/ab-new2.jsonl" | tee "$out/ab.md"
  ;;
runtime-ab)
  # This package's runtime against an older one's on the same bundles: the
  # aicc-run (which links the runtime) of an earlier package, xz-compressed,
  # as .device/aicc-run-old.xz. ARGS: runtime_ab.py's (e.g. --models
  # resnet50 --batches 1).
  if [ ! -f .device/aicc-run-old.xz ]; then
    echo "runtime-ab: no .device/aicc-run-old.xz (carry it)" >&2
    exit 2
  fi
  xz -dc .device/aicc-run-old.xz >"$pkg/libexec/aicc-run-old" || exit 2
  sed 's|libexec/aicc-run"|libexec/aicc-run-old"|' "$pkg/bin/aicc-run" \
    >"$pkg/bin/aicc-run-old"
  chmod +x "$pkg/libexec/aicc-run-old" "$pkg/bin/aicc-run-old"
  PYTHONUNBUFFERED=1 python3 scripts/bench/runtime_ab.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --old-aicc-run "$pkg/bin/aicc-run-old" \
    --work /tmp/runtime-ab --out "$out/runtime-ab.jsonl" "$@" 2>&1 |
    tee "$out/runtime-ab.md"
  ;;
targets)
  # The performance targets side by side in one run: the GEMM (sm_90a)
  # against cuBLAS, the memory-bound kernels against the copy bandwidth and
  # the five models in fp16 at batch 32 and 1 against PyTorch's half model
  # (ARGS: more of gpu.py's, e.g. --deadline), then the report
  # (scripts/bench/targets_report.py; its --write puts it into
  # docs/benchmarks.md).
  PYTHONUNBUFFERED=1 python3 scripts/bench/gemm.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --work /tmp/gemm --runs 20 \
    --aicc-arg=--gpu-arch=sm_90a --out "$out/gemm.jsonl" > "$out/gemm.log" 2>&1
  PYTHONUNBUFFERED=1 python3 scripts/bench/membound.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --work /tmp/membound \
    --out "$out/membound.jsonl" > "$out/membound.log" 2>&1
  PYTHONUNBUFFERED=1 python3 scripts/bench/gpu.py --aicc "$pkg/bin/aicc" \
    --aicc-run "$pkg/bin/aicc-run" --work /tmp/models \
    --models bert_base gpt2 vit_b_16 resnet50 mobilenet_v2 --batches 32 1 \
    --precisions fp16 --peer-precisions fp16 --aicc-arg=--gpu-arch=sm_90a \
    --out "$out/models.jsonl" "$@" > "$out/models.log" 2>&1
  python3 scripts/bench/targets_report.py --models "$out/models.jsonl" \
    --gemm "$out/gemm.jsonl" --membound "$out/membound.jsonl" |
    tee "$out/targets.md"
  ;;
esac
