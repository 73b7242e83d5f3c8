"""What the GPU benchmark scripts (gpu.py, gemm.py, membound.py) share:
their common arguments and the way they record results."""
import argparse
import json


def parser(doc):
    """An argument parser described by `doc`'s first line, with the
    arguments every GPU benchmark takes: the packaged aicc and aicc-run, a
    work folder, and the JSON-lines file results are appended to."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--aicc", required=True)
    p.add_argument("--aicc-run", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--out", required=True)
    return p


def emitter(out, extra=None):
    """A function that prints a result (a dict, `extra` added) as one JSON
    line and appends it to `out` at once, so that a run stopped by a time
    limit keeps what it measured."""
    def emit(record):
        record.update(extra or {})
        print(json.dumps(record), flush=True)
        with open(out, "a") as f:
            f.write(json.dumps(record) + "\n")
    return emit
