// RUN: aicc-opt %s -split-input-file -allow-unregistered-dialect -aicc-cpu-bare-pointer-arguments -verify-diagnostics | FileCheck %s

// Zero-element arguments of rank other than 1 become memref<0xT>,
// reinterpreted as their original type (row-major strides) inside; others
// keep their type.

// CHECK-LABEL: func.func @zero_sized
// CHECK-SAME: (%[[A:.*]]: memref<0xf32>, %[[B:.*]]: memref<2x3xf32>, %[[C:.*]]: memref<0xi8>, %[[D:.*]]: memref<0xf32>, %[[E:.*]]: memref<0xf32>)
// CHECK-DAG: %[[RA:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [0, 4], strides: [4, 1] : memref<0xf32> to memref<0x4xf32>
// CHECK-DAG: %[[RC:.*]] = memref.reinterpret_cast %[[C]] to offset: [0], sizes: [3, 0, 5], strides: [0, 5, 1] : memref<0xi8> to memref<3x0x5xi8>
// CHECK-DAG: %[[RE:.*]] = memref.reinterpret_cast %[[E]] to offset: [0], sizes: [2, 0], strides: [0, 1] : memref<0xf32> to memref<2x0xf32>
// CHECK: "test.use"(%[[RA]], %[[B]], %[[RC]], %[[D]], %[[RE]])
func.func @zero_sized(%a: memref<0x4xf32>, %b: memref<2x3xf32>, %c: memref<3x0x5xi8>, %d: memref<0xf32>, %e: memref<2x0xf32>) {
  "test.use"(%a, %b, %c, %d, %e) : (memref<0x4xf32>, memref<2x3xf32>, memref<3x0x5xi8>, memref<0xf32>, memref<2x0xf32>) -> ()
  return
}

// -----

// Private functions are not called through the entry point.
// CHECK-LABEL: func.func private @negative_private
// CHECK-SAME: (%{{.*}}: memref<0x4xf32>)
// CHECK-NOT: memref.reinterpret_cast
func.func private @negative_private(%a: memref<0x4xf32>) {
  "test.use"(%a) : (memref<0x4xf32>) -> ()
  return
}

// -----

// expected-error @+1 {{'func.func' op argument 0 has a non-identity layout}}
func.func @strided(%a: memref<0x4xf32, strided<[8, 1]>>) {
  return
}
