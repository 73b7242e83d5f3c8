# RUN: %python %s aicc %t
#
# Models and files the importer must refuse with a clear error: each case is
# built here, compiled with `aicc MODEL --emit=tile -o OUT`, and must exit
# with status 1 (not a signal), print an error containing the expected text,
# and leave no output file.

import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

aicc, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []
count = 0


def model(nodes, inputs, outputs, initializers=(), opset=13, ir=8,
          extra_opsets=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    opsets = [helper.make_opsetid("", opset)] + list(extra_opsets)
    m = helper.make_model(graph, opset_imports=opsets)
    m.ir_version = ir
    return m


def tensor(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def expect(name, content, *messages, args=()):
    """Writes `content` (a ModelProto or bytes) and checks the refusal."""
    global count
    count += 1
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "model.onnx")
    if isinstance(content, bytes):
        with open(path, "wb") as f:
            f.write(content)
    elif content is not None:
        onnx.save(content, path)
    out = os.path.join(folder, "out.mlir")
    proc = subprocess.run([aicc, path, "--emit=tile", "-o", out, *args],
                          capture_output=True, text=True, timeout=60)
    problems = []
    if proc.returncode != 1:
        problems.append(f"exit status {proc.returncode}, expected 1")
    for message in messages:
        if message not in proc.stderr:
            problems.append(f"no '{message}' in:\n{proc.stderr}")
    if os.path.exists(out):
        problems.append("an output file was left behind")
    if problems:
        failures.append(f"{name}: " + "; ".join(problems))


x4 = tensor("x", [4])

# --- Files that are not (whole) ONNX models -------------------------------
expect("empty-file", b"", "not an ONNX model: the file holds no graph")
expect("random-bytes", bytes(range(256)) * 8, "not a valid ONNX model")
good = model([helper.make_node("Relu", ["x"], ["y"])], [x4], [tensor("y", [4])])
expect("truncated", good.SerializeToString()[:-7], "not a valid ONNX model")
expect("tensor-not-model", numpy_helper.from_array(np.ones(3, np.float32))
       .SerializeToString(), "not an ONNX model: the file holds no graph")
expect("missing-file", None, "cannot read the model")

# --- Versions --------------------------------------------------------------
expect("ir-version-too-old", model([helper.make_node("Relu", ["x"], ["y"])],
                                   [x4], [tensor("y", [4])], ir=2),
       "ONNX IR version 2 is not supported (aicc reads 3 to 11)")
expect("opset-too-new", model([helper.make_node("Relu", ["x"], ["y"])], [x4],
                              [tensor("y", [4])], opset=26),
       "opset 26 is newer than 21, the newest aicc knows")
no_default = model([helper.make_node("Relu", ["x"], ["y"])], [x4],
                   [tensor("y", [4])])
del no_default.opset_import[:]
no_default.opset_import.append(helper.make_opsetid("com.example", 1))
expect("no-default-opset", no_default,
       "the model imports no version of the default ONNX operator set")

# --- Unsupported operators: all of them, in one run ------------------------
expect("unsupported-ops", model(
    [helper.make_node("ImageDecoder", ["b"], ["p"], name="decode"),
     helper.make_node("MyOp", ["x"], ["q"], name="mine", domain="com.example"),
     helper.make_node("Relu", ["x"], ["r"], name="fine")],
    [tensor("b", [10], TensorProto.UINT8), x4],
    [tensor("p", [1, 1, 3], TensorProto.UINT8), tensor("q", [4]),
     tensor("r", [4])],
    opset=20, extra_opsets=[helper.make_opsetid("com.example", 1)]),
    "node 'decode' (ImageDecoder, opset 20): operator 'ImageDecoder' is not "
    "supported",
    "node 'mine' (MyOp, opset 20): operator domain 'com.example' is not "
    "supported")
expect("microsoft-unsupported", model(
    [helper.make_node("QAttention", ["x"], ["q"], name="attn",
                      domain="com.microsoft")],
    [x4], [tensor("q", [4])], opset=20,
    extra_opsets=[helper.make_opsetid("com.microsoft", 1)]),
    "node 'attn' (QAttention, opset 20): operator 'QAttention' of domain "
    "'com.microsoft' is not supported")
expect("microsoft-not-imported", model(
    [helper.make_node("QLinearAdd", ["x"], ["r"], name="add",
                      domain="com.microsoft")],
    [x4], [tensor("r", [4])], opset=20),
    "node 'add' (QLinearAdd, opset 20): the model does not import the "
    "operator set of domain 'com.microsoft'")
expect("op-too-early", model([helper.make_node("Gelu", ["x"], ["y"], name="g")],
                             [x4], [tensor("y", [4])], opset=13),
       "node 'g' (Gelu, opset 13): operator 'Gelu' is supported from opset 20")

# --- Graph structure -------------------------------------------------------
expect("undefined-input", model(
    [helper.make_node("Add", ["x", "ghost"], ["y"], name="add")], [x4],
    [tensor("y", [4])]),
    "node 'add' (Add, opset 13): reads 'ghost', which no node, initializer "
    "or graph input defines")
expect("cycle", model(
    [helper.make_node("Add", ["x", "b"], ["a"], name="first"),
     helper.make_node("Relu", ["a"], ["b"], name="second")], [x4],
    [tensor("b", [4])]),
    "the graph has a cycle through this node")
# Names defined twice (ONNX graphs are in SSA form); the first was a fuzz
# finding (test/fuzz/regressions/onnx/compile-duplicate-names.onnx): a
# graph repeated in one file, which protobuf merges into one with every
# input, node and output twice.
expect("duplicate-input", model([helper.make_node("Relu", ["x"], ["y"])],
                                [x4, x4], [tensor("y", [4])]),
       "'x' is defined twice, by an input of graph 'g' and by an input of "
       "graph 'g'")
expect("duplicate-node-output", model(
    [helper.make_node("Relu", ["x"], ["y"], name="r1"),
     helper.make_node("Neg", ["x"], ["y"], name="r2")], [x4],
    [tensor("y", [4])]),
    "'y' is defined twice, by node 'r1' (Relu, opset 13) and by node 'r2' "
    "(Neg, opset 13)")
expect("node-output-is-input", model(
    [helper.make_node("Relu", ["x"], ["x"], name="r")], [x4],
    [tensor("x", [4])]),
    "'x' is defined twice, by an input of graph 'g' and by node 'r'")
dup_init = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4],
                       float_data=[1, 2, 3, 4])
