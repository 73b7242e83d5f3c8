// RUN: aicc-opt %s -split-input-file -tile-fuse=attention=true | FileCheck %s
// RUN: aicc-opt %s -split-input-file -tile-fuse | FileCheck %s --check-prefix=NOATT
// RUN: aicc-opt %s -split-input-file -tile-fuse="attention=true max-attention-keys=8" | FileCheck %s --check-prefix=FEWKEYS
// RUN: aicc-opt %s -split-input-file -tile-fuse="launch-bytes=1000000000" | FileCheck %s --check-prefix=TRAFFIC
// RUN: aicc-opt %s -split-input-file -tile-fuse="cache-bytes=1000000000" | FileCheck %s --check-prefix=TRAFFIC

// Epilogue: a product, its bias and a GELU whose input two ops read.
// CHECK-LABEL: func @epilogue
// CHECK: %[[F:.*]] = tile.fusion (%arg0, %arg1, %arg2) attributes {kind = "contraction"}
// CHECK: tile.matmul
// CHECK-NEXT: tile.binary add
// CHECK-NEXT: tile.unary erf
// CHECK-NEXT: tile.binary mul
// CHECK-NEXT: tile.constant dense<5.000000e-01>
// CHECK-NEXT: tile.binary mul
// CHECK-NEXT: tile.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @epilogue(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %c = tile.constant dense<0.5> : tensor<f32>
  %p = tile.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %s = tile.binary add %p, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %e = tile.unary erf %s : tensor<8x32xf32>
  %m = tile.binary mul %s, %e : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = tile.binary mul %m, %c : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  return %h : tensor<8x32xf32>
}

// -----

