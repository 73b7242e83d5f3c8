// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @ordered
func.func @ordered(%x: tensor<4xf32>, %y: tensor<1xf32>) -> tensor<4xi1> {
  // CHECK: tile.compare lt %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  %0 = tile.compare lt %x, %y : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @equality_on_bools
func.func @equality_on_bools(%x: tensor<2x3xi1>, %y: tensor<3xi1>) -> tensor<2x3xi1> {
  // CHECK: tile.compare ne %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %0 = tile.compare ne %x, %y : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func @unsigned
func.func @unsigned(%x: tensor<?xui16>) -> tensor<?xi1> {
  // CHECK: tile.compare ge %{{.*}}, %{{.*}} : (tensor<?xui16>, tensor<?xui16>) -> tensor<?xi1>
  %0 = tile.compare ge %x, %x : (tensor<?xui16>, tensor<?xui16>) -> tensor<?xi1>
  return %0 : tensor<?xi1>
}
