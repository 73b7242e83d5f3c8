set -u
export PYTHONUNBUFFERED=1
# Grouped block order (new package) against row order (old), same call:
# the GEMM's checks and timing, then four models at batch 32.
# The old package is the new one with the old compiler binary.
for v in new old; do
  mkdir -p /tmp/$v
  tar -xJf .device/aicc-0.1.0-linux-x86_64.tar.xz -C /tmp/$v
done
xz -dc .device/old/aicc-old.xz > /tmp/old/aicc-0.1.0-linux-x86_64/libexec/aicc
chmod +x /tmp/old/aicc-0.1.0-linux-x86_64/libexec/aicc
for v in new old new old; do
  pkg=$(ls -d /tmp/$v/aicc-*-linux-x86_64)
  checks=--skip-checks; [ -f $OUT/gemm-$v.jsonl ] || checks=""
  timeout 150 python3 scripts/bench/gemm.py --aicc "$pkg/bin/aicc" --aicc-run "$pkg/bin/aicc-run" --work /tmp/g-$v $checks --runs 20 --aicc-arg=--gpu-arch=sm_90a --out $OUT/g.jsonl > $OUT/g-$v.log 2>&1
  cat $OUT/g.jsonl >> $OUT/gemm-$v.jsonl
done
for v in new old; do
  pkg=$(ls -d /tmp/$v/aicc-*-linux-x86_64)
  timeout 200 python3 scripts/bench/gpu.py --aicc "$pkg/bin/aicc" --aicc-run "$pkg/bin/aicc-run" --work /tmp/m-$v --out $OUT/models-$v.jsonl --models bert_base vit_b_16 resnet50 --batches 32 --precisions fp16 --peer-precisions fp16 --no-compile --aicc-arg=--gpu-arch=sm_90a --deadline 190 > $OUT/m-$v.log 2>&1
done
python3 - <<'PY'
import json, os
out = os.environ["OUT"]
for v in ("new", "old"):
    bad = 0
    for l in open(out + "/gemm-%s.jsonl" % v):
        r = json.loads(l)
        if "check" in r and not r["ok"]: bad += 1
        if "gemm" in r: print(v, r["gemm"], r["dtype"], "%.4f torch %.4f ratio %.3f" % (r["aicc_ms"], r["torch_ms"], r["aicc_over_cublas_tflops"]))
    print(v, "failed checks", bad)
    for l in open(out + "/models-%s.jsonl" % v):
        r = json.loads(l)
        print(v, r["model"], r["batch"], r.get("aicc_device_ms_fp16"), r.get("rel_error_fp16"))
PY
cd $OUT && tar -cf /tmp/r.tar . && rm -rf ./* && mv /tmp/r.tar $OUT/
