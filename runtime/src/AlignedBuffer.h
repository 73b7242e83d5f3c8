//===- AlignedBuffer.h - Owned, aligned host memory -------------*- C++ -*-===//

#ifndef AICC_RUNTIME_ALIGNEDBUFFER_H
#define AICC_RUNTIME_ALIGNEDBUFFER_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace aicc::runtime {

struct AlignedFree {
  void operator()(void *p) const { std::free(p); }
};

/// Host memory from std::aligned_alloc, freed with the buffer.
using AlignedBuffer = std::unique_ptr<uint8_t, AlignedFree>;

/// `size` bytes (rounded up to `alignment`, at least one unit of it)
/// aligned to `alignment`, a power of two; null where there is no memory.
inline AlignedBuffer alignedAllocate(size_t size, size_t alignment) {
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return AlignedBuffer(static_cast<uint8_t *>(
      std::aligned_alloc(alignment, rounded ? rounded : alignment)));
}

} // namespace aicc::runtime

#endif // AICC_RUNTIME_ALIGNEDBUFFER_H
