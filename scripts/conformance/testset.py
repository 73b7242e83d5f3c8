"""The ONNX backend conformance set aicc is held to.

Every test folder under the libonnx-testdata roots, minus the exclusions the
project's issues define: ops outside the default domain (training), tests of
training mode, tests whose inputs or outputs are strings, sequences or
optionals or that use sequence/optional ops, and random generators.
"""

import os

import onnx

ROOT = os.environ.get("AICC_ONNX_TESTDATA", "/usr/share/libonnx-testdata/data")
SUITES = ("node", "pytorch-converted", "pytorch-operator", "simple")

RANDOM_OPS = {"Bernoulli", "RandomNormal", "RandomNormalLike", "RandomUniform",
              "RandomUniformLike", "Multinomial"}
SEQUENCE_OPS = {"SequenceAt", "SequenceConstruct", "SequenceEmpty",
                "SequenceErase", "SequenceInsert", "SequenceLength",
                "SequenceMap", "SplitToSequence", "ConcatFromSequence",
                "Optional", "OptionalGetElement", "OptionalHasElement"}
DEFAULT_DOMAINS = ("", "ai.onnx")


class Test:
    def __init__(self, suite, name):
        self.suite = suite
        self.name = name
        self.dir = os.path.join(ROOT, suite, name)
        self.model_path = os.path.join(self.dir, "model.onnx")
        self.excluded = None  # reason, or None when the test is in the set
        self.ops = []         # op types of the top-level graph and subgraphs

    @property
    def id(self):
        return f"{self.suite}/{self.name}"

    def data_set(self, index=0):
        return os.path.join(self.dir, f"test_data_set_{index}")


def _walk_nodes(graph):
    for node in graph.node:
        yield node
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH:
                yield from _walk_nodes(attribute.g)
            for subgraph in attribute.graphs:
                yield from _walk_nodes(subgraph)


def _is_plain_tensor(value_info):
    kind = value_info.type.WhichOneof("value")
    if kind != "tensor_type":
        return False
    return value_info.type.tensor_type.elem_type != onnx.TensorProto.STRING


def _exclusion(test, model):
    if "training" in test.name:
        return "training mode"
    for node in _walk_nodes(model.graph):
        if node.domain not in DEFAULT_DOMAINS:
            return f"op outside the default domain ({node.domain})"
        if node.op_type in RANDOM_OPS:
            return f"random generator ({node.op_type})"
        if node.op_type in SEQUENCE_OPS:
            return f"sequence/optional op ({node.op_type})"
    for value in list(model.graph.input) + list(model.graph.output):
        if not _is_plain_tensor(value):
            return "string, sequence or optional input/output"
    return None


def tests(include_excluded=False):
    """All conformance tests, sorted by id; excluded ones only on request."""
    result = []
    for suite in SUITES:
        base = os.path.join(ROOT, suite)
        for name in sorted(os.listdir(base)):
            test = Test(suite, name)
            if not os.path.exists(test.model_path):
                continue
            model = onnx.load(test.model_path, load_external_data=False)
            test.ops = sorted({n.op_type for n in _walk_nodes(model.graph)})
            test.excluded = _exclusion(test, model)
            if include_excluded or test.excluded is None:
                result.append(test)
    return result


if __name__ == "__main__":
    import collections
    everything = tests(include_excluded=True)
    reasons = collections.Counter(t.excluded.split(" (")[0]
                                  for t in everything if t.excluded)
    kept = [t for t in everything if not t.excluded]
    print(f"{len(everything)} tests, {len(kept)} in the conformance set")
    for reason, count in reasons.most_common():
        print(f"  excluded, {reason}: {count}")
