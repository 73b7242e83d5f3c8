//===- ConvertTileToLinalg.cpp - tile to linalg in the GPUs' forms --------===//
//
// The shared tile-to-linalg conversion with every convolution as one
// generic over output positions and filter taps, with no patch matrix: the
// GPU kernels run one thread per output, or take the generic as an
// implicit GEMM on the tensor cores.
//
//===----------------------------------------------------------------------===//

#include "aicc/Target/GPU/Passes.h"

#include "aicc/Conversion/TileToLinalg/TileToLinalg.h"

namespace aicc::gpu {
#define GEN_PASS_DEF_GPUCONVERTTILETOLINALGPASS
#include "aicc/Target/GPU/Passes.h.inc"
} // namespace aicc::gpu

using namespace mlir;
using namespace aicc::tile_to_linalg;

namespace {
/// Direct convolutions; products in the plain form.
class DirectConvolutions final : public ContractionStrategy {
public:
  bool directConvolutions() const override { return true; }
};

struct GPUConvertTileToLinalgPass
    : aicc::gpu::impl::GPUConvertTileToLinalgPassBase<
          GPUConvertTileToLinalgPass> {
  void runOnOperation() override {
    DirectConvolutions strategy;
    if (failed(convertTileToLinalg(getOperation(), &strategy)))
      signalPassFailure();
  }
};
} // namespace
