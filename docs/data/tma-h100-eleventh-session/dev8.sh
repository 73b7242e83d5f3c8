set -u
export PYTHONUNBUFFERED=1
# TMA (default on sm_90a) against cp.async: the GEMM's numeric checks and
# timing, then BERT-base and ResNet-50 at batch 32 (fp16, no torch.compile).
timeout 200 sh scripts/device/gpu-run.sh gemm --runs 20 --aicc-arg=--gpu-arch=sm_90a > $OUT/gemm-tma.out 2>&1
mv $OUT/gemm.jsonl $OUT/gemm-tma.jsonl; mv $OUT/gemm.log $OUT/gemm-tma.log
timeout 120 sh scripts/device/gpu-run.sh gemm --runs 20 --skip-checks --aicc-arg=--gpu-arch=sm_90a --aicc-arg=--tma=false > $OUT/gemm-notma.out 2>&1
mv $OUT/gemm.jsonl $OUT/gemm-notma.jsonl; mv $OUT/gemm.log $OUT/gemm-notma.log
for t in true false; do
  timeout 110 sh scripts/device/gpu-run.sh models --models bert_base resnet50 --batches 32 --precisions fp16 --peer-precisions fp16 --no-compile --aicc-arg=--gpu-arch=sm_90a --aicc-arg=--tma=$t --deadline 100 > $OUT/models-tma-$t.out 2>&1
  mv $OUT/models.jsonl $OUT/models-tma-$t.jsonl; mv $OUT/models.log $OUT/models-tma-$t.log
done
python3 - <<'PY'
import json, os
out = os.environ["OUT"]
for f in ("gemm-tma.jsonl", "gemm-notma.jsonl", "models-tma-true.jsonl", "models-tma-false.jsonl"):
    try:
        lines = open(out + "/" + f).read().splitlines()
    except OSError as e:
        print(f, e); continue
    for l in lines:
        r = json.loads(l)
        print(f, {k: v for k, v in r.items() if not isinstance(v, (list, dict))})
PY
tail -5 $OUT/gemm-tma.log
