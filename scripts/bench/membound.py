#!/usr/bin/env python3
"""aicc's memory-bound kernels on an NVIDIA GPU against the copy bandwidth.

The target: fused memory-bound ops (layer norm, softmax, an
element-wise chain) on tensors well past the L2 cache reach at least 80%
of the device-to-device copy bandwidth measured in the same run.

For each case, an f16 ONNX model (one input, one output, --rows x --cols
elements: 16384 x 4096 by default, 128 MiB each way) is compiled with
`aicc --target=cuda`, run once and compared with PyTorch's float32 result
on the same input (||aicc - ref|| / ||ref||, limit --tolerance), then timed
with `aicc-run --bench --profile`: aicc's time is the sum of the medians of
every kernel the model runs (host copies excluded), its bandwidth the
bytes the op must move (input read once, output written once, parameters
apart) over that time. The copy bandwidth is `torch.Tensor.copy_` of the
same number of bytes between two device tensors (2 x bytes / time), and
PyTorch's own kernel for the op (eager, f16) is timed beside for
reference. Medians with CUDA events after a warm-up. One JSON line per
case goes to --out.

    python3 scripts/bench/membound.py --aicc PKG/bin/aicc
        --aicc-run PKG/bin/aicc-run --work /tmp/membound --out membound.jsonl
        [--rows 16384] [--cols 4096] [--runs 30] [--compile-only]

--compile-only builds and compiles the models and stops (no GPU needed):
a check of the script on a machine without one.
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from gemm import make_model, rel_error, run_aicc  # noqa: E402

F16 = TensorProto.FLOAT16


def layer_norm_model(path, rows, cols):
    scale = helper.make_tensor("scale", F16, [cols],
                               np.full(cols, 1.5, np.float16).tobytes(),
                               raw=True)
    bias = helper.make_tensor("bias", F16, [cols],
                              np.full(cols, 0.25, np.float16).tobytes(),
                              raw=True)
    node = helper.make_node("LayerNormalization", ["x", "scale", "bias"],
                            ["y"], axis=-1, epsilon=1e-5)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", F16, [rows, cols])],
        [helper.make_tensor_value_info("y", F16, [rows, cols])],
        initializer=[scale, bias])
    save(graph, path)


def softmax_model(path, rows, cols):
    make_model([helper.make_node("Softmax", ["x"], ["y"], axis=-1)],
               [helper.make_tensor_value_info("x", F16, [rows, cols])],
               [helper.make_tensor_value_info("y", F16, [rows, cols])], path)


def chain_model(path, rows, cols):
    """y = relu(x * 2 + 1) * x: four element-wise ops, one kernel."""
    def constant(name, value):
        return helper.make_node(
            "Constant", [], [name],
            value=helper.make_tensor(name, F16, [],
                                     np.float16(value).tobytes(), raw=True))
    nodes = [constant("two", 2.0), constant("one", 1.0),
             helper.make_node("Mul", ["x", "two"], ["a"]),
             helper.make_node("Add", ["a", "one"], ["b"]),
             helper.make_node("Relu", ["b"], ["c"]),
             helper.make_node("Mul", ["c", "x"], ["y"])]
    make_model(nodes, [helper.make_tensor_value_info("x", F16, [rows, cols])],
               [helper.make_tensor_value_info("y", F16, [rows, cols])], path)


def save(graph, path):
    import onnx
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def torch_op(name, cols):
    """PyTorch's f16 kernel for the case, and its float32 reference."""
    import torch
    import torch.nn.functional as F
    scale = torch.full((cols,), 1.5, device="cuda")
    bias = torch.full((cols,), 0.25, device="cuda")
    if name == "layer_norm":
        return (lambda x: F.layer_norm(x, (cols,), scale.half(), bias.half(),
                                       1e-5),
                lambda x: F.layer_norm(x, (cols,), scale, bias, 1e-5))
    if name == "softmax":
        return (lambda x: torch.softmax(x, -1),) * 2
    return (lambda x: torch.relu(x * 2 + 1) * x,) * 2


CASES = {"layer_norm": layer_norm_model, "softmax": softmax_model,
         "elementwise_chain": chain_model}


def main():
    parser = benchlib.parser(__doc__)
    parser.add_argument("--rows", type=int, default=16384)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--tolerance", type=float, default=1e-2)
    parser.add_argument("--compile-only", action="store_true")
    args = parser.parse_args()
    args.aicc_arg = []  # (what gemm.run_aicc passes to every compile)
    os.makedirs(args.work, exist_ok=True)
    rows, cols = args.rows, args.cols
    nbytes = rows * cols * 2  # f16, one way

    emit = benchlib.emitter(args.out)
    paths = {}
    for name, build in CASES.items():
        paths[name] = os.path.join(args.work, name + ".onnx")
        build(paths[name], rows, cols)
    if args.compile_only:
        import subprocess
        failed = 0
        for name, path in paths.items():
            proc = subprocess.run(
                [args.aicc, path, "--target=cuda", "-o",
                 os.path.join(args.work, name + ".bin"), "--progress=never"],
                capture_output=True, text=True)
            print(name, "compiled" if proc.returncode == 0
                  else "failed: " + proc.stderr.strip()[-300:])
            failed += proc.returncode != 0
        return 1 if failed else 0

    import torch
    from gpu import time_torch  # scripts/bench/gpu.py, beside this file
    rng = np.random.default_rng(0)
    src = torch.empty(nbytes // 2, dtype=torch.float16, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = time_torch(lambda _: dst.copy_(src), None, args.runs)
    copy_gbs = 2 * nbytes / copy_ms / 1e6
    emit({"case": "copy", "bytes": 2 * nbytes, "torch_ms": copy_ms,
          "gb_per_s": copy_gbs})
    src = dst = None  # (the copy buffers go before the cases run)
    for name, path in paths.items():
        x = rng.standard_normal((rows, cols)).astype(np.float16)
        record = {"case": name, "rows": rows, "cols": cols,
                  "bytes": 2 * nbytes, "copy_gb_per_s": copy_gbs}
        half_op, ref_op = torch_op(name, cols)
        xt = torch.from_numpy(x).cuda()
        with torch.no_grad():
            ref = ref_op(xt.float()).double().cpu().numpy()
        try:
            got, line = run_aicc(args, name, path, {"x": x}, "fp32",
                                 profile=True)
            record["rel_error"] = rel_error(got, ref)
            record["ok"] = record["rel_error"] <= args.tolerance
            record["aicc_ms"] = sum(k["median_ms"] for k in line["kernels"])
            record["aicc_kernels"] = [
                {key: k[key] for key in ("kernel", "median_ms", "grid",
                                         "block", "bytes", "flops",
                                         "bound_ms")}
                for k in line["kernels"]]
            record["aicc_gb_per_s"] = 2 * nbytes / record["aicc_ms"] / 1e6
            record["aicc_over_copy"] = record["aicc_gb_per_s"] / copy_gbs
        except (RuntimeError, KeyError) as e:
            record["error"] = str(e)
        with torch.no_grad():
            record["torch_ms"] = time_torch(half_op, xt, args.runs)
        record["torch_gb_per_s"] = 2 * nbytes / record["torch_ms"] / 1e6
        record["torch_over_copy"] = record["torch_gb_per_s"] / copy_gbs
        emit(record)
        del xt
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
