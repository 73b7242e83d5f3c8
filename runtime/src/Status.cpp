//===- Status.cpp - Status codes and errors of the C ABI ------------------===//

#include "Error.h"

namespace {
thread_local std::string lastError;
// Set instead of lastError where building a message could fail.
thread_local const char *staticError = nullptr;
} // namespace

aicc_status_t aicc::runtime::fail(aicc_status_t status, std::string message) {
  // A move: no allocation here, whatever the message.
  lastError = std::move(message);
  staticError = nullptr;
  return status;
}

aicc_status_t aicc::runtime::failStatic(aicc_status_t status,
                                        const char *message) noexcept {
  staticError = message;
  return status;
}

void aicc::runtime::clearError() {
  lastError.clear();
  staticError = nullptr;
}

extern "C" const char *aicc_last_error_message(void) {
  return staticError ? staticError : lastError.c_str();
}

extern "C" const char *aicc_status_string(aicc_status_t status) {
  switch (status) {
  case AICC_OK:
    return "ok";
  case AICC_INVALID_ARGUMENT:
    return "invalid argument";
  case AICC_INVALID_BUNDLE:
    return "invalid bundle";
  case AICC_UNSUPPORTED_VERSION:
    return "unsupported bundle format version";
  case AICC_UNSUPPORTED_TARGET:
    return "no code for this target";
  case AICC_RESOURCE_EXHAUSTED:
    return "resource exhausted";
  case AICC_DEVICE_UNAVAILABLE:
    return "device unavailable";
  case AICC_DEVICE_LOST:
    return "device lost";
  case AICC_IO_ERROR:
    return "i/o error";
  case AICC_INTERNAL:
    return "internal error";
  }
  return "unknown status";
}

extern "C" const char *aicc_runtime_version(void) {
  return AICC_RUNTIME_VERSION_STRING;
}

extern "C" const char *aicc_dtype_name(aicc_dtype dtype) {
  switch (dtype) {
  case AICC_DTYPE_FLOAT32:
    return "float32";
  case AICC_DTYPE_UINT8:
    return "uint8";
  case AICC_DTYPE_INT8:
    return "int8";
  case AICC_DTYPE_UINT16:
    return "uint16";
  case AICC_DTYPE_INT16:
    return "int16";
  case AICC_DTYPE_INT32:
    return "int32";
  case AICC_DTYPE_INT64:
    return "int64";
  case AICC_DTYPE_BOOL:
    return "bool";
  case AICC_DTYPE_FLOAT16:
    return "float16";
  case AICC_DTYPE_FLOAT64:
    return "float64";
  case AICC_DTYPE_UINT32:
    return "uint32";
  case AICC_DTYPE_UINT64:
    return "uint64";
  case AICC_DTYPE_BFLOAT16:
    return "bfloat16";
  case AICC_DTYPE_FLOAT8E4M3FN:
    return "float8e4m3fn";
  case AICC_DTYPE_FLOAT8E4M3FNUZ:
    return "float8e4m3fnuz";
  case AICC_DTYPE_FLOAT8E5M2:
    return "float8e5m2";
  case AICC_DTYPE_FLOAT8E5M2FNUZ:
    return "float8e5m2fnuz";
  }
  return "unknown";
}

extern "C" size_t aicc_dtype_size(aicc_dtype dtype) {
  return aicc::runtime::dtypeSize(dtype);
}

size_t aicc::runtime::dtypeSize(uint32_t dtype) {
  // A switch on the integer: a code read from a file may be none of the
  // enumerators, and converting it to aicc_dtype first would be undefined.
  switch (dtype) {
  case AICC_DTYPE_BOOL:
  case AICC_DTYPE_UINT8:
  case AICC_DTYPE_INT8:
  case AICC_DTYPE_FLOAT8E4M3FN:
  case AICC_DTYPE_FLOAT8E4M3FNUZ:
  case AICC_DTYPE_FLOAT8E5M2:
  case AICC_DTYPE_FLOAT8E5M2FNUZ:
    return 1;
  case AICC_DTYPE_UINT16:
  case AICC_DTYPE_INT16:
  case AICC_DTYPE_FLOAT16:
  case AICC_DTYPE_BFLOAT16:
    return 2;
  case AICC_DTYPE_FLOAT32:
  case AICC_DTYPE_INT32:
  case AICC_DTYPE_UINT32:
    return 4;
  case AICC_DTYPE_INT64:
  case AICC_DTYPE_UINT64:
  case AICC_DTYPE_FLOAT64:
    return 8;
  }
  return 0;
}
