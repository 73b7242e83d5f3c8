// RUN: aicc-opt %s | aicc-opt | FileCheck %s
// RUN: aicc-opt %s --mlir-print-op-generic | aicc-opt | FileCheck %s

// CHECK-LABEL: func @broadcasting
func.func @broadcasting(%x: tensor<8x16xf32>, %b: tensor<16xf32>, %s: tensor<f32>) -> tensor<8x16xf32> {
  // CHECK: tile.binary add %{{.*}}, %{{.*}} : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %0 = tile.binary add %x, %b : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: tile.binary pow %{{.*}}, %{{.*}} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %1 = tile.binary pow %0, %s : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// CHECK-LABEL: func @both_sides_stretch
func.func @both_sides_stretch(%a: tensor<3x1xf32>, %b: tensor<1x4xf32>) -> tensor<3x4xf32> {
  // CHECK: tile.binary prelu %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  %0 = tile.binary prelu %a, %b : (tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func @dynamic
func.func @dynamic(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  // CHECK: tile.binary max %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %0 = tile.binary max %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// A static result may refine a size that broadcasting leaves dynamic.
// CHECK-LABEL: func @refined_result
func.func @refined_result(%a: tensor<?x4xf32>, %b: tensor<1x4xf32>) -> tensor<2x4xf32> {
  // CHECK: tile.binary sub %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %0 = tile.binary sub %a, %b : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func @integer_and_bool_kinds
func.func @integer_and_bool_kinds(%a: tensor<4xi32>, %b: tensor<4xui8>, %c: tensor<4xi1>) {
  // CHECK: tile.binary mod %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %0 = tile.binary mod %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: tile.binary shift_right %{{.*}}, %{{.*}} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = tile.binary shift_right %b, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // CHECK: tile.binary xor %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = tile.binary xor %c, %c : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// Encodings on the result do not take part in type inference.
// CHECK-LABEL: func @encoded_result
func.func @encoded_result(%a: tensor<64x64xf16>) {
  // CHECK: -> tensor<64x64xf16, #tile.encoding<tiles = [64x64], target = "cuda">>
  %0 = tile.binary mul %a, %a : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16, #tile.encoding<tiles = [64x64], target = "cuda">>
  return
}
