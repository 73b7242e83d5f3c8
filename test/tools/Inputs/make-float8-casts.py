#!/usr/bin/python3
"""Writes, for each 8-bit float type, a model that casts floats to it and
back (Cast saturate=1, opset 19), an input covering every code of the type,
the midpoints between neighbouring codes (ties), values beyond the largest
finite one, infinities and NaN, and the expected output computed here from
the types' definitions.

    make-float8-casts.py DIR

DIR/<type>/model.onnx, x.npy, expected/output_0.npy for type in e4m3fn,
e4m3fnuz, e5m2, e5m2fnuz. Expected: round to nearest, ties to the even
code, saturated at the largest finite value; NaN stays NaN. DIR/weight/
is a MatMul with an e4m3fn weight behind DequantizeLinear.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# (name, ONNX data type, exponent bits, mantissa bits, bias, fnuz, ieee)
FORMATS = [("e4m3fn", 17, 4, 3, 7, False, False),
           ("e4m3fnuz", 18, 4, 3, 8, True, False),
           ("e5m2", 19, 5, 2, 15, False, True),
           ("e5m2fnuz", 20, 5, 2, 16, True, False)]


def decode(code, e, m, bias, fnuz, ieee):
    sign = -1.0 if code & 0x80 else 1.0
    exponent, mantissa = (code >> m) & ((1 << e) - 1), code & ((1 << m) - 1)
    if fnuz and code == 0x80:
        return np.nan
    if ieee and exponent == (1 << e) - 1:
        return sign * np.inf if mantissa == 0 else np.nan
    if not fnuz and not ieee and code & 0x7f == 0x7f:
        return np.nan
    if exponent == 0:
        return sign * mantissa * 2.0 ** (1 - bias - m)
    return sign * (1 + mantissa / 2 ** m) * 2.0 ** (exponent - bias)


work = sys.argv[1]
rng = np.random.default_rng(8)
for name, dtype, e, m, bias, fnuz, ieee in FORMATS:
    values = np.array([decode(c, e, m, bias, fnuz, ieee) for c in range(256)])
    finite = np.unique(values[np.isfinite(values)])  # sorted, +0 once
    largest = finite.max()
    mids = (finite[1:] + finite[:-1]) / 2
    x = np.concatenate([finite, mids, [largest * 1.02, largest * 4, -largest
                                       * 8, np.inf, -np.inf, np.nan, 1e-30,
                                       -1e-30],
                        rng.standard_normal(200) * largest / 8])
    x = x.astype(np.float32)

    def reference(v):
        if np.isnan(v):
            return np.nan
        if abs(v) >= largest:
            return np.copysign(largest, v)
        distance = np.abs(finite - np.float64(v))
        best = np.flatnonzero(distance == distance.min())
        if len(best) == 1:
            return finite[best[0]]
        # A tie: the neighbour whose code is even.
        even = [b for b in best
                if next(c for c in range(256)
                        if values[c] == finite[b]) % 2 == 0]
        return finite[even[0]]

    y = np.array([reference(v) for v in x], np.float32)
    y = np.where(y == 0, 0.0, y).astype(np.float32)
    folder = os.path.join(work, name)
    os.makedirs(os.path.join(folder, "expected"), exist_ok=True)
    graph = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["q"], to=dtype, saturate=1),
         helper.make_node("Cast", ["q"], ["y"], to=TensorProto.FLOAT)],
        "cast", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                               x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, x.shape)])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = 9
    onnx.save(model, os.path.join(folder, "model.onnx"))
    np.save(os.path.join(folder, "x.npy"), x)
    np.save(os.path.join(folder, "expected", "output_0.npy"), y)
    print(name)

# A MatMul whose weight is stored as e4m3fn codes and dequantized (as
# NVIDIA ModelOpt and ONNX Runtime's quantizer write fp8 weights): the
# bundle holds the weight in one byte per element.
e4m3 = np.array([decode(c, 4, 3, 7, False, False) for c in range(256)])
weight = rng.integers(0, 256, (256, 64)).astype(np.uint8)
weight[np.isnan(e4m3[weight])] = 0
tensor = onnx.TensorProto(name="w", data_type=17, dims=[256, 64],
                          raw_data=weight.tobytes())
scale = numpy_helper.from_array(np.float32(0.01), "sw")
graph = helper.make_graph(
    [helper.make_node("DequantizeLinear", ["w", "sw"], ["wd"]),
     helper.make_node("MatMul", ["x", "wd"], ["y"])], "fp8-weight",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 256])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 64])],
    [tensor, scale])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
model.ir_version = 9
folder = os.path.join(work, "weight")
os.makedirs(os.path.join(folder, "expected"), exist_ok=True)
onnx.save(model, os.path.join(folder, "model.onnx"))
x = rng.standard_normal((4, 256)).astype(np.float32)
np.save(os.path.join(folder, "x.npy"), x)
np.save(os.path.join(folder, "expected", "output_0.npy"),
        (x.astype(np.float64) @ (e4m3[weight] * np.float64(np.float32(0.01))))
        .astype(np.float32))
print("weight")
