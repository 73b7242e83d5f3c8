#!/usr/bin/python3
"""A black-box sweep of hostile inputs through the installed programs, the
way a stranger's files reach them: `aicc MODEL -o OUT` on mutated ONNX
models and `aicc-run BUNDLE` on mutated bundles. Every case must end in
exit status 0 (the mutation happened to be harmless) or an error exit with
an "error:" message on stderr: no signal, no hang (a time limit), no
gigabytes (an address-space limit), no output file left after a failure,
and never the contents of a file outside the model's folder in any output.

    scripts/robustness.py [--cases N] [--seed S] [--aicc PATH]
                          [--aicc-run PATH] [--keep DIR]

Mutations: truncations, byte flips, runs of 0xff, copied spans, and for
ONNX, external-data references to paths outside the model's folder (which
hold a marker that must never show). Prints one line per violation and a
summary; exits 1 on any violation. Standard library and numpy only.
"""
import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTDATA = os.environ.get("AICC_ONNX_TESTDATA",
                          "/usr/share/libonnx-testdata/data")
MARKER = b"AICC-SECRET-7f3a9c"
MEMORY_LIMIT = 8 << 30   # bytes of address space per process
AICC_SECONDS = 120
RUN_SECONDS = 30

SEED_MODELS = [
    "test_add", "test_relu", "test_matmul_2d", "test_conv_with_strides_padding",
    "test_softmax_axis_1", "test_gemm_default_no_bias",
    "test_reduce_sum_keepdims_example", "test_gather_0", "test_reshape_extended_dims",
    "test_transpose_default", "test_concat_3d_axis_0", "test_slice",
    "test_lstm_defaults", "test_if", "test_loop11", "test_batchnorm_example",
    "test_maxpool_2d_default", "test_resize_upsample_scales_linear",
    "test_einsum_batch_matmul", "test_cast_FLOAT_to_FLOAT16",
]


def limit_resources():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def mutate(data, rng):
    data = bytearray(data)
    kind = rng.randrange(6)
    if kind == 0 and len(data) > 1:  # truncate
        return bytes(data[:rng.randrange(len(data))]), "truncate"
    if kind == 1:  # flip bytes
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        return bytes(data), "flip"
    if kind == 2:  # a run of 0xff (huge varints, lengths, dims)
        i = rng.randrange(len(data))
        n = rng.randint(1, 10)
        data[i:i + n] = b"\xff" * n
        return bytes(data), "ff-run"
    if kind == 3:  # copy a span over another (duplicated fields, cycles)
        i, j = rng.randrange(len(data)), rng.randrange(len(data))
        n = rng.randint(1, 64)
        data[j:j + n] = data[i:i + n]
        return bytes(data), "splice"
    if kind == 4:  # random bytes
        i = rng.randrange(len(data))
        for k in range(i, min(len(data), i + rng.randint(1, 16))):
            data[k] = rng.randrange(256)
        return bytes(data), "random"
    # zero a span (counts and sizes of 0)
    i = rng.randrange(len(data))
    n = rng.randint(1, 32)
    data[i:i + n] = bytes(min(n, len(data) - i))
    return bytes(data), "zero"


def hostile_external(folder, rng):
    """An ONNX model whose one initializer lives in external data at a
    path that leads outside `folder` (to a file holding MARKER)."""
    import onnx
    from onnx import TensorProto, helper
    secret_dir = os.path.join(os.path.dirname(folder), "secret")
    os.makedirs(secret_dir, exist_ok=True)
    secret = os.path.join(secret_dir, "weights.bin")
    with open(secret, "wb") as f:
        f.write(MARKER * 64)
    choice = rng.randrange(5)
    if choice == 0:
        location = "../secret/weights.bin"
    elif choice == 1:
        location = secret
    elif choice == 2:
        link = os.path.join(folder, "link.bin")
        if not os.path.lexists(link):
            os.symlink(secret, link)
        location = "link.bin"
    elif choice == 3:
        os.makedirs(os.path.join(folder, "sub"), exist_ok=True)
        link = os.path.join(folder, "sub", "dirlink")
        if not os.path.lexists(link):
            os.symlink(secret_dir, link)
        location = "sub/dirlink/weights.bin"
    else:
        hard = os.path.join(folder, "hard.bin")
        if not os.path.exists(hard):
            try:
                os.link(secret, hard)
            except OSError:
                shutil.copy(secret, hard)
        location = "hard.bin"
    w = TensorProto()
    w.name = "w"
    w.data_type = TensorProto.FLOAT
    w.dims.extend([16])
    w.data_location = TensorProto.EXTERNAL
    for key, value in (("location", location), ("offset", "0"),
                       ("length", "64")):
        entry = w.external_data.add()
        entry.key, entry.value = key, value
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "w"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString(), "external:" + ["dotdot", "absolute",
                                                     "symlink", "dir-symlink",
                                                     "hardlink"][choice]


