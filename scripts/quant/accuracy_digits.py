#!/usr/bin/python3
"""Accuracy of aicc's post-training quantization on models trained here:
an MLP and a small CNN trained with torch on scikit-learn's digits (both
from Debian: python3-torch, python3-sklearn), evaluated on the held-out
split in fp32 and after `aicc --quantize` (int8 with minmax, entropy and
percentile calibration, fp8, int4-weight).

    accuracy_digits.py --work DIR [--bin build/bin] [--json FILE]
                       [--cpu native]

Digits: 1797 8x8 images, 10 classes; 1437 to train, 360 held out (fixed
split). Calibration: 8 batches of training images (the model's batch is
the 360 held-out images, so one run evaluates them all). Prints, per model
and mode, the accuracy, its change from fp32 in points, and the share of
held-out images whose predicted class agrees with the fp32 model's.
"""
import argparse
import json
import os
import subprocess

import numpy as np
import torch
from sklearn.datasets import load_digits

parser = argparse.ArgumentParser()
parser.add_argument("--work", required=True)
parser.add_argument("--bin", default="build/bin")
parser.add_argument("--json")
parser.add_argument("--cpu", default="native",
                    help="aicc's --cpu (native: int8 on VNNI where the host "
                         "has it)")
args = parser.parse_args()
os.makedirs(args.work, exist_ok=True)

digits = load_digits()
images = (digits.images / 16.0).astype(np.float32)
labels = digits.target
order = np.random.default_rng(0).permutation(len(images))
test, train = order[:360], order[360:]
batch = len(test)


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(64, 128)
        self.l2 = torch.nn.Linear(128, 10)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x.flatten(1))))


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(1, 16, 3, padding=1)
        self.c2 = torch.nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(32 * 4 * 4, 10)

    def forward(self, x):
        h = torch.relu(self.c1(x))
        h = torch.relu(self.c2(h))
        return self.fc(h.flatten(1))


def train_model(model):
    torch.manual_seed(0)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    x = torch.from_numpy(images[train][:, None])
    y = torch.from_numpy(labels[train])
    for epoch in range(60):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 64):
            idx = perm[i:i + 64]
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x[idx]), y[idx])
            loss.backward()
            optimizer.step()
    model.eval()
    return model


def run_bundle(bundle, x_path, out):
    subprocess.run([os.path.join(args.bin, "aicc-run"), bundle, "-i", x_path,
                    "--output-dir", out], check=True, capture_output=True)
    files = sorted(f for f in os.listdir(out) if f.endswith(".npy"))
    return np.load(os.path.join(out, files[0]))


MODES = {
    "fp32": [],
    "int8 minmax": ["--quantize=int8", "--per-channel"],
    "int8 entropy": ["--quantize=int8", "--per-channel",
                     "--calibration-method=entropy"],
    "int8 percentile": ["--quantize=int8", "--per-channel",
                        "--calibration-method=percentile"],
    "fp8": ["--quantize=fp8"],
    "int4-weight": ["--quantize=int4-weight", "--quantize-block-size=32"],
}

rows = []
for name, factory in [("mlp", Mlp), ("cnn", Cnn)]:
    folder = os.path.join(args.work, name)
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(0)
    model = train_model(factory())
    path = os.path.join(folder, "model.onnx")
    torch.onnx.export(model, torch.zeros(batch, 1, 8, 8), path,
                      opset_version=13, input_names=["x"],
                      output_names=["logits"])
    x_path = os.path.join(folder, "x.npy")
    np.save(x_path, images[test][:, None])
    np.save(os.path.join(folder, "labels.npy"), labels[test])
    for s in range(8):
        sample = os.path.join(folder, "calibration", f"sample_{s}")
        os.makedirs(sample, exist_ok=True)
        chosen = np.roll(train, -s * batch)[:batch]
        np.save(os.path.join(sample, "input_0.npy"), images[chosen][:, None])
    reference = None
    for mode, flags in MODES.items():
        bundle = os.path.join(folder, mode.replace(" ", "-") + ".bin")
        extra = [f"--calibration-data={folder}/calibration"] \
            if mode.startswith(("int8", "fp8")) else []
        subprocess.run([os.path.join(args.bin, "aicc"), path, *flags, *extra,
                        f"--cpu={args.cpu}", "-o", bundle], check=True,
                       capture_output=True)
        logits = run_bundle(bundle, x_path, bundle + ".out")
        predicted = logits.argmax(1)
        if reference is None:
            reference = predicted
        accuracy = float((predicted == labels[test]).mean())
        rows.append({"model": name, "mode": mode, "accuracy": accuracy,
                     "agreement": float((predicted == reference).mean())})
fp32 = {r["model"]: r["accuracy"] for r in rows if r["mode"] == "fp32"}
print(f"{'model':6s} {'mode':16s} {'accuracy':>9s} {'change':>8s} "
      f"{'agrees with fp32':>17s}")
for r in rows:
    change = 100 * (r["accuracy"] - fp32[r["model"]])
    print(f"{r['model']:6s} {r['mode']:16s} {100 * r['accuracy']:8.2f}% "
          f"{change:+7.2f} {100 * r['agreement']:16.2f}%")
if args.json:
    with open(args.json, "w") as f:
        json.dump(rows, f, indent=1)
