// RUN: aicc-opt %s -aicc-gpu-half-storage | FileCheck %s
// RUN: aicc-opt %s -aicc-gpu-half-storage=type=bf16 | FileCheck %s --check-prefix=BF16

// Weights become f16 at compile time; the matrix product reads them
// extended and keeps its f32 accumulator; the element-wise bias + ReLU on
// the product's result is stored in f16 and read back extended; the softmax
// steps that read a broadcast statistic (the max) stay f32; the returned
// value is extended back to f32.

// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[W:.*]]: tensor<8x4xf16> {aicc.weight = "w", aicc.weight_value = dense<{{.*}}> : tensor<8x4xf16>}
// CHECK-SAME: -> tensor<2x4xf32>
// CHECK: %[[MM:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<2x8xf32>, tensor<8x4xf16>) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: ^bb0(%{{.*}}: f32, %[[WV:.*]]: f16, %{{.*}}: f32):
// CHECK: arith.extf %[[WV]] : f16 to f32
// CHECK: %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x4xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[RELU]] : tensor<2x4xf16>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: %[[SUB:.*]] = linalg.generic {{.*}} ins(%[[RELU]], %[[MAX]] : tensor<2x4xf16>, tensor<2xf32>) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK-NOT: truncf
// CHECK: return %[[SUB]] : tensor<2x4xf32>

// BF16: tensor<8x4xbf16>
// BF16: arith.truncf %{{.*}} : f32 to bf16

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%w: tensor<8x4xf32> {aicc.weight = "w", aicc.weight_value = dense<0.5> : tensor<8x4xf32>},
                %x: tensor<2x8xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<2x4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%f0 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %e1 = tensor.empty() : tensor<2x4xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<2x4xf32>) outs(%e1 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %e2 = tensor.empty() : tensor<2xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%relu : tensor<2x4xf32>) outs(%f2 : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %e3 = tensor.empty() : tensor<2x4xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%relu, %max : tensor<2x4xf32>, tensor<2xf32>) outs(%e3 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %r = arith.subf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %sub : tensor<2x4xf32>
}

// A gather reads the half weight element by element: the element is read
// as f16 and extended.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: %[[T:[^:]*]]: tensor<10x4xf16>
// CHECK: %[[E:.*]] = tensor.extract %[[T]][%{{.*}}, %{{.*}}] : tensor<10x4xf16>
// CHECK: arith.extf %[[E]] : f16 to f32
func.func @gather(%table: tensor<10x4xf32> {aicc.weight = "table", aicc.weight_value = dense<0.25> : tensor<10x4xf32>},
                  %ids: tensor<3xindex>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xindex>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%i: index, %o: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<10x4xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %g : tensor<3x4xf32>
}

// A half activation padded for a convolution: inserted into a filled
// tensor, or by tensor.pad, the padded copy is half too (its padding value
// rounded), not an f32 copy of an extended one.
// CHECK-LABEL: func.func @padded
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: } -> tensor<1x2x4x4xf16>
// CHECK: %[[Z:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f16) outs(%{{.*}} : tensor<1x2x6x6xf16>)
// CHECK: tensor.insert_slice %[[R]] into %[[F]][0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x4xf16> into tensor<1x2x6x6xf16>
// CHECK: tensor.pad %[[R]]
// CHECK: arith.truncf
// CHECK: tensor.yield %{{.*}} : f16
// CHECK: } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
func.func @padded(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  %pe = tensor.empty() : tensor<1x2x6x6xf32>
  %filled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%zero : f32) outs(%pe : tensor<1x2x6x6xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  } -> tensor<1x2x6x6xf32>
  %p = tensor.insert_slice %r into %filled[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x4xf32> into tensor<1x2x6x6xf32>
  %q = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  return %p, %q : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
}

// The padding value defined inside the fill's body: defined again outside
// for the half fill.
// CHECK-LABEL: func.func @padded_constant_in_body
// CHECK: } -> tensor<1x2x6x6xf32>
// CHECK: %[[C:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[Z:.*]] = arith.truncf %[[C]] : f32 to f16
// CHECK: linalg.fill ins(%[[Z]] : f16) outs(%{{.*}} : tensor<1x2x6x6xf16>)
func.func @padded_constant_in_body(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32> {
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x2x4x4xf32>
  %pe = tensor.empty() : tensor<1x2x6x6xf32>
  %filled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%pe : tensor<1x2x6x6xf32>) {
  ^bb0(%o: f32):
    %z = arith.constant 0.0 : f32
    linalg.yield %z : f32
  } -> tensor<1x2x6x6xf32>
  %p = tensor.insert_slice %r into %filled[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x4xf32> into tensor<1x2x6x6xf32>
  return %p : tensor<1x2x6x6xf32>
}
