#!/usr/bin/python3
"""Writes a QDQ BERT as ONNX Runtime's quantizer makes it, for the CPU
latency comparison (needs transformers and python onnxruntime: run it on
the GPU machine, whose Python has both).

    make_qdq_bert.py DIR [--layers 4]

A BERT encoder of BERT-base's width (hidden 768, 12 heads, FFN 3072) with
--layers layers and a vocabulary of 1000 (the embedding table stays
float; a small one keeps the file small), transformers' initialization
under a fixed seed, batch 1, sequence 128, exported at opset 17 and
quantized by onnxruntime.quantization.quantize_static: QDQ, U8 activations,
S8 weights per channel, calibrated on 8 random sequences. Writes
DIR/bert-qdq.onnx (also split into DIR/bert-qdq.onnx.part-* of at most
15 MiB, for transfer) and DIR/ids.npy.
"""
import argparse
import os

import numpy as np
import torch
import transformers
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat,
                                      QuantType, quantize_static)

SEQ = 128


class LastHidden(torch.nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, ids):
        return self.inner(input_ids=ids).last_hidden_state


class Samples(CalibrationDataReader):
    def __init__(self, count):
        rng = np.random.default_rng(1)
        self.batches = iter([{"ids": rng.integers(0, 1000, (1, SEQ))}
                             for _ in range(count)])

    def get_next(self):
        return next(self.batches, None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--layers", type=int, default=4)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=1000,
                                     num_hidden_layers=args.layers,
                                     attn_implementation="eager")
    model = LastHidden(transformers.BertModel(config,
                                              add_pooling_layer=False))
    model.eval()
    ids = torch.randint(0, 1000, (1, SEQ))
    float_path = os.path.join(args.dir, "bert-float.onnx")
    torch.onnx.export(model, (ids,), float_path, input_names=["ids"],
                      output_names=["y"], opset_version=17, dynamo=False)
    path = os.path.join(args.dir, "bert-qdq.onnx")
    quantize_static(float_path, path, Samples(8), quant_format=QuantFormat.QDQ,
                    per_channel=True, activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8)
    np.save(os.path.join(args.dir, "ids.npy"), ids.numpy())
    with open(path, "rb") as f:
        data = f.read()
    part = 15 << 20
    for i in range(0, len(data), part):
        with open(f"{path}.part-{i // part}", "wb") as f:
            f.write(data[i:i + part])
    print(f"{path}: {len(data)} bytes")


if __name__ == "__main__":
    main()
