#!/usr/bin/env python3
"""aicc on an NVIDIA GPU beside PyTorch, measured in one run.

For each model (torchvision ResNet-50, MobileNetV2, ViT-B/16; transformers
BERT-base and GPT-2 at sequence 128; random weights, seed 0) and batch size:
export it to ONNX with PyTorch, compile it with `aicc --target=cuda` at each
of --precisions (fp32 and fp16 by default; PyTorch stays fp32), run it
with aicc-run on a random input and compare with PyTorch's fp32 output
(TF32 off) by ||aicc - torch|| / ||torch||; then time aicc (`aicc-run
--bench`, CUDA graph replays, the host-device copies of inputs and outputs
included; and its device time, the kernels alone between CUDA events, as
aicc_device_ms with the ratio aicc_device_over_compile_half: PyTorch's
timings start with the input on the device and end with the output there),
PyTorch eager and `torch.compile(mode="reduce-overhead")` with
CUDA events, and report medians and ratios. With --peer-precisions
including fp16 (the default), PyTorch's peers are also timed on a half
copy of the model (`model.half()`, float inputs halved: keys eager_ms_half,
compile_ms_half, and aicc_over_compile_half for aicc's fp16 against it,
the comparison docs/benchmarks.md reports), and the half model's own error is
recorded as torch_half_rel_error.

The weights of grouped convolutions (MobileNetV2's depthwise filters) are
drawn with He's initialization counting one group's fan-out: torchvision's
counts every output channel, which shrinks each depthwise layer's output by
the square root of its channel count, until the activations fall below
fp16's range and PyTorch's own half model is as far from the fp32 output
as any other (relative error 1.0). --torchvision-init keeps torchvision's
weights.

Each result is appended to --out as one JSON line as soon as it is known,
so that a run stopped by a time limit keeps what it measured.

    python3 scripts/bench/gpu.py --aicc PKG/bin/aicc --aicc-run PKG/bin/aicc-run
        --work /tmp/w --out results.jsonl [--batches 1 32] [--models ...]
        [--peer-precisions fp32 fp16] [--deadline SECONDS] [--profile FILE]
        [--autotune-cache FILE]
"""
import copy
import json
import os
import subprocess
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

SEQ = 128


def build(name):
    """The model in eval mode and a function making its input."""
    if name in ("resnet50", "mobilenet_v2", "vit_b_16"):
        import torchvision
        model = getattr(torchvision.models, name)(weights=None)
        if name == "vit_b_16":
            # torchvision starts ViT's head at zero, which would make every
            # output 0 and the comparison meaningless.
            torch.nn.init.normal_(model.heads.head.weight, std=0.02)
        return model, lambda b: torch.randn(b, 3, 224, 224)
    import transformers
    if name == "bert_base":
        config = transformers.BertConfig(attn_implementation="eager")
        inner = transformers.BertModel(config, add_pooling_layer=False)
    else:
        config = transformers.GPT2Config(attn_implementation="eager")
        inner = transformers.GPT2Model(config)

    class LastHidden(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, ids):
            if name == "gpt2":
                # An explicit all-ones mask: without one, transformers looks
                # for packed sequences with aten::diff, which the ONNX
                # exporter cannot write.
                return self.inner(input_ids=ids,
                                  attention_mask=torch.ones_like(ids),
                                  use_cache=False).last_hidden_state
            return self.inner(input_ids=ids).last_hidden_state

    return LastHidden(inner), lambda b: torch.randint(0, 1000, (b, SEQ))


def init_grouped_convolutions(model):
    """Re-draws the weights of every grouped convolution with He's
    initialization counting the fan-out of one group (out_channels / groups
    x kernel area), as the initialization means to; torchvision's
    kaiming_normal_ counts every output channel instead, 32 to 960 times too
    many for MobileNetV2's depthwise filters. True if the model has any."""
    grouped = [m for m in model.modules()
               if isinstance(m, torch.nn.Conv2d) and m.groups > 1]
    for m in grouped:
        fan_out = (m.out_channels // m.groups * m.kernel_size[0] *
                   m.kernel_size[1])
        with torch.no_grad():
            m.weight.normal_(0.0, (2.0 / fan_out) ** 0.5)
    return bool(grouped)


