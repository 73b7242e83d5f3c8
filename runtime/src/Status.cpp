//===- Status.cpp - Status codes of the runtime C ABI ---------------------===//

#include "aicc/runtime.h"

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
