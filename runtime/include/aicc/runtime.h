/*===- aicc/runtime.h - The aicc runtime C ABI ------------------*- C -*-===*
 *
 * The stable C interface of the aicc runtime. Every entry point reports
 * failure through an aicc_status_t; no function aborts or throws across this
 * boundary.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AICC_RUNTIME_H
#define AICC_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every runtime call. AICC_OK is zero; every other value names one
/// failure class so that callers can branch on it without parsing messages.
typedef enum aicc_status_t {
  AICC_OK = 0,
  AICC_INVALID_ARGUMENT = 1,    /* a caller passed a bad handle or value */
  AICC_INVALID_BUNDLE = 2,      /* the bundle is malformed or corrupted */
  AICC_UNSUPPORTED_VERSION = 3, /* the bundle's format version is unknown */
  AICC_UNSUPPORTED_TARGET = 4,  /* no code in the bundle for this device */
  AICC_RESOURCE_EXHAUSTED = 5,  /* an allocation failed */
  AICC_DEVICE_UNAVAILABLE = 6,  /* the device or its driver is missing */
  AICC_DEVICE_LOST = 7,         /* the device failed; the context is unusable */
  AICC_IO_ERROR = 8,            /* a file could not be read */
  AICC_INTERNAL = 9             /* a runtime bug; please report it */
} aicc_status_t;

/// A short, static, human-readable name for a status code. Never NULL; unknown
/// values map to "unknown status". Thread-safe.
const char *aicc_status_string(aicc_status_t status);

/// The runtime's version as "MAJOR.MINOR.PATCH". Static storage; thread-safe.
const char *aicc_runtime_version(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AICC_RUNTIME_H */