def check(command, out_path, timeout, what, violations, outputs=()):
    try:
        proc = subprocess.run(command, capture_output=True, timeout=timeout,
                              preexec_fn=limit_resources)
    except subprocess.TimeoutExpired:
        violations.append(f"{what}: no answer in {timeout} s")
        return None
    texts = [proc.stdout, proc.stderr]
    for path in outputs:
        if os.path.isfile(path):
            texts.append(open(path, "rb").read())
    if any(MARKER in t for t in texts):
        violations.append(f"{what}: the contents of an outside file leaked")
    if proc.returncode < 0:
        violations.append(f"{what}: killed by signal {-proc.returncode}")
    elif proc.returncode != 0:
        if b"error" not in proc.stderr:
            violations.append(f"{what}: exit {proc.returncode} with no "
                              f"error message: {proc.stderr[-200:]!r}")
        if out_path and os.path.exists(out_path):
            violations.append(f"{what}: failed but left {out_path}")
        leftovers = [f for f in os.listdir(os.path.dirname(out_path))
                     if ".tmp" in f or f.startswith(".")] if out_path else []
        if leftovers:
            violations.append(f"{what}: left temporary files {leftovers}")
    return proc.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--aicc", default=os.path.join(REPO, "build", "bin",
                                                       "aicc"))
    parser.add_argument("--aicc-run", default=os.path.join(REPO, "build",
                                                           "bin", "aicc-run"))
    parser.add_argument("--keep", help="copy violating inputs here")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="aicc-robustness-")
    seeds = [(name, open(os.path.join(TESTDATA, "node", name, "model.onnx"),
                         "rb").read())
             for name in SEED_MODELS
             if os.path.exists(os.path.join(TESTDATA, "node", name,
                                            "model.onnx"))]
    # Bundles to corrupt: a few seeds compiled for the CPU.
    bundles = []
    for name, _ in seeds[:6]:
        out = os.path.join(work, name + ".bin")
        model = os.path.join(TESTDATA, "node", name, "model.onnx")
        data_set = os.path.join(TESTDATA, "node", name, "test_data_set_0")
        inputs = sorted(f for f in os.listdir(data_set)
                        if f.startswith("input_"))
        if subprocess.run([args.aicc, model, "-o", out, "--progress=never"],
                          capture_output=True).returncode == 0:
            flags = []
            for f in inputs:
                flags += ["-i", os.path.join(data_set, f)]
            bundles.append((name, open(out, "rb").read(), flags))
    violations, outcomes = [], {"ok": 0, "error": 0}
    for case in range(args.cases):
        folder = os.path.join(work, f"case{case}", "model")
        os.makedirs(folder)
        violations_before = len(violations)
        if case % 3 == 2 and bundles:
            name, data, flags = rng.choice(bundles)
            data, how = mutate(data, rng)
            path = os.path.join(folder, "model.bin")
            with open(path, "wb") as f:
                f.write(data)
            outdir = os.path.join(folder, "outputs")
            code = check([args.aicc_run, path, *flags,
                          "--output-dir", outdir], None, RUN_SECONDS,
                         f"case {case}: aicc-run {name} {how}", violations)
            if code not in (None, 0) and os.path.isdir(outdir) and \
                    os.listdir(outdir):
                violations.append(f"case {case}: aicc-run failed but wrote "
                                  f"{os.listdir(outdir)}")
        else:
            if case % 10 == 9:
                data, how = hostile_external(folder, rng)
                name = "external"
            else:
                name, data = rng.choice(seeds)
                data, how = mutate(data, rng)
            path = os.path.join(folder, "model.onnx")
            with open(path, "wb") as f:
                f.write(data)
            out = os.path.join(folder, "model.bin")
            code = check([args.aicc, path, "-o", out, "--progress=never"], out,
                         AICC_SECONDS, f"case {case}: aicc {name} {how}",
                         violations, outputs=[out])
            if how.startswith("external") and code == 0:
                violations.append(f"case {case}: aicc accepted {how}")
        if code is not None:
            outcomes["ok" if code == 0 else "error"] += 1
        if len(violations) > violations_before and args.keep:
            os.makedirs(args.keep, exist_ok=True)
            shutil.copytree(os.path.join(work, f"case{case}"),
                            os.path.join(args.keep, f"case{case}"),
                            symlinks=True)
        shutil.rmtree(os.path.join(work, f"case{case}"))
    shutil.rmtree(work, ignore_errors=True)
    for v in violations:
        print(v)
    print(f"robustness: {args.cases} cases ({outcomes['error']} refused, "
          f"{outcomes['ok']} accepted), {len(violations)} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