expect("duplicate-initializer", model(
    [helper.make_node("Add", ["x", "w"], ["y"])], [x4], [tensor("y", [4])],
    [dup_init, dup_init]),
    "initializer 'w' is defined twice in graph 'g'")
expect("undefined-output", model([helper.make_node("Relu", ["x"], ["y"])],
                                 [x4], [tensor("nowhere", [4])]),
       "graph output 'nowhere' is not defined")

# Subgraphs nested deeper than the limit (64): a chain of Ifs.
leaf = helper.make_graph([helper.make_node("Neg", ["x"], ["leaf"])], "leaf",
                         [], [tensor("leaf", [4])])
body = helper.make_graph([helper.make_node("Neg", ["x"], ["o0"])], "b0", [],
                         [tensor("o0", [4])])
for level in range(1, 70):
    node = helper.make_node("If", ["c"], [f"o{level}"], then_branch=body,
                            else_branch=leaf)
    body = helper.make_graph([node], f"b{level}", [], [tensor(f"o{level}", [4])])
expect("deep-nesting", model(list(body.node), [x4, tensor("c", [], TensorProto.BOOL)],
                             [tensor("o69", [4])]),
       "subgraphs nest deeper than 64 levels")

# Loops nested 40 deep: each body is imported twice (once to learn its
# types), so the work doubles per level; the operation budget stops it.
loop_body = helper.make_graph(
    [helper.make_node("Identity", ["cin"], ["cout"]),
     helper.make_node("Add", ["v", "v"], ["w"])], "l0",
    [tensor("i", [], TensorProto.INT64), tensor("cin", [], TensorProto.BOOL),
     tensor("v", [4])], [tensor("cout", [], TensorProto.BOOL), tensor("w", [4])])
for level in range(1, 40):
    node = helper.make_node("Loop", ["", "cin", "v"], ["w"], body=loop_body)
    loop_body = helper.make_graph(
        [helper.make_node("Identity", ["cin"], ["cout"]), node], f"l{level}",
        [tensor("i", [], TensorProto.INT64),
         tensor("cin", [], TensorProto.BOOL), tensor("v", [4])],
        [tensor("cout", [], TensorProto.BOOL), tensor("w", [4])])
expect("loop-blowup", model(
    [helper.make_node("Loop", ["", "c", "x"], ["y"], body=loop_body)],
    [x4, tensor("c", [], TensorProto.BOOL)], [tensor("y", [4])]),
    "the model expands to more than 2000000 operations")

# A Scan counting more scan inputs than it has (a fuzz finding,
# test/fuzz/regressions/onnx/import-scan-count.onnx, at opset 8).
scan_body = helper.make_graph(
    [helper.make_node("Add", ["s", "e"], ["s2"]),
     helper.make_node("Identity", ["s2"], ["o"])], "body",
    [tensor("s", [2]), tensor("e", [2])], [tensor("s2", [2]), tensor("o", [2])])
