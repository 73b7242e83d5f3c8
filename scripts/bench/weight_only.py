#!/usr/bin/env python3
"""aicc's products by 4-bit weights (W4A16) on an NVIDIA GPU: checked, then timed.

The models are com.microsoft MatMulNBits nodes (4-bit weights in groups
along k, one scale and one zero point a group: what ONNX Runtime's
MatMulNBitsQuantizer and aicc --quantize=int4-weight write). With fewer
than 16 rows aicc keeps the weight packed at half a byte a value and
dequantizes it in registers (tile.matmul_int4, aicc-gpu-int4-products).

Checks (against float64 products of the inputs by the dequantized weight;
relative error ||aicc - ref|| / ||ref|| at most --tolerance): one row and
4096 x 4096 in f16, three rows with a bias and a k whose 32-value chunks do
not fill the lanes evenly, one row and an n that the blocks' columns do not
divide (one column a block, and eight), a batched f32 input, 15 rows, groups of 16 (the
generic kernels), and 16 rows (the float weight on the tensor cores).

Timing, one row (batch 1), at --shapes KxN (default the three of a 7B
model's layers: 4096x4096, 4096x11008, 11008x4096), groups of
--group-size: the W4A16 product's kernel time (`aicc-run --profile`,
median) against aicc's own f16 product of the same shape (its weight
transposed to rows of k at compile time), cuBLAS's f16 product
(torch.matmul) and PyTorch's int4 weight-only product
(torch._weight_int4pack_mm, bf16, when this PyTorch has it), all on the
same GPU in one run. One JSON line per result goes to --out.

    python3 scripts/bench/weight_only.py --aicc PKG/bin/aicc
        --aicc-run PKG/bin/aicc-run --work /tmp/w4 --out w4.jsonl
        [--shapes 4096x4096 ...] [--group-size 128] [--skip-checks]
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from gemm import product_time, rel_error, run_aicc  # noqa: E402

MS = "com.microsoft"


def pack_nibbles(values):
    """Rows of 4-bit values (even count) as bytes, the first of each pair
    in the low four bits."""
    values = values.astype(np.uint8)
    return (values[..., 0::2] | (values[..., 1::2] << 4)).astype(np.uint8)


def nbits_model(path, rng, x_shape, n, group, dtype, bias=False,
                zero_points=True):
    """A MatMulNBits model of random 4-bit weights; returns the float64
    weight [K, N] and bias (or None) it stands for, and the values, zero
    points and scales ([N, K], [N, K/group] twice)."""
    k = x_shape[-1]
    blocks = k // group
    real = np.float16 if dtype == "f16" else np.float32
    onnx_type = TensorProto.FLOAT16 if dtype == "f16" else TensorProto.FLOAT
    q = rng.integers(0, 16, (n, k))
    scales = (rng.random((n, blocks)) * 0.02 + 0.005).astype(real)
    zps = rng.integers(0, 16, (n, blocks)) if zero_points else \
        np.full((n, blocks), 8)
    init = [numpy_helper.from_array(
                pack_nibbles(q).reshape(n, blocks, group // 2), "b"),
            numpy_helper.from_array(scales.reshape(-1), "scales")]
    inputs = ["x", "b", "scales", "", "", ""]
    if zero_points:
        # Packed like the weight, rows padded to whole bytes.
        padded = np.zeros((n, blocks + blocks % 2), np.int64)
        padded[:, :blocks] = zps
        init.append(numpy_helper.from_array(pack_nibbles(padded).reshape(-1),
                                            "zp"))
        inputs[3] = "zp"
    b = None
    if bias:
        b = rng.standard_normal(n).astype(real)
        init.append(numpy_helper.from_array(b, "bias"))
        inputs[5] = "bias"
    while inputs[-1] == "":
        inputs.pop()
    node = helper.make_node("MatMulNBits", inputs, ["y"], domain=MS, K=k, N=n,
                            bits=4, block_size=group)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", onnx_type, x_shape)],
        [helper.make_tensor_value_info("y", onnx_type,
                                       list(x_shape[:-1]) + [n])], init)
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    onnx.save(model, path)
    w = (q - np.repeat(zps, group, axis=1)) * \
        np.repeat(scales.astype(np.float64), group, axis=1)
    return (w.T, None if b is None else b.astype(np.float64),
            (q, zps, scales))


def weight_model(path, w):
    """x [1, K] @ w, w an f16 initializer."""
    k, n = w.shape
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [1, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [1, n])],
        [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def checks(args, rng, emit):
    failures = 0
    cases = [
        # name, input shape, n, group, dtype, bias, zero points
        ("w4_row_4096", (1, 4096), 4096, 128, "f16", False, True),
        ("w4_rows3_bias_ragged", (3, 1056), 100, 32, "f16", True, True),
        ("w4_row_n_ragged", (1, 1024), 102, 64, "f16", True, True),
        ("w4_row_n_ragged_columns", (1, 1024), 4100, 64, "f16", True, True),
        ("w4_batched_f32", (2, 3, 512), 64, 64, "f32", False, False),
        ("w4_rows15", (15, 2048), 256, 128, "f16", False, True),
        ("w4_group16_generic", (2, 512), 48, 16, "f16", False, True),
        ("w4_rows16_tensor_cores", (16, 1024), 256, 64, "f16", True, True),
    ]
    for name, x_shape, n, group, dtype, bias, zps in cases:
        path = os.path.join(args.work, name + ".onnx")
        w, b, _ = nbits_model(path, rng, x_shape, n, group, dtype, bias,
                              zps)
        x = rng.standard_normal(x_shape).astype(
            np.float16 if dtype == "f16" else np.float32)
        ref = x.astype(np.float64) @ w + (0 if b is None else b)
        record = {"check": name, "x": list(x_shape), "n": n, "group": group,
                  "dtype": dtype}
        try:
            got, line = run_aicc(args, name, path, {"x": x}, "fp32",
                                 profile=True)
            record["rel_error"] = rel_error(got, ref)
            record["kernels"] = [k["kernel"] for k in line["kernels"]]
        except RuntimeError as e:
            record["error"] = str(e)
        record["ok"] = record.get("rel_error", 1.0) <= args.tolerance
        failures += not record["ok"]
        emit(record)
    return failures


def torch_int4(x, q, zps, scales, group):
    """PyTorch's int4 weight-only product (tinygemm: bf16, weight packed by
    _convert_weight_to_int4pack, w = (q - 8) * scale + zero) of `x` by the
    weight (q - zp) * scale; a callable, or the reason it is unavailable."""
    import torch
    try:
        n = q.shape[0]
        # (tinygemm's order: the first of each pair in the high four bits.)
        q8 = q.astype(np.uint8)
        packed = torch.from_numpy(
            ((q8[:, 0::2] << 4) | q8[:, 1::2]).astype(np.uint8)).cuda()
        weight = torch._convert_weight_to_int4pack(packed, 8)
        s = torch.from_numpy(scales.astype(np.float32)).cuda()
        z = torch.from_numpy((8.0 - zps).astype(np.float32)).cuda() * s
        scales_and_zeros = torch.stack([s.t(), z.t()], dim=-1).contiguous() \
            .to(torch.bfloat16)
        xb = x.to(torch.bfloat16)
        fn = lambda _: torch._weight_int4pack_mm(xb, weight, group,  # noqa
                                                 scales_and_zeros)
        fn(None)
        assert scales_and_zeros.shape == (q.shape[1] // group, n, 2)
        return fn
    except (AttributeError, RuntimeError, AssertionError) as e:
        return str(e).splitlines()[0][:300] if str(e) else type(e).__name__


def timing(args, rng, emit):
    import torch
    from gpu import time_torch  # scripts/bench/gpu.py, beside this file
    group = args.group_size
    for shape in args.shapes:
        k, n = (int(d) for d in shape.split("x"))
        record = {"w4a16": f"1x{k}x{n}", "group": group}
        name = f"w4_1x{k}x{n}"
        path = os.path.join(args.work, name + ".onnx")
        w, _, (q, zps, scales) = nbits_model(path, rng, (1, k), n, group,
                                             "f16")
        x = rng.standard_normal((1, k)).astype(np.float16)
        ref = x.astype(np.float64) @ w
        try:
            got, line = run_aicc(args, name, path, {"x": x}, "fp32",
                                 profile=True)
            record["rel_error"] = rel_error(got, ref)
            record["aicc_ms"], record["aicc_kernels"] = product_time(
                line, "MatMulNBits")
        except (RuntimeError, KeyError) as e:
            record["error"] = str(e)
        # aicc's own f16 product of the same shape: the f16 values of the
        # weight as a constant (read as rows of k, transposed at compile
        # time).
        w16 = w.astype(np.float16)
        f16_path = os.path.join(args.work, name + "_f16.onnx")
        weight_model(f16_path, w16)
        try:
            got, line = run_aicc(args, name + "_f16", f16_path, {"x": x},
                                 "fp32", profile=True)
            record["f16_rel_error"] = rel_error(got, ref)
            record["aicc_f16_ms"], record["aicc_f16_kernels"] = product_time(
                line, "MatMul")
        except (RuntimeError, KeyError) as e:
            record["f16_error"] = str(e)
        tx = torch.from_numpy(x).cuda()
        tw = torch.from_numpy(w16).cuda()
        record["cublas_f16_ms"] = time_torch(lambda _: torch.matmul(tx, tw),
                                             None, args.runs)
        fn = torch_int4(tx, q, zps, scales, group)
        if callable(fn):
            record["torch_int4_rel_error"] = rel_error(
                fn(None).float().cpu().numpy(), ref)
            record["torch_int4_ms"] = time_torch(fn, None, args.runs)
        else:
            record["torch_int4_error"] = fn
        if "aicc_ms" in record:
            for key in ("aicc_f16_ms", "cublas_f16_ms", "torch_int4_ms"):
                if key in record:
                    record["speedup_vs_" + key[:-3]] = \
                        record[key] / record["aicc_ms"]
        emit(record)
        del tx, tw
        torch.cuda.empty_cache()


def main():
    parser = benchlib.parser(__doc__)
    parser.add_argument("--shapes", nargs="*",
                        default=["4096x4096", "4096x11008", "11008x4096"])
    parser.add_argument("--group-size", type=int, default=128)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--tolerance", type=float, default=5e-3)
    parser.add_argument("--skip-checks", action="store_true")
    parser.add_argument("--aicc-arg", action="append", default=[])
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(0)
    emit = benchlib.emitter(args.out)
    failures = 0 if args.skip_checks else checks(args, rng, emit)
    timing(args, rng, emit)
    print(f"weight-only checks: {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
