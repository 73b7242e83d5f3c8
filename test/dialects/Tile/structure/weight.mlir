// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @weights
func.func @weights() -> (tensor<10x64xf32>, tensor<4xf32>) {
  // CHECK: tile.weight "fc.weight" = dense<5.000000e-01> : tensor<10x64xf32>
  %0 = tile.weight "fc.weight" = dense<0.5> : tensor<10x64xf32>
  // CHECK: tile.weight "fc.bias" = dense_resource<fc_bias> : tensor<4xf32>
  %1 = tile.weight "fc.bias" = dense_resource<fc_bias> : tensor<4xf32>
  return %0, %1 : tensor<10x64xf32>, tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      fc_bias: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