expect("scan-input-count", model(
    [helper.make_node("Scan", ["init", "xs"], ["final", "ys"], name="scan",
                      body=scan_body, num_scan_inputs=33)],
    [tensor("init", [2]), tensor("xs", [3, 2])],
    [tensor("final", [2]), tensor("ys", [3, 2])], opset=11),
    "node 'scan' (Scan, opset 11): num_scan_inputs is 33, but the node has 2 "
    "state and scan inputs")

# Fuzz findings (test/fuzz/regressions/onnx/import-*): a filter of rank 1
# read past its shape; MaxUnpool indices of another shape than the input.
expect("convtranspose-filter-rank", model(
    [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct")],
    [tensor("x", [1, 1, 4, 4]), tensor("w", [3])], [tensor("y", [1, 1, 6, 6])]),
    "node 'ct' (ConvTranspose, opset 13): the filter has rank 1; a "
    "convolution's filter has rank 3 or more")
expect("maxunpool-indices-shape", model(
    [helper.make_node("MaxUnpool", ["x", "i"], ["y"], name="up",
                      kernel_shape=[2, 2], strides=[2, 2])],
    [tensor("x", [1, 1, 2, 2]), tensor("i", [1, 1, 2, 3], TensorProto.INT64)],
    [tensor("y", [1, 1, 4, 4])], opset=11),
    "node 'up' (MaxUnpool, opset 11): the indices must have the input's shape")
expect("maxunpool-kernel-rank", model(
    [helper.make_node("MaxUnpool", ["x", "i"], ["y"], name="up",
                      kernel_shape=[2, 2, 2])],
    [tensor("x", [1, 1, 2, 2]), tensor("i", [1, 1, 2, 2], TensorProto.INT64)],
    [tensor("y", [1, 1, 4, 4])], opset=11),
    "kernel_shape, strides and pads must describe the 2 spatial dimensions")

# --- Types and shapes ------------------------------------------------------
expect("string-input", model([helper.make_node("Identity", ["s"], ["t"])],
                             [tensor("s", [2], TensorProto.STRING)],
                             [tensor("t", [2], TensorProto.STRING)]),
       "graph input 's' has type string, which aicc does not support")
expect("unranked-input", model(
    [helper.make_node("Relu", ["u"], ["v"])],
    [helper.make_tensor_value_info("u", TensorProto.FLOAT, None)],
    [tensor("v", [4])]),
    "graph input 'u' has no shape; aicc needs at least its rank")
expect("shape-mismatch", model(
    [helper.make_node("MatMul", ["a", "b"], ["c"], name="mm")],
    [tensor("a", [2, 3]), tensor("b", [4, 5])], [tensor("c", [2, 5])]),
    "node 'mm' (MatMul, opset 13): contraction sizes differ: lhs has 3 and "
    "rhs has 4")
expect("broadcast-mismatch", model(
    [helper.make_node("Add", ["a", "b"], ["c"], name="add")],
    [tensor("a", [2, 3]), tensor("b", [4])], [tensor("c", [2, 3])]),
    "node 'add' (Add, opset 13): operand shapes 2x3, 4 are not "
    "broadcast-compatible")
expect("bad-attribute-type", model(
    [helper.make_node("Softmax", ["x"], ["y"], name="sm", axis="last")],
    [x4], [tensor("y", [4])]),
    "node 'sm' (Softmax, opset 13): attribute 'axis' must be an integer")
expect("bad-attribute-value", model(
    [helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=3)],
    [x4], [tensor("y", [4])]),
    "node 'sm' (Softmax, opset 13): axis 3 is out of range for rank 1")
expect("missing-input", model(
    [helper.make_node("Add", ["x"], ["y"], name="add")], [x4],
    [tensor("y", [4])]),
    "node 'add' (Add, opset 13): input 1 is required")

# --- Initializers: sizes checked, arithmetic overflow-checked ---------------
short = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[2, 3],
                    float_data=[1.0, 2.0])
expect("initializer-too-few-values", model(
    [helper.make_node("Add", ["x6", "w"], ["y"])], [tensor("x6", [2, 3])],
    [tensor("y", [2, 3])], [short]),
    "tensor 'w' holds 2 values but its shape has 6 elements")
raw = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4],
                  raw_data=b"\0" * 15)
expect("raw-data-size", model([helper.make_node("Add", ["x", "w"], ["y"])],
                              [x4], [tensor("y", [4])], [raw]),
       "tensor 'w' has 15 bytes of data but its shape needs 16")
huge = TensorProto(name="w", data_type=TensorProto.FLOAT,
                   dims=[1 << 40, 1 << 40], raw_data=b"\0" * 4)
