// RUN: aicc-opt %s -aicc-cpu-lower-copies | FileCheck %s

// Strided memref.copy becomes linalg.copy (loops, no support library);
// copies between identity-layout buffers stay memref.copy (memcpy).

// CHECK-LABEL: func.func @strided_source
// CHECK-SAME: (%[[X:.*]]: memref<8x8xf32>, %[[Y:.*]]: memref<4x4xf32>)
// CHECK: %[[V:.*]] = memref.subview %[[X]]
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[V]] : memref<4x4xf32, strided<[8, 1], offset: 18>>) outs(%[[Y]] : memref<4x4xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @strided_source(%x: memref<8x8xf32>, %y: memref<4x4xf32>) {
  %v = memref.subview %x[2, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 18>>
  memref.copy %v, %y : memref<4x4xf32, strided<[8, 1], offset: 18>> to memref<4x4xf32>
  return
}

// CHECK-LABEL: func.func @strided_target
// CHECK: linalg.copy ins(%{{.*}} : memref<4xf32>) outs(%{{.*}} : memref<4xf32, strided<[2]>>)
func.func @strided_target(%x: memref<4xf32>, %y: memref<8xf32>) {
  %v = memref.subview %y[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  memref.copy %x, %v : memref<4xf32> to memref<4xf32, strided<[2]>>
  return
}

// CHECK-LABEL: func.func @negative_contiguous
// CHECK-SAME: (%[[X:.*]]: memref<4x4xf32>, %[[Y:.*]]: memref<4x4xf32>)
// CHECK-NOT: linalg.copy
// CHECK: memref.copy %[[X]], %[[Y]] : memref<4x4xf32> to memref<4x4xf32>
func.func @negative_contiguous(%x: memref<4x4xf32>, %y: memref<4x4xf32>) {
  memref.copy %x, %y : memref<4x4xf32> to memref<4x4xf32>
  return
}
