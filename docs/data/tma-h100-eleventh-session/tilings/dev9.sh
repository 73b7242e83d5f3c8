set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/aicc && tar -xJf .device/aicc-0.1.0-linux-x86_64.tar.xz -C /tmp/aicc
pkg=$(ls -d /tmp/aicc/aicc-*-linux-x86_64)
for t in default 128x128x64x3 128x128x64x4 128x256x64x3 128x192x64x4 128x192x64x3; do
  extra=""; [ "$t" = default ] || extra="--aicc-arg=--mma-tile=$t"
  timeout 100 python3 scripts/bench/gemm.py --aicc "$pkg/bin/aicc" --aicc-run "$pkg/bin/aicc-run" --work /tmp/g-$t --skip-checks --runs 20 --dtypes f16 bf16 --sizes 4096 8192 --aicc-arg=--gpu-arch=sm_90a $extra --out $OUT/g-$t.jsonl > $OUT/g-$t.log 2>&1
done
python3 - <<'PY'
import json, glob, os
out = os.environ["OUT"]
for f in sorted(glob.glob(out + "/g-*.jsonl")):
    t = f.split("/g-")[1][:-6]
    for l in open(f):
        r = json.loads(l)
        if "gemm" in r:
            print(t, r["gemm"], r["dtype"], "aicc %.4f torch %.4f ratio %.3f" % (r["aicc_ms"], r["torch_ms"], r["aicc_over_cublas_tflops"]))
PY
