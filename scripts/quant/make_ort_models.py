#!/usr/bin/env python3
"""Quantizes small float models with ONNX Runtime's own tools, as users do,
and records ONNX Runtime's outputs, for checking aicc's import of every
quantized form those tools write.

    make_ort_models.py OUT

Needs torch, onnx and python onnxruntime (with onnxruntime.quantization).
Float models (random weights, exported with torch.onnx): `cnn` (conv, batch
norm, residual add, pooling, a final Gemm), `mlp` (two Linear layers) and
`bert` (a 2-layer BERT encoder from transformers, hidden size 64).

Each variant OUT/<model>-<form>/ holds model.onnx, input_<k>.npy,
expected/output_0.npy (ONNX Runtime with every graph optimization) and
unoptimized/output_0.npy (with none): their difference is how far two
ONNX Runtime executions of the same quantized model disagree. Forms:

  float        the float model
  qdq-u8s8-pc  quantize_static, QDQ, uint8 activations, int8 weights per
               channel
  qdq-s8s8     quantize_static, QDQ, int8 activations and weights per tensor
  qop-u8s8-pc  quantize_static, QOperator (QLinearConv, QLinearAdd, QGemm,
               QLinearGlobalAveragePool, ...)
  dynamic      quantize_dynamic (DynamicQuantizeLinear + ConvInteger /
               MatMulInteger)
  int4         MatMulNBits 4-bit weights, blocks of 32 (MatMul models)
  fp8          quantize_static, QDQ with float8 e4m3fn (per tensor)
  *-ortopt     the quantized model as ONNX Runtime's optimizer rewrites it
               (com.microsoft fused forms: QGemm, DynamicQuantizeMatMul,
               MatMulIntegerToFloat, QLinear* ...)

A summary line per variant goes to OUT/summary.txt.
"""
import os
import shutil
import sys
import traceback

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnxruntime import quantization as q

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(5)
torch.manual_seed(0)
summary = open(os.path.join(out, "summary.txt"), "w")


def log(line):
    print(line, flush=True)
    summary.write(line + "\n")
    summary.flush()


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.b1 = torch.nn.BatchNorm2d(16)
        self.c2 = torch.nn.Conv2d(16, 16, 3, padding=1)
        self.c3 = torch.nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(32, 10)

    def forward(self, x):
        h = torch.relu(self.b1(self.c1(x)))
        h = torch.relu(self.c2(h) + h)
        h = torch.nn.functional.avg_pool2d(h, 2)
        h = torch.relu(self.c3(h))
        h = torch.nn.functional.adaptive_avg_pool2d(h, 1).flatten(1)
        return torch.sigmoid(self.fc(h))


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(64, 128)
        self.l2 = torch.nn.Linear(128, 10)

    def forward(self, x):
        return self.l2(torch.nn.functional.leaky_relu(self.l1(x), 0.1))


def export(name, module, example, input_names):
    module.eval()
    path = os.path.join(out, "_float", name + ".onnx")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.onnx.export(module, example, path, opset_version=17,
                      input_names=input_names, output_names=["y"],
                      dynamo=False)
    return path


