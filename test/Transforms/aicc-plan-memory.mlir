// RUN: aicc-opt %s -aicc-plan-memory | FileCheck %s

// Static allocations of a public function's entry block become views of a
// trailing arena argument; buffers whose lifetimes do not overlap share
// bytes, at offsets aligned to 64.

// a dies when c is born: c takes a's bytes, b sits after them.
// CHECK-LABEL: func.func @reuse
// CHECK-SAME: (%[[X:.*]]: memref<256xf32>, %[[OUT:.*]]: memref<256xf32>, %[[ARENA:.*]]: memref<2048xi8> {aicc.arena})
// CHECK-SAME: attributes {aicc.arena_size = 2048 : i64}
// CHECK-NOT: memref.alloc
// CHECK: %[[O0:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%[[O0]]][] : memref<2048xi8> to memref<256xf32>
// CHECK: linalg.copy ins(%[[X]] : memref<256xf32>) outs(%[[A]] : memref<256xf32>)
// CHECK: %[[O1:.*]] = arith.constant 1024 : index
// CHECK: %[[B:.*]] = memref.view %[[ARENA]][%[[O1]]][] : memref<2048xi8> to memref<256xf32>
// CHECK: linalg.copy ins(%[[A]] : memref<256xf32>) outs(%[[B]] : memref<256xf32>)
// CHECK: %[[O2:.*]] = arith.constant 0 : index
// CHECK: %[[C:.*]] = memref.view %[[ARENA]][%[[O2]]][] : memref<2048xi8> to memref<256xf32>
// CHECK: linalg.copy ins(%[[B]] : memref<256xf32>) outs(%[[C]] : memref<256xf32>)
// CHECK: linalg.copy ins(%[[C]] : memref<256xf32>) outs(%[[OUT]] : memref<256xf32>)
func.func @reuse(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32>
  linalg.copy ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.copy ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.copy ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  linalg.copy ins(%c : memref<256xf32>) outs(%out : memref<256xf32>)
  return
}

// A view keeps its buffer alive: c is born after a's last direct use but
// while a's subview is still read, so it may not take a's bytes. The arena
// size (64 + 16 bytes) is rounded up to a multiple of 64.
// CHECK-LABEL: func.func @alias_extends_lifetime
// CHECK-SAME: %[[ARENA:[^ ]*]]: memref<128xi8> {aicc.arena}) attributes {aicc.arena_size = 128 : i64}
// CHECK: %[[O0:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%[[O0]]][] : memref<128xi8> to memref<16xf32>
// CHECK: %[[V:.*]] = memref.subview %[[A]][4] [4] [1]
// CHECK: %[[O1:.*]] = arith.constant 64 : index
// CHECK: %[[C:.*]] = memref.view %[[ARENA]][%[[O1]]][] : memref<128xi8> to memref<4xf32>
// CHECK: linalg.copy ins(%[[V]] : memref<4xf32, strided<[1], offset: 4>>) outs(%[[C]] : memref<4xf32>)
func.func @alias_extends_lifetime(%x: memref<16xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %v = memref.subview %a[4] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 4>>
  %c = memref.alloc() : memref<4xf32>
  linalg.copy ins(%v : memref<4xf32, strided<[1], offset: 4>>) outs(%c : memref<4xf32>)
  linalg.copy ins(%c : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// Dynamic sizes, allocations inside loops and buffers that escape stay
// heap allocations; the function still gets an (empty) arena.
// CHECK-LABEL: func.func @negative_not_planned
// CHECK-SAME: %{{.*}}: memref<0xi8> {aicc.arena}) -> memref<4xf32> attributes {aicc.arena_size = 0 : i64}
// CHECK-NOT: memref.view
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: %[[R:.*]] = memref.alloc() : memref<4xf32>
// CHECK: scf.for
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: return %[[R]]
func.func @negative_not_planned(%n: index, %x: memref<4xf32>) -> memref<4xf32> {
  %d = memref.alloc(%n) : memref<?xf32>
  %r = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%r : memref<4xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %l = memref.alloc() : memref<4xf32>
    linalg.copy ins(%x : memref<4xf32>) outs(%l : memref<4xf32>)
  }
  return %r : memref<4xf32>
}

// Private functions are not entry points: no arena.
// CHECK-LABEL: func.func private @negative_private
// CHECK-SAME: (%{{.*}}: memref<4xf32>) {
// CHECK-NEXT: memref.alloc() : memref<4xf32>
func.func private @negative_private(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  return
}
