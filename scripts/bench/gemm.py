#!/usr/bin/env python3
"""aicc's tensor-core contractions on an NVIDIA GPU: checked, then timed.

Checks (fresh random normal inputs each, compared with a float64 reference
by ||aicc - ref|| / ||ref||, limit --tolerance): matrix products with edges
that are not multiples of the tiles, batched products, Gemm with a
transposed weight, convolutions (3x3, 7x7 stride 2, 1x1 with and without
stride, grouped) as implicit GEMMs; native f16 and bf16 models, f32 models
compiled with --precision=fp16|bf16, and f32 models compiled with
--allow-tf32 ("tf32" below); and 8-bit integer products (MatMulInteger,
ConvInteger: u8 or s8 by a constant s8 weight, or by an operand computed at
run time), compared exactly with numpy's int64 products; fp8 products
(--float8-checks: QDQ MatMuls of e4m3fn activations and weights, which
`--integer-quant` with `--gpu-arch=sm_90a` runs on wgmma) against float64
products of the same fp8 values.

Timing: square products at --sizes (and MxNxK ones at --shapes) in the
--dtypes (f16 and bf16 by default; tf32: f32 operands, aicc --allow-tf32
against torch.matmul with torch.backends.cuda.matmul.allow_tf32; i8: s8
activations by a constant s8 weight into i32, MatMulInteger, against
torch._int_mm; f8: e4m3fn by a constant e4m3fn weight into f32, a QDQ
MatMul compiled with --integer-quant, against torch._scaled_mm). aicc's time is the median of the product kernel's own event times
(`aicc-run --profile`), so that the host copies of the inputs stay out;
cuBLAS's is torch.matmul's on
device-resident operands, timed with CUDA events. Both are medians after a
warm-up, in the same run. One JSON line per result goes to --out.

    python3 scripts/bench/gemm.py --aicc PKG/bin/aicc --aicc-run PKG/bin/aicc-run
        --work /tmp/gemm --out gemm.jsonl [--sizes 4096 8192] [--skip-checks]
        [--shapes MxNxK ...] [--dtypes f16 bf16 tf32 i8 f8] [--integer-checks]
        [--float8-checks]
        [--aicc-arg=--mma-tile=128x128x64 ...]
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

ONNX_TYPE = {"f16": TensorProto.FLOAT16, "bf16": TensorProto.BFLOAT16,
             "f32": TensorProto.FLOAT}


def make_model(nodes, inputs, outputs, path):
    graph = helper.make_graph(nodes, "g", inputs, outputs)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def product_model(path, a_shape, b_shape, dtype, trans_b=False):
    """y = a @ b (MatMul) or a @ b^T (Gemm transB) with `dtype` arithmetic.
    f16 models take and give f16; bf16 ones take f32 and cast around the
    product (numpy has no bf16); f32 ones are plain f32."""
    io = TensorProto.FLOAT16 if dtype == "f16" else TensorProto.FLOAT
    m = a_shape[-2]
    n = b_shape[-2] if trans_b else b_shape[-1]
    y_shape = list(a_shape[:-2]) + [m, n]
    nodes, a, b, y = [], "a", "b", "y"
    if dtype == "bf16":
        nodes += [helper.make_node("Cast", ["a"], ["ah"], to=ONNX_TYPE[dtype]),
                  helper.make_node("Cast", ["b"], ["bh"], to=ONNX_TYPE[dtype])]
        a, b, y = "ah", "bh", "yh"
    if trans_b:
        nodes.append(helper.make_node("Gemm", [a, b], [y], transB=1))
    else:
        nodes.append(helper.make_node("MatMul", [a, b], [y]))
    if dtype == "bf16":
        nodes.append(helper.make_node("Cast", ["yh"], ["y"],
                                      to=TensorProto.FLOAT))
    make_model(nodes,
               [helper.make_tensor_value_info("a", io, list(a_shape)),
                helper.make_tensor_value_info("b", io, list(b_shape))],
               [helper.make_tensor_value_info("y", io, y_shape)], path)


def integer_product_model(path, a_shape, b, a_signed, b_input=False):
    """y = MatMulInteger(a, b) in i32: `a` an s8 or u8 input, `b` (an int8
    or uint8 array) a constant weight, or an input with `b_input`."""
    a_type = TensorProto.INT8 if a_signed else TensorProto.UINT8
    b_type = TensorProto.INT8 if b.dtype == np.int8 else TensorProto.UINT8
    y_shape = list(a_shape[:-1]) + [b.shape[-1]]
    inputs = [helper.make_tensor_value_info("a", a_type, list(a_shape))]
    if b_input:
        inputs.append(helper.make_tensor_value_info("b", b_type,
                                                    list(b.shape)))
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["a", "b"], ["y"])], "g", inputs,
        [helper.make_tensor_value_info("y", TensorProto.INT32, y_shape)],
        [] if b_input else [numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def conv_model(path, x_shape, w_shape, stride, pad, groups):
    """y = Conv(x, w) in f32 (compiled with a half --precision)."""
    side = [(d + 2 * pad - k) // stride + 1
            for d, k in zip(x_shape[2:], w_shape[2:])]
    out = [x_shape[0], w_shape[0]] + side
    make_model([helper.make_node("Conv", ["x", "w"], ["y"],
                                 strides=[stride, stride],
                                 pads=[pad] * 4, group=groups)],
               [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                              list(x_shape)),
                helper.make_tensor_value_info("w", TensorProto.FLOAT,
                                              list(w_shape))],
               [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                              list(out))], path)


def bf16_round(x):
    """x rounded to bf16 (nearest even), as float32."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return bits.astype(np.uint32).view(np.float32)


