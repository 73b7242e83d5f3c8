// RUN: aicc-opt %s -split-input-file -aicc-cpu-outline-parallel -verify-diagnostics

// Loops with shared outputs (tensor semantics) must be bufferized first.
func.func @shared_outputs(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{has shared outputs; bufferize first}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}

// -----

// A captured value the LLVM type converter does not know cannot cross into
// a task.
func.func @unconvertible_capture(%t: tensor<4xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{captures a value of type 'tensor<4xf32>' that cannot cross into a task}}
  scf.forall (%i) in (4) {
    %v = tensor.extract %t[%i] : tensor<4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  }
  return
}
