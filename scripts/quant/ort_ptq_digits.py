#!/usr/bin/env python3
"""ONNX Runtime's post-training quantization of the digits models of
accuracy_digits.py, from the same calibration samples, for comparison
with aicc's: quantize_static (QDQ, uint8 activations, int8 weights per
channel, minmax and entropy calibration), run by ONNX Runtime on the CPU.

    ort_ptq_digits.py DIR     (DIR: accuracy_digits.py's --work)

Needs python onnxruntime with onnxruntime.quantization. Prints the
accuracy of each model and method on the held-out images.
"""
import glob
import os
import sys

import numpy as np
import onnxruntime as ort
from onnxruntime import quantization as q

work = sys.argv[1]


class Reader(q.CalibrationDataReader):
    def __init__(self, folder):
        self.files = iter(sorted(glob.glob(
            os.path.join(folder, "calibration", "*", "input_0.npy"))))

    def get_next(self):
        path = next(self.files, None)
        return None if path is None else {"x": np.load(path)}


for name in ("mlp", "cnn"):
    folder = os.path.join(work, name)
    x = np.load(os.path.join(folder, "x.npy"))
    labels = np.load(os.path.join(folder, "labels.npy"))

    def accuracy(path):
        session = ort.InferenceSession(path,
                                       providers=["CPUExecutionProvider"])
        return float((session.run(None, {"x": x})[0].argmax(1) ==
                      labels).mean())

    print(f"{name} fp32 (ONNX Runtime) {100 * accuracy(os.path.join(folder, 'model.onnx')):.2f}%")
    for method in ("MinMax", "Entropy"):
        out = os.path.join(folder, f"ort-int8-{method.lower()}.onnx")
        q.quantize_static(os.path.join(folder, "model.onnx"), out,
                          Reader(folder), quant_format=q.QuantFormat.QDQ,
                          activation_type=q.QuantType.QUInt8,
                          weight_type=q.QuantType.QInt8, per_channel=True,
                          calibrate_method=getattr(q.CalibrationMethod,
                                                   method))
        print(f"{name} int8 {method.lower()} (ONNX Runtime quantize_static) "
              f"{100 * accuracy(out):.2f}%")
