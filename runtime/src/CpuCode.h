//===- CpuCode.h - Loading a CPU code object --------------------*- C++ -*-===//

#ifndef AICC_RUNTIME_CPUCODE_H
#define AICC_RUNTIME_CPUCODE_H

#include "aicc/runtime.h"

#include <cstddef>
#include <cstdint>

namespace aicc::runtime {

/// A CPU code object mapped into the process; unmapped on destruction.
class CpuCode {
public:
  CpuCode() = default;
  CpuCode(const CpuCode &) = delete;
  CpuCode &operator=(const CpuCode &) = delete;
  ~CpuCode();

  /// Maps the ELF shared object image (`size` bytes) through an anonymous
  /// in-memory file; nothing is written to disk where that is available.
  aicc_status_t load(const uint8_t *image, size_t size);

  /// The address of exported function `name`, or null.
  void *symbol(const char *name) const;

private:
  void *handle = nullptr;
};

} // namespace aicc::runtime

#endif // AICC_RUNTIME_CPUCODE_H
