#!/usr/bin/python3
"""The demo: a small real model, compiled by aicc and run by aicc-run.

Trains scikit-learn's multi-layer perceptron on the handwritten digits that
Debian's python3-sklearn ships (deterministically: fixed split and seed),
writes it as ONNX with onnx.helper, compiles it with `aicc`, runs it on the
held-out digits with `aicc-run`, and compares predictions and accuracy with
the same model run by scikit-learn.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier


def train():
    digits = load_digits()
    x_train, x_test, y_train, y_test = train_test_split(
        digits.data.astype(np.float32), digits.target, test_size=0.25,
        random_state=0, stratify=digits.target)
    model = MLPClassifier(hidden_layer_sizes=(64, 32), max_iter=400,
                          random_state=0)
    # Pixels are 0..16; the network sees them scaled to 0..1, and so does
    # the ONNX graph (its first node divides by 16).
    model.fit(x_train / 16.0, y_train)
    return model, x_test, y_test


def to_onnx(model, batch):
    """pixels [batch, 64] -> Div 16 -> (Gemm, Relu)* -> Gemm -> Softmax."""
    nodes, initializers = [], [
        numpy_helper.from_array(np.array(16.0, np.float32), "scale")]
    nodes.append(helper.make_node("Div", ["pixels", "scale"], ["h0"]))
    current = "h0"
    layers = len(model.coefs_)
    for i, (w, b) in enumerate(zip(model.coefs_, model.intercepts_)):
        initializers += [numpy_helper.from_array(w.astype(np.float32), f"w{i}"),
                         numpy_helper.from_array(b.astype(np.float32), f"b{i}")]
        out = f"z{i}"
        nodes.append(helper.make_node("Gemm", [current, f"w{i}", f"b{i}"],
                                      [out]))
        if i + 1 < layers:
            nodes.append(helper.make_node("Relu", [out], [f"a{i}"]))
            current = f"a{i}"
        else:
            current = out
    nodes.append(helper.make_node("Softmax", [current], ["probabilities"],
                                  axis=1))
    graph = helper.make_graph(
        nodes, "digits_mlp",
        [helper.make_tensor_value_info("pixels", TensorProto.FLOAT,
                                       [batch, 64])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT,
                                       [batch, 10])],
        initializers)
    onnx_model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)],
        producer_name="aicc-demo")
    onnx.checker.check_model(onnx_model)
    return onnx_model


def run(command):
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin",
                        help="folder holding aicc and aicc-run")
    parser.add_argument("--work", default="build/demo",
                        help="folder for the model, bundle and outputs")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)

    model, x_test, y_test = train()
    onnx_path = os.path.join(args.work, "digits.onnx")
    onnx.save(to_onnx(model, len(x_test)), onnx_path)
    input_path = os.path.join(args.work, "pixels.npy")
    np.save(input_path, x_test)
    print(f"trained scikit-learn MLP {model.hidden_layer_sizes} on "
          f"{1797 - len(x_test)} digits; wrote {onnx_path}")

    bundle = os.path.join(args.work, "digits.bin")
    out_dir = os.path.join(args.work, "out")
    run([os.path.join(args.bin, "aicc"), onnx_path, "-o", bundle])
    run([os.path.join(args.bin, "aicc-run"), bundle, "-i", input_path,
         "--output-dir", out_dir])

    ours = np.load(os.path.join(out_dir, "output_0.npy"))
    theirs = model.predict_proba(x_test / 16.0)
    ours_pred = ours.argmax(axis=1)
    theirs_pred = model.predict(x_test / 16.0)
    print()
    print("first 20 held-out digits")
    print("  label:  ", " ".join(str(v) for v in y_test[:20]))
    print("  aicc:   ", " ".join(str(v) for v in ours_pred[:20]))
    print("  sklearn:", " ".join(str(v) for v in theirs_pred[:20]))
    accuracy = (ours_pred == y_test).mean()
    reference = (theirs_pred == y_test).mean()
    agree = (ours_pred == theirs_pred).mean()
    diff = np.abs(ours - theirs).max()
    print(f"accuracy on {len(y_test)} held-out digits: aicc {accuracy:.4f}, "
          f"scikit-learn {reference:.4f}")
    print(f"predictions agreeing: {agree * 100:.1f}%; largest probability "
          f"difference {diff:.2e}")
    if agree != 1.0 or diff > 1e-4:
        print("demo: aicc and scikit-learn disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