def export(model, x, path):
    kwargs = dict(input_names=["x"], output_names=["y"], opset_version=17,
                  dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
    try:
        torch.onnx.export(model, (x,), path, dynamo=False, **kwargs)
    except TypeError:
        torch.onnx.export(model, (x,), path, **kwargs)


def time_torch(fn, x, runs):
    for _ in range(5):
        fn(x)
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn(x)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return float(np.median(times))


def measure_aicc(args, name, batch, precision, onnx_path, x, npy, ref,
                 record, extra=(), tag=""):
    """Compiles and runs the model with aicc at `precision` (and the
    arguments `extra`), adding its compile time, error against `ref` and
    median latency to `record` (keys suffixed with _fp16 / _bf16 for half
    precisions, then `tag`)."""
    suffix = ("" if precision == "fp32" else "_" + precision) + tag
    bundle = os.path.join(args.work, f"{name}_{batch}_{precision}{tag}.bin")
    t0 = time.monotonic()
    proc = subprocess.run(
        [args.aicc, onnx_path, "--target=cuda", "-o", bundle,
         f"--precision={precision}",
         f"--input-shape=x={'x'.join(str(d) for d in x.shape)}",
         "--progress=never", *args.aicc_arg, *extra],
        capture_output=True, text=True)
    record["aicc_compile_s" + suffix] = round(time.monotonic() - t0, 1)
    if proc.returncode != 0:
        record["error" + suffix] = "compile: " + proc.stderr.strip()[-300:]
        return
    # --autotune's lines: what it measured, per contraction shape.
    tuned = [line for line in proc.stderr.splitlines()
             if line.startswith("aicc: autotune")]
    if tuned:
        record["autotune" + suffix] = tuned
    outdir = os.path.join(args.work, f"out_{name}_{batch}_{precision}{tag}")
    proc = subprocess.run(
        [args.aicc_run, bundle, "-i", npy, "--output-dir", outdir,
         "--bench", str(args.runs), "--warmup", str(args.warmup), "--json"],
        capture_output=True, text=True)
    if proc.returncode != 0:
        record["error" + suffix] = "run: " + proc.stderr.strip()[-300:]
        return
    got = np.load(os.path.join(outdir, sorted(os.listdir(outdir))[0]))
    record["rel_error" + suffix] = float(
        np.linalg.norm(got.astype(np.float64) - ref) / np.linalg.norm(ref))
    bench = json.loads(proc.stdout.strip().splitlines()[-1])
    record["aicc_ms" + suffix] = bench["median_ms"]
    if "device_median_ms" in bench:
        record["aicc_device_ms" + suffix] = bench["device_median_ms"]
    # Whole runs on inputs and outputs left in device memory
    # (aicc_context_run_resident), on the host's clock: the latency of an
    # application whose data lives on the GPU, launch and wait included.
    if "resident_median_ms" in bench:
        record["aicc_resident_ms" + suffix] = bench["resident_median_ms"]
    if args.profile:
        proc = subprocess.run(
            [args.aicc_run, bundle, "-i", npy, "--bench", "20",
             "--warmup", "5", "--profile"], capture_output=True, text=True)
        with open(args.profile, "a") as f:
            f.write(f"== {name} batch {batch} {precision}{tag}\n")
            f.write(proc.stdout if proc.returncode == 0 else proc.stderr)


def main():
    parser = benchlib.parser(__doc__)
    parser.add_argument("--models", nargs="*", default=[
        "resnet50", "mobilenet_v2", "vit_b_16", "bert_base", "gpt2"])
    parser.add_argument("--batches", nargs="*", type=int, default=[1, 32])
    parser.add_argument("--precisions", nargs="*", default=["fp32", "fp16"],
                        help="aicc --precision values to compile each "
                             "model with (PyTorch runs fp32)")
    parser.add_argument("--peer-precisions", nargs="*",
                        default=["fp32", "fp16"],
                        help="PyTorch peers to time: fp32 (the reference "
                             "model) and fp16 (a half copy)")
    parser.add_argument("--aicc-arg", action="append", default=[],
                        help="an extra aicc argument for every compile "
                             "(e.g. --aicc-arg=--gpu-arch=sm_90a)")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5,
                        help="aicc-run --warmup before the timed runs")
    parser.add_argument("--no-compile", action="store_true",
                        help="skip torch.compile")
    parser.add_argument("--profile", metavar="FILE",
                        help="append aicc-run --profile's per-kernel table "
                             "of every aicc run to FILE")
    parser.add_argument("--torchvision-init", action="store_true",
                        help="keep torchvision's initialization of grouped "
                             "convolutions")
    parser.add_argument("--autotune-cache", metavar="FILE",
                        help="also compile each model with aicc --autotune "
                             "(its tilings cached in FILE) and record that "
                             "build's results with the suffix _tuned")
    parser.add_argument("--deadline", type=float, default=1e9,
                        help="stop starting new work after this many s")
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    os.makedirs(args.work, exist_ok=True)
    start = time.monotonic()

    emit = benchlib.emitter(
        args.out, {"aicc_args": args.aicc_arg} if args.aicc_arg else None)
    for name in args.models:
        torch.manual_seed(0)
        model, make_input = build(name)
        regrouped = (not args.torchvision_init and
                     init_grouped_convolutions(model))
        model = model.eval()
        onnx_path = os.path.join(args.work, name + ".onnx")
        export(model, make_input(1), onnx_path)
        gpu_model = model.cuda()
        half_model = (copy.deepcopy(gpu_model).half()
                      if "fp16" in args.peer_precisions else None)
        compiled = compiled_half = None
        for batch in args.batches:
            if time.monotonic() - start > args.deadline:
                emit({"model": name, "batch": batch, "skipped": "deadline"})
                continue
            record = {"model": name, "batch": batch}
            if regrouped:
                record["init"] = "he-per-group"
            x = make_input(batch)
            npy = os.path.join(args.work, f"{name}_{batch}.npy")
            np.save(npy, x.numpy())
            with torch.no_grad():
                ref = gpu_model(x.cuda()).float().cpu().numpy()
            for precision in args.precisions:
                measure_aicc(args, name, batch, precision, onnx_path, x, npy,
                             ref, record)
                if args.autotune_cache:
                    measure_aicc(args, name, batch, precision, onnx_path, x,
                                 npy, ref, record,
                                 ["--autotune", "--autotune-cache=" +
                                  args.autotune_cache], "_tuned")
            if not any(k.startswith("aicc_ms") for k in record):
                emit(record)
                continue
            xg = x.cuda()
            if half_model is not None:
                xh = xg.half() if xg.is_floating_point() else xg
                with torch.no_grad():
                    got = half_model(xh).double().cpu().numpy()
                record["torch_half_rel_error"] = float(
                    np.linalg.norm(got - ref) / np.linalg.norm(ref))
            with torch.no_grad():
                if "fp32" in args.peer_precisions:
                    record["eager_ms"] = time_torch(gpu_model, xg, args.runs)
                    if not args.no_compile and \
                            time.monotonic() - start < args.deadline:
                        if compiled is None:
                            compiled = torch.compile(gpu_model,
                                                     mode="reduce-overhead")
                        record["compile_ms"] = time_torch(compiled, xg,
                                                          args.runs)
                if half_model is not None:
                    record["eager_ms_half"] = time_torch(half_model, xh,
                                                         args.runs)
                    if not args.no_compile and \
                            time.monotonic() - start < args.deadline:
                        if compiled_half is None:
                            compiled_half = torch.compile(
                                half_model, mode="reduce-overhead")
                        record["compile_ms_half"] = time_torch(
                            compiled_half, xh, args.runs)
            for key in [k for k in record if k.startswith("aicc_ms")]:
                suffix = key[len("aicc_ms"):]
                if "eager_ms" in record:
                    record["aicc_over_eager" + suffix] = (record[key] /
                                                          record["eager_ms"])
                if "compile_ms" in record:
                    record["aicc_over_compile" + suffix] = (
                        record[key] / record["compile_ms"])
            if "aicc_ms_fp16" in record and "compile_ms_half" in record:
                record["aicc_over_compile_half"] = (
                    record["aicc_ms_fp16"] / record["compile_ms_half"])
            # With the data on the device, as PyTorch's timings have it.
            # Resident runs: inputs and outputs left in device memory.
            for tag in ("", "_tuned"):
                for kind in ("device", "resident"):
                    key = f"aicc_{kind}_ms_fp16{tag}"
                    if key in record and "compile_ms_half" in record:
                        record[f"aicc_{kind}_over_compile_half{tag}"] = (
                            record[key] / record["compile_ms_half"])
            emit(record)
        del gpu_model, half_model, compiled, compiled_half
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