expect("overflowing-dims", model([helper.make_node("Add", ["x", "w"], ["y"])],
                                 [x4], [tensor("y", [4])], [huge]),
       "tensor 'w' has a negative dimension or more elements than fit in 64 "
       "bits")
negative = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[-3])
expect("negative-dim", model([helper.make_node("Add", ["x", "w"], ["y"])],
                             [x4], [tensor("y", [4])], [negative]),
       "tensor 'w' has a negative dimension")
expect("overflowing-input", model(
    [helper.make_node("Relu", ["big"], ["y"])],
    [tensor("big", [1 << 40, 1 << 40])], [tensor("y", [1])]),
    "graph input 'big' has more elements than fit in 64 bits")
complex_init = TensorProto(name="w", data_type=TensorProto.COMPLEX64, dims=[1])
expect("complex-initializer", model(
    [helper.make_node("Identity", ["w"], ["y"])], [], [tensor("y", [1])],
    [complex_init]), "tensor 'w' has type complex64, which aicc does not "
    "support")

# --- External data: only from inside the model's folder --------------------
def external(name, location, offset=None, length=None, prepare=None,
             *messages):
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    if prepare:
        prepare(folder)
    t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4],
                    data_location=TensorProto.EXTERNAL)
    for key, value in (("location", location), ("offset", offset),
                       ("length", length)):
        if value is not None:
            entry = t.external_data.add()
            entry.key, entry.value = key, str(value)
    expect(name, model([helper.make_node("Add", ["x", "w"], ["y"])], [x4],
                       [tensor("y", [4])], [t]), *messages)


def write_data(folder, name="data.bin", size=16):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(b"\0" * size)


external("external-parent", "../secret.bin", None, None, None,
         "external data location '../secret.bin' of tensor 'w' leaves the "
         "model's folder")
external("external-absolute", "/etc/passwd", None, None, None,
         "external data location '/etc/passwd' of tensor 'w' is not a "
         "relative path inside the model's folder")
external("external-inner-parent", "sub/../../x.bin", None, None, None,
         "leaves the model's folder")
external("external-symlink", "link.bin", None, None,
         lambda f: os.symlink("/etc/hostname", os.path.join(f, "link.bin")),
         "resolves outside the model's folder")


def hard_link(folder):
    outside = os.path.join(work, "outside.bin")
    with open(outside, "wb") as f:
        f.write(b"\0" * 16)
    os.link(outside, os.path.join(folder, "hard.bin"))


external("external-hard-link", "hard.bin", None, None, hard_link,
         "has several hard links")
# A FIFO would block the open until a writer came: refused, not waited on
# (the 60 s timeout of `expect` fails the test if it hangs).
external("external-fifo", "pipe", None, None,
         lambda f: os.mkfifo(os.path.join(f, "pipe")),
         "external data 'pipe' is not a regular file")
external("external-missing", "absent.bin", None, None, None,
         "cannot open external data 'absent.bin' of tensor 'w'")
external("external-offset-past-end", "data.bin", 64, None, write_data,
         "external data offset 64 of tensor 'w' is past the end of "
         "'data.bin' (16 bytes)")
external("external-length-past-end", "data.bin", 8, 16, write_data,
         "runs past the end of 'data.bin'")
external("external-wrong-length", "data.bin", 0, 12, write_data,
         "external data of tensor 'w' has 12 bytes but its shape needs 16")
external("external-bad-offset", "data.bin", "-4", None, write_data,
         "external data offset '-4' of tensor 'w' is not a non-negative "
         "integer")
external("external-no-location", None, 0, None, write_data,
         "tensor 'w' has external data without a location")
external("external-directory", "sub", None, None,
         lambda f: os.makedirs(os.path.join(f, "sub")),
         "external data 'sub' is not a regular file")

# --- Command-line shape pins ------------------------------------------------
dyn = model([helper.make_node("Relu", ["x"], ["y"])], [tensor("x", ["N", 4])],
            [tensor("y", ["N", 4])])
expect("pin-unknown-input", dyn, "--input-shape names 'z', which is not an "
       "input of the model", args=["--input-shape=z=1x4"])
expect("pin-wrong-rank", dyn, "--input-shape gives 'x' rank 3 but the model "
       "declares rank 2", args=["--input-shape=x=1x4x5"])
expect("pin-contradicts-model", dyn, "--input-shape gives 'x' a size 5 where "
       "the model fixes 4", args=["--input-shape=x=2x5"])
expect("pin-bad-syntax", dyn, "--input-shape expects NAME=DxDx..., got "
       "'x=2xfour'", args=["--input-shape=x=2xfour"])

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"{count} malformed inputs refused with the expected errors")
