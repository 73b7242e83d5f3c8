// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @heads
func.func @heads(%x: tensor<?x128x12x64xf32>) -> tensor<?x12x128x64xf32> {
  // CHECK: tile.transpose %{{.*}} permutation = [0, 2, 1, 3] : tensor<?x128x12x64xf32> -> tensor<?x12x128x64xf32>
  %0 = tile.transpose %x permutation = [0, 2, 1, 3] : tensor<?x128x12x64xf32> -> tensor<?x12x128x64xf32>
  return %0 : tensor<?x12x128x64xf32>
}