def bert():
    from transformers import BertConfig, BertModel
    config = BertConfig(vocab_size=200, hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=128,
                        max_position_embeddings=32)
    model = BertModel(config)

    class Wrap(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = model

        def forward(self, ids, mask):
            return self.bert(input_ids=ids, attention_mask=mask)[0]

    ids = torch.randint(0, 200, (2, 16))
    mask = torch.ones(2, 16, dtype=torch.int64)
    return Wrap(), (ids, mask), ["ids", "mask"]


def samples(name, count):
    if name == "cnn":
        return [{"x": rng.standard_normal((2, 3, 16, 16)).astype(np.float32)}
                for _ in range(count)]
    if name == "mlp":
        return [{"x": rng.standard_normal((4, 64)).astype(np.float32)}
                for _ in range(count)]
    return [{"ids": rng.integers(0, 200, (2, 16)).astype(np.int64),
             "mask": np.ones((2, 16), np.int64)} for _ in range(count)]


class Reader(q.CalibrationDataReader):
    def __init__(self, feeds):
        self.feeds = iter(feeds)

    def get_next(self):
        return next(self.feeds, None)


def run(path, feeds, level):
    options = ort.SessionOptions()
    options.graph_optimization_level = level
    session = ort.InferenceSession(path, options,
                                   providers=["CPUExecutionProvider"])
    return session.run(None, feeds)[0]


def record(variant, path, feeds, reference=None):
    folder = os.path.join(out, variant)
    os.makedirs(os.path.join(folder, "expected"), exist_ok=True)
    os.makedirs(os.path.join(folder, "unoptimized"), exist_ok=True)
    shutil.copy(path, os.path.join(folder, "model.onnx"))
    for k, value in enumerate(feeds.values()):
        np.save(os.path.join(folder, f"input_{k}.npy"), value)
    full = run(path, feeds, ort.GraphOptimizationLevel.ORT_ENABLE_ALL)
    none = run(path, feeds, ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    np.save(os.path.join(folder, "expected", "output_0.npy"), full)
    np.save(os.path.join(folder, "unoptimized", "output_0.npy"), none)
    ops = sorted({(n.domain or "") + ":" + n.op_type
                  for n in onnx.load(path).graph.node})
    line = (f"{variant:28s} ort-all-vs-none {np.abs(full - none).max():.4g}")
    if reference is not None:
        line += f"  vs-float {np.abs(full - reference).max():.4g}"
    log(line + "  ops " + " ".join(ops))
    # ONNX Runtime's own rewrite of the model (fused com.microsoft forms).
    if not variant.endswith(("float", "-ortopt")):
        options = ort.SessionOptions()
        options.graph_optimization_level = \
            ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        opt = os.path.join(out, "_float", variant + "-ortopt.onnx")
        options.optimized_model_filepath = opt
        ort.InferenceSession(path, options,
                             providers=["CPUExecutionProvider"])
        if any(n.domain == "com.microsoft" for n in onnx.load(opt).graph.node):
            record(variant + "-ortopt", opt, feeds, reference)


def main():
    models = {"cnn": export("cnn", Cnn(), torch.randn(2, 3, 16, 16), ["x"]),
              "mlp": export("mlp", Mlp(), torch.randn(4, 64), ["x"])}
    try:
        module, example, names = bert()
        models["bert"] = export("bert", module, example, names)
    except Exception:
        traceback.print_exc()
    for name, path in models.items():
        feeds = samples(name, 1)[0]
        reference = run(path, feeds,
                        ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
        record(f"{name}-float", path, feeds)
        pre = os.path.join(out, "_float", name + "-pre.onnx")
        try:
            q.quant_pre_process(path, pre)
        except Exception:
            shutil.copy(path, pre)
        forms = {
            "qdq-u8s8-pc": dict(quant_format=q.QuantFormat.QDQ,
                                activation_type=q.QuantType.QUInt8,
                                weight_type=q.QuantType.QInt8,
                                per_channel=True),
            "qdq-s8s8": dict(quant_format=q.QuantFormat.QDQ,
                             activation_type=q.QuantType.QInt8,
                             weight_type=q.QuantType.QInt8,
                             per_channel=False),
            "qop-u8s8-pc": dict(quant_format=q.QuantFormat.QOperator,
                                activation_type=q.QuantType.QUInt8,
                                weight_type=q.QuantType.QInt8,
                                per_channel=True),
            "fp8": dict(quant_format=q.QuantFormat.QDQ,
                        activation_type=q.QuantType.QFLOAT8E4M3FN,
                        weight_type=q.QuantType.QFLOAT8E4M3FN,
                        calibrate_method=q.CalibrationMethod.Distribution,
                        op_types_to_quantize=["MatMul", "Gemm", "Conv"]),
        }
        for form, kwargs in forms.items():
            variant = f"{name}-{form}"
            target = os.path.join(out, "_float", variant + ".onnx")
            try:
                q.quantize_static(pre, target, Reader(samples(name, 16)),
                                  **kwargs)
                record(variant, target, feeds, reference)
            except Exception as error:
                log(f"{variant:28s} FAILED {type(error).__name__}: "
                    f"{str(error)[:200]}")
        variant = f"{name}-dynamic"
        target = os.path.join(out, "_float", variant + ".onnx")
        try:
            q.quantize_dynamic(pre, target, weight_type=q.QuantType.QInt8)
            record(variant, target, feeds, reference)
        except Exception as error:
            log(f"{variant:28s} FAILED {type(error).__name__}: "
                f"{str(error)[:200]}")
        if name != "cnn":
            variant = f"{name}-int4"
            target = os.path.join(out, "_float", variant + ".onnx")
            try:
                from onnxruntime.quantization.matmul_nbits_quantizer import \
                    MatMulNBitsQuantizer
                quantizer = MatMulNBitsQuantizer(onnx.load(pre), block_size=32,
                                                 is_symmetric=False)
                quantizer.process()
                quantizer.model.save_model_to_file(target)
                record(variant, target, feeds, reference)
            except Exception as error:
                log(f"{variant:28s} FAILED {type(error).__name__}: "
                    f"{str(error)[:200]}")
    shutil.rmtree(os.path.join(out, "_float"))


main()
