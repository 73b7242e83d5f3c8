#!/usr/bin/python3
"""Exports the CPU benchmark models from Debian's python3-torchvision.

ResNet-50, MobileNetV3-Large and ViT-B/16 with torchvision's own
initialization under a fixed seed (no pretrained weights: the machine has no
network), batch 1, 3x224x224, ONNX opset 14. ViT's classification head is
zero-initialized by torchvision, which would make every output zero; it is
re-drawn from a normal distribution so that outputs can be compared.
Writes MODEL.onnx for each model and input.npy into the output folder.
"""
import argparse
import os

import numpy as np
import torch
import torchvision

MODELS = {
    "resnet50": torchvision.models.resnet50,
    "mobilenet_v3_large": torchvision.models.mobilenet_v3_large,
    "vit_b_16": torchvision.models.vit_b_16,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("models", nargs="*", default=list(MODELS))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    x = torch.randn(1, 3, 224, 224)
    np.save(os.path.join(args.out, "input.npy"), x.numpy())
    for name in args.models:
        path = os.path.join(args.out, name + ".onnx")
        if os.path.exists(path):
            print(f"{path}: exists")
            continue
        torch.manual_seed(0)
        model = MODELS[name]()
        if name == "vit_b_16":
            torch.nn.init.normal_(model.heads.head.weight, std=0.02)
        model.eval()
        # Not under torch.no_grad(): there ViT's attention takes the fused
        # fast path, which has no ONNX export.
        torch.onnx.export(model, x, path, opset_version=14,
                          input_names=["input"], output_names=["output"])
        print(f"{path}: exported")


if __name__ == "__main__":
    main()
