// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles -aicc-gpu-mma-matmul -cse | FileCheck %s
// RUN: aicc-opt %s -split-input-file -aicc-gpu-choose-tiles="tile=64x64x16x2" -aicc-gpu-mma-matmul 2>&1 | FileCheck %s --check-prefix=SHALLOW

// 8-bit integer products on mma.sync m16n8k32 (u8 or s8 by u8 or s8, as
// the body extends them), summed in i32, whatever the operand type option
// says. A forced tiling an integer product cannot run (16 deep: not whole
// m16n8k32 steps) gives way to the model's.
// SHALLOW-NOT: error
// SHALLOW: aicc_gpu.tiling = "64x64x64x1"

// A 70x96 u8 matrix times a 64x96 s8 one (rows of k, as
// aicc-gpu-k-major-weights leaves weights), added to what the
// output holds: 64x64 blocks of four warps, 64 deep, both operands read 8
// bytes at a time into shared rows padded by 16 bytes, fragments by
// ldmatrix as vector<4x4xi8>.

// CHECK-LABEL: func.func @u8_by_s8
// CHECK: gpu.launch
// CHECK-DAG: memref.alloca() : memref<64x80xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: arith.constant dense<0> : vector<2x2xi32>
// CHECK: vector.load %arg0[{{.*}}] {alignment = 8 : i64} : memref<70x96xi8>, vector<8xi8>
// CHECK: vector.load %arg1[{{.*}}] {alignment = 8 : i64} : memref<64x96xi8>, vector<8xi8>
// CHECK: vector.store {{.*}} {alignment = 8 : i64} : memref<64x80xi8, #gpu.address_space<workgroup>>, vector<8xi8>
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x80xi8, #gpu.address_space<workgroup>> -> vector<4x4xi8>
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<u8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: vector.load %arg2[{{.*}}] {alignment = 8 : i64} : memref<70x64xi32>, vector<2xi32>
// CHECK: arith.addi {{.*}} : i32
// CHECK: vector.store {{.*}}, %arg2[{{.*}}] {alignment = 8 : i64} : memref<70x64xi32>, vector<2xi32>
// CHECK: } {aicc_gpu.contraction = "i8:b1:m70:n64:k96:kk", aicc_gpu.flops = 860160 : i64, aicc_gpu.math = #aicc_gpu<math tensor16>, aicc_gpu.tiling = "64x64x64x1"}
func.func @u8_by_s8(%a: memref<70x96xi8>, %b: memref<64x96xi8>, %c: memref<70x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<70x96xi8>, memref<64x96xi8>) outs(%c : memref<70x64xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extui %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// -----

// s8 by u8 (the extensions name the types, whichever operand comes first),
// B contiguous along n: ldmatrix cannot transpose bytes, so B goes into its
// tile of rows of k one element at a time. A zero fill before the product
// is absorbed: the sums are stored, not added.

// CHECK-LABEL: func.func @s8_by_u8_rows_of_n
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch
// CHECK: memref.load %arg1[{{.*}}] : memref<96x64xi8>
// CHECK: memref.store {{.*}} : memref<64x80xi8, #gpu.address_space<workgroup>>
// CHECK: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<u8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK-NOT: vector.load %arg2
// CHECK: vector.store {{.*}}, %arg2[{{.*}}] {alignment = 8 : i64} : memref<70x64xi32>, vector<2xi32>
// CHECK: aicc_gpu.contraction = "i8:b1:m70:n64:k96:ks"
func.func @s8_by_u8_rows_of_n(%a: memref<70x96xi8>, %b: memref<96x64xi8>, %c: memref<70x64xi32>) {
  %zero = arith.constant 0 : i32
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<70x64xi32>) {
  ^bb0(%out: i32):
    linalg.yield %zero : i32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<70x96xi8>, memref<96x64xi8>) outs(%c : memref<70x64xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extsi %x : i8 to i32
    %1 = arith.extui %y : i8 to i32
    %2 = arith.muli %1, %0 : i32
    %3 = arith.addi %2, %acc : i32
    linalg.yield %3 : i32
  }
  return
}

// -----

// Sums in i16 are not the tensor cores' (nor a contraction of i8 into i32):
// the product stays for the generic kernels.

// CHECK-LABEL: func.func @i16_sums
// CHECK-NOT: nvvm.mma.sync
// CHECK: linalg.generic
func.func @i16_sums(%a: memref<64x64xi8>, %b: memref<64x64xi8>, %c: memref<64x64xi16>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x64xi8>, memref<64x64xi8>) outs(%c : memref<64x64xi16>) {
  ^bb0(%x: i8, %y: i8, %acc: i16):
    %0 = arith.extsi %x : i8 to i16
    %1 = arith.extsi %y : i8 to i16
    %2 = arith.muli %0, %1 : i16
    %3 = arith.addi %acc, %2 : i16
    linalg.yield %3 : i16
  }
  return
}
