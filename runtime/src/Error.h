//===- Error.h - The per-thread last error ----------------------*- C++ -*-===//

#ifndef AICC_RUNTIME_ERROR_H
#define AICC_RUNTIME_ERROR_H

#include "aicc/runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace aicc::runtime {

/// Records `message` as the calling thread's last error and returns
/// `status`, so that failures read `return fail(AICC_..., "...")`.
aicc_status_t fail(aicc_status_t status, std::string message);

/// Clears the calling thread's last error.
void clearError();

/// Bytes of one element of the aicc_dtype numbered `dtype`; 0 for a number
/// that is none (so that codes read from files are checked before they
/// become an aicc_dtype).
size_t dtypeSize(uint32_t dtype);

} // namespace aicc::runtime

#endif // AICC_RUNTIME_ERROR_H