def precision_args(precision):
    """aicc's arguments for a precision: fp32, fp16, bf16 or tf32 (f32
    storage, products in tf32)."""
    if precision == "tf32":
        return ["--precision=fp32", "--allow-tf32"]
    return [f"--precision={precision}"]


def run_aicc(args, name, model, inputs, precision, profile=False, extra=()):
    """Compiles (with `extra` arguments) and runs `model`; returns (outputs,
    json line) or raises."""
    bundle = os.path.join(args.work, name + ".bin")
    cmd = [args.aicc, model, "--target=cuda", "-o", bundle,
           *precision_args(precision), "--progress=never", *args.aicc_arg,
           *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("compile: " + proc.stderr.strip()[-400:])
    files = []
    for key, value in inputs.items():
        files += ["-i", os.path.join(args.work, f"{name}_{key}.npy")]
        np.save(files[-1], value)
    outdir = os.path.join(args.work, "out_" + name)
    cmd = [args.aicc_run, bundle, *files, "--output-dir", outdir, "--json"]
    if profile:
        cmd += ["--bench", str(args.runs), "--warmup", "5", "--profile"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("run: " + proc.stderr.strip()[-400:])
    got = np.load(os.path.join(outdir, sorted(os.listdir(outdir))[0]))
    # The JSON line comes with --bench or --profile only.
    return got, (json.loads(proc.stdout.strip().splitlines()[-1])
                 if profile else None)


def product_time(line, op):
    """The kernel time of the product node of type `op` (MatMul,
    MatMulInteger; the models' nodes are unnamed, "OP#i") in an `aicc-run
    --profile --json` line: every kernel the node contributes to (the
    output's zero fill, the product, a fused cast), not the casts of the
    inputs; and every kernel's row."""
    kernels = [k for k in line["kernels"] if any(
        node.split("#")[0] == op for node in k["source"].split(","))]
    rows = [{key: k.get(key) for key in ("kernel", "median_ms", "grid",
                                         "block", "source", "bytes", "flops",
                                         "bound_ms")}
            for k in line["kernels"]]
    return sum(k["median_ms"] for k in kernels), rows


def rel_error(got, ref):
    got = got.astype(np.float64)
    if not np.all(np.isfinite(got)):
        return float("inf")
    return float(np.linalg.norm(got - ref) / np.linalg.norm(ref))


def check(args, record, name, model, inputs, ref, precision):
    """Runs one check, fills in `record` (error or relative error, ok) and
    returns whether it passed."""
    try:
        got, _ = run_aicc(args, name, model, inputs, precision)
        record["rel_error"] = rel_error(got, ref)
    except RuntimeError as e:
        record["error"] = str(e)
    record["ok"] = record.get("rel_error", 1.0) <= args.tolerance
    return record["ok"]


def checks(args, rng, emit):
    """Products and convolutions against float64 references; the count of
    failures."""
    import torch
    failures = 0
    products = [
        ("edges_f16", (70, 40), (40, 50), "f16", "fp32", False),
        ("odd_f16", (257, 129), (129, 263), "f16", "fp32", False),
        ("batched_f16", (12, 128, 64), (12, 64, 128), "f16", "fp32", False),
        ("gemm_transb_f16", (200, 96), (136, 96), "f16", "fp32", True),
        ("big_f16", (1024, 768), (768, 3072), "f16", "fp32", False),
        ("edges_bf16", (300, 200), (200, 100), "bf16", "fp32", False),
        ("batched_bf16", (4, 256, 64), (4, 64, 256), "bf16", "fp32", False),
        ("f32_as_fp16", (130, 520), (520, 70), "f32", "fp16", False),
        ("f32_as_bf16", (130, 520), (520, 70), "f32", "bf16", False),
        # Few output tiles and a long K: split over blocks.
        ("splitk_f16", (128, 3072), (3072, 768), "f16", "fp32", False),
        ("splitk_edges_f16", (50, 1000), (1000, 70), "f16", "fp32", False),
        ("splitk_batched_f16", (2, 64, 2048), (2, 2048, 64), "f16", "fp32",
         False),
        ("splitk_bf16", (96, 1536), (1536, 200), "bf16", "fp32", False),
        ("splitk_f32_as_fp16", (128, 2304), (2304, 256), "f32", "fp16",
         False),
        # Enough output tiles for wgmma where it is on (--gpu-arch=sm_90a):
        # 128x256 blocks with edges in m, n and k; 128x128 (3 stages, K at
        # most 1024) with B k-major (Gemm transB) and K not a multiple of
        # the 64-deep slices; 128x64 batched in bf16.
        ("wgmma_edges_f16", (8196, 1040), (1040, 1000), "f16", "fp32", False),
        ("wgmma_transb_f16", (2048, 200), (1536, 200), "f16", "fp32", True),
        ("wgmma_batched_bf16", (8, 512, 256), (8, 256, 512), "bf16", "fp32",
         False),
        # f32 operands on the tensor cores in tf32: edges; B read along k
        # (ldmatrix) and along n (element by element from shared memory);
        # 128x128 blocks 32 deep; batched; K split.
        ("tf32_edges", (70, 40), (40, 50), "f32", "tf32", False),
        ("tf32_transb", (200, 96), (136, 96), "f32", "tf32", True),
        ("tf32_big", (1024, 768), (768, 3072), "f32", "tf32", False),
        ("tf32_batched", (12, 128, 64), (12, 64, 128), "f32", "tf32", False),
        ("tf32_splitk", (128, 3072), (3072, 768), "f32", "tf32", False),
    ]
    for name, a_shape, b_shape, dtype, precision, trans_b in products:
        path = os.path.join(args.work, name + ".onnx")
        product_model(path, a_shape, b_shape, dtype, trans_b)
        io = np.float16 if dtype == "f16" else np.float32
        a = rng.standard_normal(a_shape).astype(io)
        b = rng.standard_normal(b_shape).astype(io)
        ra, rb = a.astype(np.float64), b.astype(np.float64)
        if dtype == "bf16":
            ra, rb = bf16_round(a).astype(np.float64), bf16_round(b).astype(
                np.float64)
        ref = ra @ (np.swapaxes(rb, -1, -2) if trans_b else rb)
        record = {"check": name, "a": list(a_shape), "b": list(b_shape),
                  "dtype": dtype, "precision": precision}
        failures += not check(args, record, name, path, {"a": a, "b": b},
                              ref, precision)
        emit(record)

    convs = [  # x shape, w shape, stride, pad, groups
        ("conv3x3", (2, 16, 14, 14), (32, 16, 3, 3), 1, 1, 1),
        ("conv7x7_s2", (2, 3, 32, 32), (64, 3, 7, 7), 2, 3, 1),
        ("conv1x1", (4, 64, 7, 7), (128, 64, 1, 1), 1, 0, 1),
        ("conv_grouped", (2, 32, 10, 10), (64, 8, 3, 3), 1, 1, 4),
        ("conv3x3_splitk", (1, 512, 7, 7), (512, 512, 3, 3), 1, 1, 1),
        # 1x1 filters as products of the filter and the image's pixels
        # (both read 16 bytes at a time): ragged tiles, and one large
        # enough for wgmma; strided, the pixels are read one by one.
        ("conv1x1_pixels", (3, 40, 12, 12), (96, 40, 1, 1), 1, 0, 1),
        ("conv1x1_wide", (8, 256, 56, 56), (512, 256, 1, 1), 1, 0, 1),
        ("conv1x1_s2", (2, 64, 28, 28), (128, 64, 1, 1), 2, 0, 1),
    ]
    for name, x_shape, w_shape, stride, pad, groups in convs:
        path = os.path.join(args.work, name + ".onnx")
        conv_model(path, x_shape, w_shape, stride, pad, groups)
        x = rng.standard_normal(x_shape).astype(np.float32)
        w = rng.standard_normal(w_shape).astype(np.float32)
        ref = torch.nn.functional.conv2d(
            torch.from_numpy(x).double(), torch.from_numpy(w).double(),
            stride=stride, padding=pad, groups=groups).numpy()
        for precision in ("fp16", "bf16", "tf32"):
            record = {"check": name, "x": list(x_shape), "w": list(w_shape),
                      "precision": precision}
            failures += not check(args, record, f"{name}_{precision}", path,
                                  {"x": x, "w": w}, ref, precision)
            emit(record)
    return failures


def integer_checks(args, rng, emit):
    """8-bit integer products and a convolution, on the tensor cores where
    they take them, against exact int64 references; the count of
    failures."""
    import torch
    failures = 0
    products = [  # a shape, b shape, a signed, b signed, b an input
        ("int8_edges_u8s8", (100, 200), (200, 72), False, True, False),
        ("int8_odd_s8s8", (257, 136), (136, 263), True, True, False),
        ("int8_batched_u8s8", (4, 40, 64), (64, 48), False, True, False),
        # 128x128 blocks (enough of them to fill the multiprocessors); with
        # --gpu-arch=sm_90a wgmma from TMA copies, also with edges in m, n
        # and k (K 1040: 16-byte rows, not whole 128-deep slices) and with
        # the rows of a batch as one m.
        ("int8_big_s8s8", (2048, 256), (256, 1152), True, True, False),
        ("int8_wgmma_edges_u8s8", (4100, 1040), (1040, 1000), False, True,
         False),
        ("int8_wgmma_batched_u8s8", (8, 512, 256), (256, 512), False, True,
         False),
        # K not a multiple of 8: A read a byte at a time.
        ("int8_k100_u8s8", (64, 100), (100, 64), False, True, False),
        # B computed at run time, rows of n: read a byte at a time.
        ("int8_runtime_b_u8u8", (64, 128), (128, 96), False, False, True),
    ]

    def draw(shape, signed):
        return (rng.integers(-128, 128, shape).astype(np.int8) if signed
                else rng.integers(0, 256, shape).astype(np.uint8))

    def compare(record, name, path, inputs, ref):
        try:
            got, _ = run_aicc(args, name, path, inputs, "fp32")
            record["mismatches"] = int(np.count_nonzero(
                got.astype(np.int64) != ref))
        except RuntimeError as e:
            record["error"] = str(e)
        record["ok"] = record.get("mismatches", 1) == 0
        emit(record)
        return record["ok"]

    for name, a_shape, b_shape, a_signed, b_signed, b_input in products:
        path = os.path.join(args.work, name + ".onnx")
        a, b = draw(a_shape, a_signed), draw(b_shape, b_signed)
        integer_product_model(path, a_shape, b, a_signed, b_input)
        ref = a.astype(np.int64) @ b.astype(np.int64)
        inputs = {"a": a, "b": b} if b_input else {"a": a}
        record = {"check": name, "a": list(a_shape), "b": list(b_shape)}
        failures += not compare(record, name, path, inputs, ref)

    # ConvInteger: a u8 image by an s8 filter, 3x3, padded; without a zero
    # point on the tensor cores (implicit GEMM), with one (5) on the
    # generic kernels; and one large enough for wgmma (sm_90a), whose image
    # (64 channels, channels last) goes by cp.async in 16-byte pieces.
    convs = [("", (2, 16, 14, 14), (32, 16, 3, 3), 0),
             ("", (2, 16, 14, 14), (32, 16, 3, 3), 5),
             ("_wgmma", (8, 64, 28, 28), (128, 64, 3, 3), 0)]
    for tag, x_shape, w_shape, zero in convs:
        x = draw(x_shape, False)
        w = draw(w_shape, True)
        name = f"int8_conv3x3{tag}_u8s8_zp{zero}"
        path = os.path.join(args.work, name + ".onnx")
        inits = [numpy_helper.from_array(w, "w")]
        inputs = ["x", "w"]
        if zero:
            inits.append(numpy_helper.from_array(np.array(zero, np.uint8),
                                                 "xz"))
            inputs.append("xz")
        graph = helper.make_graph(
            [helper.make_node("ConvInteger", inputs, ["y"],
                              pads=[1, 1, 1, 1])], "g",
            [helper.make_tensor_value_info("x", TensorProto.UINT8,
                                           list(x.shape))],
            [helper.make_tensor_value_info(
                "y", TensorProto.INT32,
                [x.shape[0], w.shape[0]] + list(x.shape[2:]))], inits)
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 17)])
        model.ir_version = 8
        onnx.save(model, path)
        ref = torch.nn.functional.conv2d(
            torch.from_numpy(x.astype(np.float64) - zero),
            torch.from_numpy(w.astype(np.float64)), padding=1).numpy()
        record = {"check": name, "x": list(x.shape), "w": list(w.shape)}
        failures += not compare(record, name, path, {"x": x},
                                np.rint(ref).astype(np.int64))
    return failures


