"""Every float tensor of an ONNX model as a graph output, for the scripts
that compare or measure a model tensor by tensor (bench_gpu_e2e.py's
calibration, first_divergence.py)."""
import onnx


def float_outputs(model):
    """`model` with every float tensor a node computes (as far as shape
    inference types it) appended to its outputs, in the nodes' order."""
    inferred = onnx.shape_inference.infer_shapes(model)
    known = {v.name: v for v in inferred.graph.value_info}
    outputs = {o.name for o in model.graph.output}
    for node in model.graph.node:
        for name in node.output:
            info = known.get(name)
            if (info is not None and name not in outputs and
                    info.type.tensor_type.elem_type == onnx.TensorProto.FLOAT):
                model.graph.output.append(info)
                outputs.add(name)
    return model
