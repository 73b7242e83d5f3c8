#!/usr/bin/env bash
# Builds aicc's libFuzzer targets (clang 22, ASan + UBSan) into build-fuzz/
# and runs each for a while on a corpus seeded from the ONNX conformance
# models and from bundles the regular build compiles:
#
#   scripts/fuzz.sh [--seconds N] [--jobs J] [--keep-going] [TARGET ...]
#
# TARGETs: bundle, onnx-import, compile, external-data, calibration-table
# (default: all).
# --seconds: per target (default 60). --jobs: parallel libFuzzer workers per
# target (default 1). --keep-going: libFuzzer's fork mode, which records a
# crash, a timeout or an out-of-memory and goes on fuzzing. The corpus grows in fuzz/corpus/TARGET (ignored by
# git) across runs; findings land in fuzz/findings/TARGET/ and end the run
# with exit status 1; once fixed, a finding belongs in
# test/fuzz/regressions/ (bundle/ or onnx/), which every run replays. The
# last lines are each target's libFuzzer
# statistics: executions, coverage (cov: edges) and features.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
jobs=1
keep_going=0
targets=()
while [ $# -gt 0 ]; do
  case $1 in
  --seconds) seconds=$2; shift 2 ;;
  --jobs) jobs=$2; shift 2 ;;
  --keep-going) keep_going=1; shift ;;
  -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
  *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(bundle onnx-import compile external-data
  calibration-table)

scripts/install-deps.sh >/dev/null
if [ ! -f build-fuzz/build.ninja ]; then
  cmake -S . -B build-fuzz -G Ninja -DAICC_FUZZ=ON \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C build-fuzz "${targets[@]/#/aicc-fuzz-}"

# Seeds: small conformance models; bundles compiled from some of them by the
# regular build (scripts/build.sh).
testdata=${AICC_ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
seeds=fuzz/seeds
if [ ! -d "$seeds/calibration-table" ]; then
  # Tables as --calibration-table reads them: one per method, one empty.
  mkdir -p "$seeds/calibration-table"
  for method in minmax entropy percentile; do
    printf '{"format": "aicc-calibration", "version": 1, "method": "%s", "samples": 4, "tensors": {"x": {"min": -2.5, "max": 3.25, "threshold": 3.0}, "/layer/Relu_output_0": {"min": 0, "max": 6.1, "threshold": 6.1}}}\n' \
      "$method" >"$seeds/calibration-table/$method.json"
  done
  printf '{"format": "aicc-calibration", "version": 1, "method": "minmax", "samples": 0, "tensors": {}}\n' \
    >"$seeds/calibration-table/empty.json"
fi
if [ ! -d "$seeds/onnx" ]; then
  mkdir -p "$seeds/onnx" "$seeds/bundle" "$seeds/external-data"
  for model in "$testdata"/node/*/model.onnx; do
    name=$(basename "$(dirname "$model")")
    cp "$model" "$seeds/onnx/$name.onnx"
  done
  scripts/build.sh aicc >/dev/null
  for name in test_add test_relu test_matmul_2d test_conv_with_strides_padding \
    test_softmax_axis_1 test_gemm_default_no_bias test_reduce_sum_keepdims_example; do
    model=$testdata/node/$name/model.onnx
    [ -f "$model" ] || continue
    for target in cpu cuda rocm; do
      build/bin/aicc "$model" --target=$target -o "$seeds/bundle/$name-$target.bin" \
        --progress=never 2>/dev/null || true
    done
  done
  /usr/bin/python3 - "$seeds/external-data" <<'PY'
import sys, onnx
from onnx import helper, TensorProto
# Models whose one initializer lives in each file of the harness's folder.
for i, (location, offset, length) in enumerate([
        ("data.bin", 0, 16), ("data.bin", 64, 16), ("sub/inner.bin", 0, 16),
        ("out-link", 0, 16), ("hard", 0, 16), ("fifo", 0, 16)]):
    t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4],
                    data_location=TensorProto.EXTERNAL)
    for key, value in (("location", location), ("offset", offset),
                       ("length", length)):
        e = t.external_data.add(); e.key, e.value = key, str(value)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])
    g = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"])], "g",
                          [x], [y], [t])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, f"{sys.argv[1]}/{i}.onnx")
PY
fi

status=0
summary=()
for target in "${targets[@]}"; do
  # Every input that once failed (test/fuzz/regressions) runs first.
  case $target in
  bundle) seed=$seeds/bundle regressions=test/fuzz/regressions/bundle ;;
  external-data) seed=$seeds/external-data regressions=test/fuzz/regressions/onnx ;;
  # (Corrupted tables are also replayed by test/tools/aicc/quantize-ptq.test.)
  calibration-table) seed=$seeds/calibration-table regressions=$seed ;;
  *) seed=$seeds/onnx regressions=test/fuzz/regressions/onnx ;;
  esac
  corpus=fuzz/corpus/$target
  findings=fuzz/findings/$target
  mkdir -p "$corpus" "$findings"
  log=fuzz/$target.log
  echo "fuzz: $target for ${seconds}s ($jobs worker(s)), log $log"
  # More than one job: libFuzzer's workers, each with its own log
  # (fuzz-N.log in the current folder); one: in this process, logged here.
  parallel=()
  [ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
  [ "$keep_going" -eq 1 ] && parallel=(-fork="$jobs" -ignore_crashes=1
    -ignore_timeouts=1 -ignore_ooms=1)
  set +e
  # The CPU time the fuzzer used (user and system, children included) ends
  # the log.
  TIMEFORMAT='cpu: %U s user, %S s system, %R s wall'
  { time build-fuzz/bin/aicc-fuzz-$target "$corpus" "$seed" "$regressions" \
    -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
    -max_len=1048576 -print_final_stats=1 -artifact_prefix="$findings/" \
    "${parallel[@]}" >"$log" 2>&1; } 2>>"$log"
  rc=$?
  set -e
  # Fork mode prints no stat:: lines: its last status line gives the
  # executions ("#N:"). A grep that finds nothing must not end the script.
  stats=$(grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$log" |
    tr '\n' ' ' || true)
  [ -n "$stats" ] || stats="executions $(grep -oE "^#[0-9]+" "$log" |
    tail -1 | tr -d '#' || true)"
  cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1 || true)
  cpu=$(grep -E "^cpu: " "$log" | tail -1 || true)
  found=$(find "$findings" -type f | wc -l)
  summary+=("$target: rc $rc, $cov, $stats findings $found, $cpu")
  [ "$rc" -eq 0 ] && [ "$found" -eq 0 ] || status=1
done
printf '%s\n' "${summary[@]}"
exit $status