def rate_against_torch(record, flops, unit, ratio):
    """torch's rate (`unit`: "tflops" or "tops") from record["torch_ms"],
    and aicc's rate over it as `ratio` where aicc ran."""
    record[f"torch_{unit}"] = flops / record["torch_ms"] / 1e9
    if "aicc_ms" in record:
        record[ratio] = record[f"aicc_{unit}"] / record[f"torch_{unit}"]


def float8_product(args, name, m, n, k, seed):
    """A QDQ MatMul of an f32 input quantized to e4m3fn (scale 1) by an
    e4m3fn weight (scale 1) into f32, compiled with --integer-quant; its
    input, its operands' fp8 values as torch tensors (A [M, K], B [K, N])
    and the float64 product of those values."""
    import torch
    from onnx import TensorProto as T
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(m, k, generator=generator)
    a8 = x.to(torch.float8_e4m3fn)
    b8 = (torch.randn(k, n, generator=generator) * 0.5).to(torch.float8_e4m3fn)
    one = helper.make_tensor("one", T.FLOAT, [], [1.0])
    zero = helper.make_tensor("zero", T.FLOAT8E4M3FN, [], [0.0])
    w = helper.make_tensor("w", T.FLOAT8E4M3FN, [k, n],
                           b8.view(torch.uint8).numpy().tobytes(), raw=True)
    graph = helper.make_graph(
        [helper.make_node("QuantizeLinear", ["x", "one", "zero"], ["xq"]),
         helper.make_node("DequantizeLinear", ["xq", "one", "zero"], ["xd"]),
         helper.make_node("DequantizeLinear", ["w", "one", "zero"], ["wd"]),
         helper.make_node("MatMul", ["xd", "wd"], ["y"])], "g",
        [helper.make_tensor_value_info("x", T.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", T.FLOAT, [m, n])],
        [one, zero, w])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = 9
    path = os.path.join(args.work, name + ".onnx")
    onnx.save(model, path)
    ref = (a8.double() @ b8.double()).numpy()
    return path, x.numpy(), a8, b8, ref


# Relative error allowed to fp8 products against float64: Hopper's tensor
# cores keep fp8 sums with a reduced mantissa (about 14 bits), so the
# error grows with K; cuBLAS's fast accumulation measures alike
# (time_float8 records both).
FLOAT8_TOLERANCE = 2e-3


def float8_checks(args, rng, emit):
    """fp8 products with ragged edges and a large one, against float64
    products of the same fp8 values; the count of failures."""
    failures = 0
    for name, m, n, k in [("fp8_edges", 100, 72, 256),
                          ("fp8_big", 2048, 1152, 1040)]:
        path, x, _, _, ref = float8_product(args, name, m, n, k, len(name))
        record = {"check": name, "m": m, "n": n, "k": k}
        try:
            got, _ = run_aicc(args, name, path, {"x": x}, "fp32",
                              extra=["--integer-quant"])
            record["rel_error"] = rel_error(got, ref)
        except RuntimeError as e:
            record["error"] = str(e)
        record["ok"] = record.get("rel_error", 1.0) <= FLOAT8_TOLERANCE
        failures += not record["ok"]
        emit(record)
    return failures


def time_float8(args, emit, m, n, k):
    """The fp8 product (aicc's MatMul kernel; the quantization of the input
    is its own kernel, not counted) against torch._scaled_mm on the same
    fp8 operands (B column-major, as cuBLAS takes it)."""
    import torch
    from gpu import time_torch  # scripts/bench/gpu.py, beside this file
    name = f"gemm{m}x{n}x{k}_f8"
    path, x, a8, b8, exact = float8_product(args, name, m, n, k, 0)
    flops = 2.0 * m * n * k
    record = {"gemm": m if m == n == k else f"{m}x{n}x{k}", "dtype": "f8"}
    ta = a8.cuda()
    tb = b8.cuda().t().contiguous().t()
    scale = torch.ones((), device="cuda")
    ref = torch._scaled_mm(ta, tb, scale_a=scale, scale_b=scale,
                           out_dtype=torch.float32)
    exact = torch.from_numpy(exact).cuda()

    def error(value):
        return float(torch.linalg.norm(value.double() - exact) /
                     torch.linalg.norm(exact))
    record["scaled_mm_rel_error"] = error(ref)
    record["scaled_mm_fast_accum_rel_error"] = error(torch._scaled_mm(
        ta, tb, scale_a=scale, scale_b=scale, out_dtype=torch.float32,
        use_fast_accum=True))
    try:
        got, line = run_aicc(args, name, path, {"x": x}, "fp32",
                             profile=True, extra=["--integer-quant"])
        got = torch.from_numpy(got).cuda()
        record["rel_error"] = error(got)
        record["aicc_ms"], record["aicc_kernels"] = product_time(line,
                                                                 "MatMul")
        record["aicc_tflops"] = flops / record["aicc_ms"] / 1e9
    except (RuntimeError, KeyError) as e:
        record["error"] = str(e)
    record["torch_ms"] = time_torch(
        lambda _: torch._scaled_mm(ta, tb, scale_a=scale, scale_b=scale,
                                   out_dtype=torch.float32), None, args.runs)
    rate_against_torch(record, flops, "tflops", "aicc_over_scaled_mm_tflops")
    emit(record)
    del ta, tb, ref, exact
    torch.cuda.empty_cache()


def time_integer(args, rng, emit, m, n, k):
    """s8 activations by a constant s8 weight (MatMulInteger) against
    torch._int_mm on the same operands, B row-major or column-major,
    whichever is faster."""
    import torch
    from gpu import time_torch  # scripts/bench/gpu.py, beside this file
    name = f"gemm{m}x{n}x{k}_i8"
    path = os.path.join(args.work, name + ".onnx")
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    integer_product_model(path, (m, k), b, True)
    flops = 2.0 * m * n * k
    record = {"gemm": m if m == n == k else f"{m}x{n}x{k}", "dtype": "i8"}
    ta = torch.from_numpy(a).cuda()
    tb = torch.from_numpy(b).cuda()
    ref = torch._int_mm(ta, tb)
    try:
        got, line = run_aicc(args, name, path, {"a": a}, "fp32",
                             profile=True)
        record["mismatches_vs_int_mm"] = int(
            (torch.from_numpy(got).cuda() != ref).sum())
        record["aicc_ms"], record["aicc_kernels"] = product_time(
            line, "MatMulInteger")
        record["aicc_tops"] = flops / record["aicc_ms"] / 1e9
    except (RuntimeError, KeyError) as e:
        record["error"] = str(e)
    # cuBLAS takes B in either layout; the faster counts (aicc's weight is
    # laid out as its kernel reads it, at compile time).
    tb_columns = tb.t().contiguous().t()
    record["torch_ms_b_rows"] = time_torch(lambda _: torch._int_mm(ta, tb),
                                           None, args.runs)
    record["torch_ms_b_columns"] = time_torch(
        lambda _: torch._int_mm(ta, tb_columns), None, args.runs)
    record["torch_ms"] = min(record["torch_ms_b_rows"],
                             record["torch_ms_b_columns"])
    rate_against_torch(record, flops, "tops", "aicc_over_int_mm_tops")
    emit(record)
    del ta, tb, tb_columns, ref
    torch.cuda.empty_cache()


def timing(args, rng, emit):
    import torch
    from gpu import time_torch  # scripts/bench/gpu.py, beside this file
    shapes = [(size, size, size) for size in args.sizes] + [
        tuple(int(d) for d in shape.split("x")) for shape in args.shapes]
    for m, n, k in shapes:
        for dtype in args.dtypes:
            if dtype == "i8":
                time_integer(args, rng, emit, m, n, k)
                continue
            if dtype == "f8":
                time_float8(args, emit, m, n, k)
                continue
            tf32 = dtype == "tf32"
            name = f"gemm{m}x{n}x{k}_{dtype}"
            path = os.path.join(args.work, name + ".onnx")
            product_model(path, (m, k), (k, n), "f32" if tf32 else dtype)
            io = np.float16 if dtype == "f16" else np.float32
            a = rng.standard_normal((m, k)).astype(io)
            b = rng.standard_normal((k, n)).astype(io)
            flops = 2.0 * m * n * k
            record = {"gemm": m if m == n == k else f"{m}x{n}x{k}",
                      "dtype": dtype}
            tt = {"f16": torch.float16, "bf16": torch.bfloat16,
                  "tf32": torch.float32}[dtype]
            ta = torch.from_numpy(a).cuda().to(tt)
            tb = torch.from_numpy(b).cuda().to(tt)
            ref = (ta.double() @ tb.double()).cpu().numpy()
            # cuBLAS in tf32 for the tf32 rows only.
            torch.backends.cuda.matmul.allow_tf32 = tf32
            try:
                got, line = run_aicc(args, name, path, {"a": a, "b": b},
                                     "tf32" if tf32 else "fp32",
                                     profile=True)
                record["rel_error_vs_fp32"] = rel_error(got, ref)
                record["aicc_ms"], record["aicc_kernels"] = product_time(
                    line, "MatMul")
                record["aicc_tflops"] = flops / record["aicc_ms"] / 1e9
            except (RuntimeError, KeyError) as e:
                record["error"] = str(e)
            record["torch_ms"] = time_torch(lambda _: torch.matmul(ta, tb),
                                            None, args.runs)
            record["torch_tflops"] = flops / record["torch_ms"] / 1e9
            if "aicc_ms" in record:
                record["aicc_over_cublas_tflops"] = (record["aicc_tflops"] /
                                                     record["torch_tflops"])
            emit(record)
            del ta, tb
            torch.cuda.empty_cache()


def main():
    parser = benchlib.parser(__doc__)
    parser.add_argument("--sizes", nargs="*", type=int, default=[4096, 8192])
    parser.add_argument("--shapes", nargs="*", default=[],
                        help="more products to time, as MxNxK (e.g. the "
                             "FFN of BERT-base at batch 32: 4096x3072x768)")
    parser.add_argument("--dtypes", nargs="*", default=["f16", "bf16"],
                        choices=["f16", "bf16", "tf32", "i8", "f8"])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--tolerance", type=float, default=1e-2)
    parser.add_argument("--skip-checks", action="store_true")
    parser.add_argument("--integer-checks", action="store_true",
                        help="check the 8-bit integer products instead of "
                             "the float ones")
    parser.add_argument("--float8-checks", action="store_true",
                        help="check the fp8 products instead of the float "
                             "ones (with the integer ones if both)")
    parser.add_argument("--aicc-arg", action="append", default=[],
                        help="an extra aicc argument for every compile "
                             "(e.g. --aicc-arg=--mma-tile=128x128x64)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(0)

    emit = benchlib.emitter(
        args.out, {"aicc_args": args.aicc_arg} if args.aicc_arg else None)

    failures = 0
    if not args.skip_checks:
        if args.integer_checks:
            failures += integer_checks(args, rng, emit)
        if args.float8_checks:
            failures += float8_checks(args, rng, emit)
        if not args.integer_checks and not args.float8_checks:
            failures += checks(args, rng, emit)
    timing(args, rng, emit)
    print(f"gemm checks: {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
