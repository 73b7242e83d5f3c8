// One function holding every tile op. The passes must leave valid IR behind
// without crashing, and the whole file must survive the bytecode format.
//
// RUN: aicc-opt %s -emit-bytecode | aicc-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: aicc-opt %s -canonicalize -cse | FileCheck %s --check-prefix=CANON
// RUN: aicc-opt %s -tile-inline-fusions -canonicalize | FileCheck %s --check-prefix=INLINE

// ROUNDTRIP-LABEL: func @every_op
// ROUNDTRIP-SAME: #tile.encoding<tiles = [4x8, 2x4], order = [1, 0], target = "cpu">
// ROUNDTRIP: tile.weight "w" = dense_resource<w_blob> : tensor<8x8xf32>
// ROUNDTRIP: tile.resize cubic {{.*}} coordinate_transform = align_corners
// ROUNDTRIP: tile.fusion
// ROUNDTRIP: return

// CANON-LABEL: func @every_op
// CANON-COUNT-1: tile.constant dense<1.000000e+00> : tensor<4x8xf32>
// CANON: tile.fusion
// CANON: return

// INLINE-LABEL: func @every_op
// INLINE-NOT: tile.fusion
// INLINE: return
func.func @every_op(%x: tensor<4x8xf32, #tile.encoding<tiles = [4x8, 2x4], order = [1, 0], target = "cpu">>,
                    %y: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x8xi1>, %i: tensor<4x2xi64>,
                    %img: tensor<1x4x8x8xf32>, %k: tensor<4x4x3x3xf32>, %ch: tensor<4xf32>)
    -> (tensor<4x8xf32>, tensor<1x4x8x8xf32>) {
  %c1 = tile.constant dense<1.0> : tensor<4x8xf32>
  %c2 = tile.constant dense<1.0> : tensor<4x8xf32>
  %w = tile.weight "w" = dense_resource<w_blob> : tensor<8x8xf32>
  %u = tile.unary tanh %y : tensor<4x8xf32>
  %s = tile.binary add %u, %c1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s2 = tile.binary add %s, %c2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = tile.compare gt %s2, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
  %n = tile.classify nan %s2 : tensor<4x8xf32> -> tensor<4x8xi1>
  %mn = tile.binary or %m, %n : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  %sel = tile.select %mn, %s2, %y : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = tile.cast %sel : tensor<4x8xf32> -> tensor<4x8xf16>
  %f = tile.cast %h : tensor<4x8xf16> -> tensor<4x8xf32>
  %mm = tile.matmul %f, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = tile.reduce sum %mm axes = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
  %am = tile.arg_reduce max %mm axis = 1 : tensor<4x8xf32> -> tensor<4xi64>
  %sm = tile.softmax %mm axis = 1 : tensor<4x8xf32>
  %ls = tile.log_softmax %sm axis = 0 : tensor<4x8xf32>
  %cs = tile.cumsum %ls axis = 1 : tensor<4x8xf32>
  %tv, %ti = tile.top_k %cs k = 2 axis = 1 : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi64>
  %ln = tile.layer_norm %cs, %b, %b axis = 1 epsilon = 1.0e-5 : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %g = tile.gather %ln, %am axis = 0 : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  %ge = tile.gather_elements %g, %i axis = 1 : (tensor<4x8xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  %gn = tile.gather_nd %g, %i batch_dims = 0 : (tensor<4x8xf32>, tensor<4x2xi64>) -> tensor<4xf32>
  %se = tile.scatter_elements %g, %i, %ge axis = 1 reduction = add : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x8xf32>
  %sn = tile.scatter_nd %se, %i, %gn reduction = max : (tensor<4x8xf32>, tensor<4x2xi64>, tensor<4xf32>) -> tensor<4x8xf32>
  %sl = tile.slice %sn starts = [0, 0] sizes = [4, 8] steps = [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %cc = tile.concat %sl, %sl axis = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %sp:2 = tile.split %cc axis = 1 sizes = [8, 8] : tensor<4x16xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %pd = tile.pad edge %sp#0 padding = [0, 0, 0, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %tr = tile.transpose %pd permutation = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %tr2 = tile.transpose %tr permutation = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %rs = tile.reshape %tr2 : tensor<4x8xf32> -> tensor<32xf32>
  %rs2 = tile.reshape %rs : tensor<32xf32> -> tensor<4x8xf32>
  %ex = tile.expand %rs2 : tensor<4x8xf32> -> tensor<1x4x8xf32>
  %tl = tile.tile %ex repeats = [1, 1, 1] : tensor<1x4x8xf32> -> tensor<1x4x8xf32>
  %back = tile.reshape %tl : tensor<1x4x8xf32> -> tensor<4x8xf32>
  %cv = tile.conv %img, %k strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %ct = tile.conv_transpose %cv, %k strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] output_padding = [0, 0] : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %pl = tile.pool max %ct kernel = [3, 3] strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] : tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  %gp = tile.global_pool avg %pl : tensor<1x4x8x8xf32> -> tensor<1x4x1x1xf32>
  %bn = tile.batch_norm %pl, %ch, %ch, %ch, %ch epsilon = 1.0e-5 : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %in = tile.instance_norm %bn, %ch, %ch epsilon = 1.0e-5 : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %gn2 = tile.group_norm %in, %ch, %ch num_groups = 2 epsilon = 1.0e-5 : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %lr = tile.lrn %gn2 size = 3 alpha = 1.0e-4 beta = 0.75 bias = 1.0 : tensor<1x4x8x8xf32>
  %add = tile.binary add %lr, %gp : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %rz = tile.resize cubic %add scales = [1.0, 1.0, 1.0, 1.0] coordinate_transform = align_corners : tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  %enc = tile.unary exp %x : tensor<4x8xf32, #tile.encoding<tiles = [4x8, 2x4], order = [1, 0], target = "cpu">>
  %fz = tile.fusion (%back, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%p: tensor<4x8xf32>, %q: tensor<8xf32>):
    %t = tile.binary mul %p, %q : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %v = tile.unary relu %t : tensor<4x8xf32>
    tile.yield %v : tensor<4x8xf32>
  }
  return %fz, %rz : tensor<4x8xf32>, tensor<1x4x8x8xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w_blob: "0x04000000000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F000000000000003E0000803E0000C03E0000003F0000203F0000403F0000603F"
    }
  }
#-}
