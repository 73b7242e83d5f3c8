//===- Error.h - The per-thread last error ----------------------*- C++ -*-===//

#ifndef AICC_RUNTIME_ERROR_H
#define AICC_RUNTIME_ERROR_H

#include "aicc/runtime.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <system_error>

namespace aicc::runtime {

/// Records `message` as the calling thread's last error and returns
/// `status`, so that failures read `return fail(AICC_..., "...")`.
aicc_status_t fail(aicc_status_t status, std::string message);

/// As fail, with a message that is not copied: for the paths that run when
/// memory has run out. Never allocates.
aicc_status_t failStatic(aicc_status_t status, const char *message) noexcept;

/// Clears the calling thread's last error.
void clearError();

/// Runs `body`, an entry point of the C ABI, and turns an exception that
/// escapes it into a status, so that none crosses the ABI: an allocation
/// that fails (building a message included) is AICC_RESOURCE_EXHAUSTED, a
/// thread the system refuses too. Bodies own what they allocate (RAII), so
/// an exception leaks nothing. Clears the last error first.
template <typename Body> aicc_status_t guarded(Body &&body) noexcept {
  clearError();
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return failStatic(AICC_RESOURCE_EXHAUSTED, "out of memory");
  } catch (const std::system_error &) {
    return failStatic(AICC_RESOURCE_EXHAUSTED,
                      "the system refused a resource (a thread or a lock)");
  } catch (...) {
    return failStatic(AICC_INTERNAL, "an unexpected exception");
  }
}

/// Bytes of one element of the aicc_dtype numbered `dtype`; 0 for a number
/// that is none (so that codes read from files are checked before they
/// become an aicc_dtype).
size_t dtypeSize(uint32_t dtype);

} // namespace aicc::runtime

#endif // AICC_RUNTIME_ERROR_H