// A product whose sums two unrelated ops read has no epilogue.
// CHECK-LABEL: func @two_readers
// CHECK: %[[P:.*]] = tile.fusion (%arg0, %arg1) attributes {kind = "contraction"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tile.matmul
// CHECK-NEXT: tile.yield
// CHECK: tile.fusion (%[[P]]) attributes {kind = "elementwise"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tile.unary relu
// CHECK: tile.fusion (%[[P]]) attributes {kind = "elementwise"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tile.unary exp
func.func @two_readers(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %p = tile.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %a = tile.unary relu %p : tensor<8x32xf32>
  %b = tile.unary exp %p : tensor<8x32xf32>
  return %a, %b : tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// A residual sum after the product, then a layer norm: the sum is the
// product's epilogue (the normalization reads it twice), the rows one
// reduction group.
// CHECK-LABEL: func @layer_norm
// CHECK: %[[S:.*]] = tile.fusion (%arg0, %arg1, %arg2) attributes {kind = "contraction"}
// CHECK: tile.matmul
// CHECK-NEXT: tile.binary add
// CHECK-NEXT: tile.yield
// CHECK: tile.fusion (%[[S]], %arg3) attributes {kind = "reduction"}
// CHECK: tile.reduce mean
// CHECK-NEXT: tile.binary sub
// CHECK-NEXT: tile.binary mul
// CHECK-NEXT: tile.reduce mean
// CHECK-NEXT: tile.constant
// CHECK-NEXT: tile.binary add
// CHECK-NEXT: tile.unary rsqrt
// CHECK-NEXT: tile.binary mul
// CHECK-NEXT: tile.binary mul
// CHECK-NEXT: tile.yield
// CHECK-NOT: tile.fusion
func.func @layer_norm(%x: tensor<4x8x16xf32>, %w: tensor<16x16xf32>, %r: tensor<4x8x16xf32>, %g: tensor<16xf32>) -> tensor<4x8x16xf32> {
  %eps = tile.constant dense<1.0e-5> : tensor<f32>
  %p = tile.matmul %x, %w : (tensor<4x8x16xf32>, tensor<16x16xf32>) -> tensor<4x8x16xf32>
  %s = tile.binary add %p, %r : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %mean = tile.reduce mean %s axes = [2] keep_dims : tensor<4x8x16xf32> -> tensor<4x8x1xf32>
  %d = tile.binary sub %s, %mean : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
  %sq = tile.binary mul %d, %d : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %var = tile.reduce mean %sq axes = [2] keep_dims : tensor<4x8x16xf32> -> tensor<4x8x1xf32>
  %ve = tile.binary add %var, %eps : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8x1xf32>
  %rs = tile.unary rsqrt %ve : tensor<4x8x1xf32>
  %n = tile.binary mul %d, %rs : (tensor<4x8x16xf32>, tensor<4x8x1xf32>) -> tensor<4x8x16xf32>
  %y = tile.binary mul %n, %g : (tensor<4x8x16xf32>, tensor<16xf32>) -> tensor<4x8x16xf32>
  return %y : tensor<4x8x16xf32>
}

// -----

// Attention: QK^T, a scale, a mask, a softmax along the keys, the product
// with V.
// CHECK-LABEL: func @attention
// CHECK: tile.fusion (%arg0, %arg1, %arg3, %arg2) attributes {kind = "attention"}
// CHECK: tile.matmul
// CHECK: tile.reduce max
// CHECK: tile.reduce sum
// CHECK: tile.binary div
// CHECK-NEXT: tile.matmul
// CHECK-NEXT: tile.yield
// CHECK-NOT: tile.fusion

// Without an attention kernel: the scores' product with its scale and
// mask, the softmax's rows, the product with V.
// NOATT-LABEL: func @attention
// NOATT: tile.fusion (%arg0, %arg1, %arg3) attributes {kind = "contraction"}
// NOATT: tile.fusion ({{.*}}) attributes {kind = "reduction"}
// NOATT: tile.fusion ({{.*}}, %arg2) attributes {kind = "contraction"}
// NOATT-NOT: tile.fusion
// NOATT: return

// Too many keys for one kernel's registers.
// FEWKEYS-LABEL: func @attention
// FEWKEYS-NOT: kind = "attention"
// FEWKEYS: return
func.func @attention(%q: tensor<2x4x16x32xf32>, %kt: tensor<2x4x32x16xf32>, %v: tensor<2x4x16x32xf32>, %mask: tensor<2x1x1x16xf32>) -> tensor<2x4x16x32xf32> {
  %scale = tile.constant dense<0.125> : tensor<f32>
  %s = tile.matmul %q, %kt : (tensor<2x4x16x32xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x16x16xf32>
  %t = tile.binary mul %s, %scale : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
  %u = tile.binary add %t, %mask : (tensor<2x4x16x16xf32>, tensor<2x1x1x16xf32>) -> tensor<2x4x16x16xf32>
  %mx = tile.reduce max %u axes = [3] keep_dims : tensor<2x4x16x16xf32> -> tensor<2x4x16x1xf32>
  %d = tile.binary sub %u, %mx : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
  %e = tile.unary exp %d : tensor<2x4x16x16xf32>
  %sum = tile.reduce sum %e axes = [3] keep_dims : tensor<2x4x16x16xf32> -> tensor<2x4x16x1xf32>
  %p = tile.binary div %e, %sum : (tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) -> tensor<2x4x16x16xf32>
  %o = tile.matmul %p, %v : (tensor<2x4x16x16xf32>, tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32>
  return %o : tensor<2x4x16x32xf32>
}

// -----

// Element-wise ops: one group with two results; a transpose between them
// that reads the first moves after the region.
// CHECK-LABEL: func @elementwise
// CHECK: %[[F:.*]]:2 = tile.fusion (%arg0, %arg1) attributes {kind = "elementwise"}
// CHECK: tile.yield %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK: %[[T:.*]] = tile.transpose %[[F]]#0
// CHECK-NEXT: return %[[T]], %[[F]]#1
func.func @elementwise(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {
  %a = tile.binary add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = tile.transpose %a permutation = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %b = tile.unary exp %a : tensor<4x8xf32>
  return %t, %b : tensor<8x4xf32>, tensor<4x8xf32>
}

// -----

// Recomputation that does not pay: a row computed from inputs larger than
// the cache, read broadcast by a larger op, stays a kernel of its own.
// CHECK-LABEL: func @recompute
// CHECK: %[[A:.*]] = tile.fusion (%arg0, %arg1) attributes {kind = "elementwise"}
// CHECK: tile.fusion (%arg2, %[[A]]) attributes {kind = "elementwise"}
// With launches dear enough, or a cache that holds the inputs, the one
// kernel pays.
// TRAFFIC-LABEL: func @recompute
// TRAFFIC: tile.fusion (%arg0, %arg1, %arg2) attributes {kind = "elementwise"}
// TRAFFIC-NOT: tile.fusion
// TRAFFIC: return
func.func @recompute(%x: tensor<8388608xf32>, %y: tensor<8388608xf32>, %z: tensor<4x8388608xf32>) -> tensor<4x8388608xf32> {
  %a = tile.binary add %x, %y : (tensor<8388608xf32>, tensor<8388608xf32>) -> tensor<8388608xf32>
  %b = tile.binary mul %z, %a : (tensor<4x8388608xf32>, tensor<8388608xf32>) -> tensor<4x8388608xf32>
  return %b : tensor<4x8388608xf32>
}

// -----

// From the cache, the same recomputation pays.
// CHECK-LABEL: func @recompute_cached
// CHECK: tile.fusion (%arg0, %arg1, %arg2) attributes {kind = "elementwise"}
// CHECK-NOT: tile.fusion
// CHECK: return
func.func @recompute_cached(%x: tensor<4096xf32>, %y: tensor<4096xf32>, %z: tensor<2048x4096xf32>) -> tensor<2048x4096xf32> {
  %a = tile.binary add %x, %y : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xf32>
  %b = tile.binary mul %z, %a : (tensor<2048x4096xf32>, tensor<4096xf32>) -> tensor<2048x4096xf32>
  return %b : tensor<2048x4096xf32>
}

// -----

// A reduction takes the element-wise op that only it reads.
// CHECK-LABEL: func @reduction
// CHECK: tile.fusion (%arg0) attributes {kind = "reduction"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tile.unary relu
// CHECK-NEXT: tile.reduce mean
// CHECK-NEXT: tile.yield
func.func @reduction(%x: tensor<8x64x64xf32>) -> tensor<8xf32> {
  %r = tile.unary relu %x : tensor<8x64x64xf32>
  %m = tile.reduce mean %r axes = [1, 2] : tensor<8x64x64xf32> -> tensor<8xf32>
  return %m : tensor<8xf32>
}

// -----

// A layer norm of half values: the cast to f32 that the mean and the
// centring both read joins the rows' group, so the kernel reads the halves.
// CHECK-LABEL: func @cast_before_rows
// CHECK: tile.fusion (%arg0) attributes {kind = "reduction"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tile.cast
// CHECK-NEXT: tile.reduce mean
// CHECK-NEXT: tile.binary sub
// CHECK-NEXT: tile.cast
// CHECK-NEXT: tile.yield
// CHECK-NOT: tile.fusion
// CHECK: return
func.func @cast_before_rows(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %f = tile.cast %x : tensor<8x64xf16> -> tensor<8x64xf32>
  %m = tile.reduce mean %f axes = [1] keep_dims : tensor<8x64xf32> -> tensor<8x1xf32>
  %d = tile.binary sub %f, %m : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  %h = tile.cast %d : tensor<8x64xf32> -> tensor<8x64xf16>
  return %h : tensor<8x64xf16>
}

// -----

// A pre-norm residual stream: the sum that the normalization reads is read
// by the next residual sum too, so it stays out of the rows' group (it
// would be a second value leaving it), which is still one group.
// CHECK-LABEL: func @residual_before_rows
// CHECK: %[[S:.*]] = tile.fusion (%arg0, %arg1) attributes {kind = "elementwise"}
// CHECK: tile.fusion (%[[S]]) attributes {kind = "reduction"}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tile.reduce mean
// CHECK-NEXT: tile.binary sub
// CHECK-NEXT: tile.yield
func.func @residual_before_rows(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %s = tile.binary add %x, %y : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = tile.reduce mean %s axes = [1] keep_dims : tensor<8x64xf32> -> tensor<8x1xf32>
  %d = tile.binary sub %s, %m : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  %r = tile.binary add %s, %d : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %d, %r : tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// The same through a reshape: the model looks through views of the
// group's values.
// CHECK-LABEL: func @recompute_through_reshape
// CHECK: %[[A:.*]] = tile.fusion (%arg0, %arg1) attributes {kind = "elementwise"}
// CHECK: tile.fusion (%arg2, %[[A]]) attributes {kind = "elementwise"}
func.func @recompute_through_reshape(%x: tensor<8388608xf32>, %y: tensor<8388608xf32>, %z: tensor<4x8388608xf32>) -> tensor<4x8388608xf32> {
  %a = tile.binary add %x, %y : (tensor<8388608xf32>, tensor<8388608xf32>) -> tensor<8388608xf32>
  %r = tile.reshape %a : tensor<8388608xf32> -> tensor<1x8388608xf32>
  %b = tile.binary mul %z, %r : (tensor<4x8388608xf32>, tensor<1x8388608xf32>) -> tensor<4x8388608xf32>
  return %b : tensor<4x8388608xf32>
}
