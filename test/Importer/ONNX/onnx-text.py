#!/usr/bin/python3
"""Builds an ONNX model from a lit test file written in ONNX text syntax.

    onnx-text.py TEST_FILE OUTPUT.onnx

Lines whose first non-blank characters are `//` (RUN and CHECK lines) are
dropped; the rest is parsed with onnx.parser and saved. The parser does not
check the model, so tests can describe invalid ones.
"""
import sys

import onnx
import onnx.parser

source, output = sys.argv[1], sys.argv[2]
with open(source) as f:
    text = "".join(l for l in f if not l.lstrip().startswith("//"))
onnx.save(onnx.parser.parse_model(text), output)
