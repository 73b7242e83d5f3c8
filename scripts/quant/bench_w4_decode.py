#!/usr/bin/python3
"""One decoding step (batch 1, one token) of a GPT-2 decoder on an NVIDIA
GPU: aicc fp16 against aicc with 4-bit weights (W4A16).

The model is transformers' GPT2LMHeadModel at GPT-2 small's shape (12
layers, hidden 768, 50257 tokens; seeded random weights: nothing is
downloaded), exported to ONNX for one token without a key/value cache, so
that every matrix product has one row: the shape of a decoding step's
products. Two bundles for --gpu-arch=sm_90a --precision=fp16: the float
model, and `--quantize=int4-weight` (MatMul and Gemm weights as 4-bit
values in groups of --block-size along k, which aicc keeps packed and
dequantizes in registers). Each is checked against ONNX Runtime's float32
run of the exported model (relative error of the whole output, and
whether the most likely token agrees; the exported graph is what aicc
compiles, and PyTorch's eager logits differ from it) and timed: the sum of its
kernels' medians (`aicc-run --profile`, device time) and the median of
whole runs (`aicc-run --bench`, host copies included); PyTorch's eager
fp16 step is timed in the same run for reference. One JSON line per
bundle goes to --out.

    python3 scripts/quant/bench_w4_decode.py --aicc PKG/bin/aicc
        --aicc-run PKG/bin/aicc-run --work /tmp/w4dec --out w4dec.jsonl
"""
import json
import os
import sys

import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "bench"))
import benchlib  # noqa: E402
from aicc_runs import (bench_median, compile_bundle, profile_json,  # noqa: E402
                       rel_error, run_output)
from gpu import time_torch  # noqa: E402


def build(layers):
    from transformers import GPT2Config, GPT2LMHeadModel
    torch.manual_seed(0)
    config = GPT2Config(n_layer=layers, use_cache=False,
                        attn_implementation="eager")
    model = GPT2LMHeadModel(config).eval()
    return model


class Logits(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        # An explicit all-ones mask: without one, transformers looks for
        # packed sequences with aten::diff, which the ONNX exporter cannot
        # write.
        return self.model(input_ids=input_ids,
                          attention_mask=torch.ones_like(input_ids),
                          use_cache=False).logits


def main():
    parser = benchlib.parser(__doc__)
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--block-size", type=int, default=128)
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    emit = benchlib.emitter(args.out)
    model = Logits(build(args.layers))
    ids = torch.tensor([[464]], dtype=torch.int64)
    path = os.path.join(args.work, "gpt2.onnx")
    torch.onnx.export(model, (ids,), path, input_names=["input_ids"],
                      output_names=["logits"], opset_version=17,
                      dynamo=False)
    import onnxruntime
    session = onnxruntime.InferenceSession(
        path, providers=["CPUExecutionProvider"])
    ref = session.run(None, {"input_ids": ids.numpy()})[0].astype(np.float64)
    xfile = os.path.join(args.work, "ids.npy")
    np.save(xfile, ids.numpy())

    half = model.half().cuda()
    tids = ids.cuda()
    with torch.no_grad():
        eager_ms = time_torch(lambda _: half(tids), None, args.runs)

    for label, extra in [("fp16", []),
                         ("int4-weight", ["--quantize=int4-weight",
                                          f"--quantize-block-size="
                                          f"{args.block_size}"])]:
        record = {"model": f"gpt2-{args.layers}l-step", "bundle": label,
                  "torch_eager_fp16_ms": eager_ms}
        bundle = os.path.join(args.work, f"gpt2-{label}.bin")
        error = compile_bundle(args, path, bundle, extra)
        if error:
            record["error"] = error
            emit(record)
            continue
        record["bundle_bytes"] = os.path.getsize(bundle)
        got = run_output(args, bundle, xfile,
                         os.path.join(args.work, f"out-{label}"))
        if got is not None:
            record["rel_error_vs_ort_fp32"] = rel_error(got, ref)
            record["argmax_agrees"] = bool(
                int(got.reshape(-1).argmax()) == int(ref.reshape(-1).argmax()))
        median, _ = bench_median(args, bundle, xfile, args.runs)
        if median is not None:
            record["median_ms"] = median
        profile = profile_json(args, bundle, xfile, 50)
        try:
            line = json.loads(profile.strip().splitlines()[-1])
            kernels = line["kernels"]
            record["device_ms"] = sum(k["median_ms"] for k in kernels)
            record["kernels"] = len(kernels)
            record["top_kernels"] = sorted(
                ({"kernel": k["kernel"], "median_ms": k["median_ms"],
                  "source": k["source"][:80]} for k in kernels),
                key=lambda k: -k["median_ms"])[:6]
        except (IndexError, KeyError, ValueError) as e:
            record["profile_error"] = str(e)[:200]
        emit(record)


if __name__ == "__main__":
    main()
