#!/usr/bin/python3
"""Writes one small model per fused float operator of the com.microsoft
domain (as ONNX Runtime's optimizer saves them), each with an input and its
output computed here with numpy.

    make-ms-fusion-models.py DIR

Each DIR/<name>/ holds model.onnx (float input x -> the operator, its other
operands constants -> y), x.npy, expected/output_0.npy and atol. The names
are printed one per line.
"""
import math
import sys

import numpy as np
from onnx import helper, numpy_helper

from ms_models import MS, write_case

work = sys.argv[1]
rng = np.random.default_rng(17)
erf = np.vectorize(math.erf)


def write(name, node, x, y, initializers=(), atol=1e-5):
    write_case(work, name, [node], x, y,
               [numpy_helper.from_array(v, k) for k, v in initializers], atol,
               opset=17)


def gelu(v):
    return 0.5 * v * (1 + erf(v / math.sqrt(2)))


x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
w = rng.standard_normal((2, 3, 6, 5)).astype(np.float32)
write("fusedmatmul",
      helper.make_node("FusedMatMul", ["x", "w"], ["y"], domain=MS,
                       alpha=0.5, transB=1),
      x, 0.5 * x.astype(np.float64) @ np.swapaxes(w, -1, -2), [("w", w)])

x = rng.standard_normal((3, 8)).astype(np.float32)
w = rng.standard_normal((6, 8)).astype(np.float32)
b = rng.standard_normal(6).astype(np.float32)
g = x.astype(np.float64) @ w.T.astype(np.float64) + b
for activation, reference, extra in [
        ("Relu", np.maximum(g, 0), {}),
        ("LeakyRelu", np.where(g >= 0, g, 0.2 * g),
         {"activation_alpha": 0.2})]:
    write(f"fusedgemm-{activation.lower()}",
          helper.make_node("FusedGemm", ["x", "w", "b"], ["y"], domain=MS,
                           transB=1, activation=activation, **extra),
          x, reference, [("w", w), ("b", b)])

x = rng.standard_normal((4, 16)).astype(np.float32)
bias = rng.standard_normal(16).astype(np.float32)
write("gelu", helper.make_node("Gelu", ["x"], ["y"], domain=MS), x,
      gelu(x.astype(np.float64)))
write("biasgelu", helper.make_node("BiasGelu", ["x", "bias"], ["y"],
                                   domain=MS),
      x, gelu(x.astype(np.float64) + bias), [("bias", bias)])
v = x.astype(np.float64) + bias
write("fastgelu", helper.make_node("FastGelu", ["x", "bias"], ["y"],
                                   domain=MS),
      x, 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                (v + 0.044715 * v ** 3))),
      [("bias", bias)], atol=1e-4)
write("quickgelu", helper.make_node("QuickGelu", ["x"], ["y"], domain=MS,
                                    alpha=1.5),
      x, x / (1 + np.exp(-1.5 * x.astype(np.float64))))

x = rng.standard_normal((2, 5, 16)).astype(np.float32)
skip = rng.standard_normal((2, 5, 16)).astype(np.float32)
gamma = rng.standard_normal(16).astype(np.float32)
beta = rng.standard_normal(16).astype(np.float32)
s = x.astype(np.float64) + skip + bias
normalized = (s - s.mean(-1, keepdims=True)) / np.sqrt(
    s.var(-1, keepdims=True) + 1e-5)
write("skiplayernormalization",
      helper.make_node("SkipLayerNormalization",
                       ["x", "skip", "gamma", "beta", "bias"], ["y"],
                       domain=MS, epsilon=1e-5),
      x, normalized * gamma + beta,
      [("skip", skip), ("gamma", gamma), ("beta", beta), ("bias", bias)],
      atol=1e-4)
