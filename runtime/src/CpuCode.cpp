//===- CpuCode.cpp - Loading a CPU code object ----------------------------===//
//
// The image is handed to the system's dynamic loader from an anonymous
// memory file (memfd), so that loading needs no writable directory and
// leaves nothing behind. Where memfd is unavailable, a private temporary
// file is used and unlinked at once.
//
//===----------------------------------------------------------------------===//

#include "CpuCode.h"

#include "Error.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

using namespace aicc::runtime;

namespace {
bool writeAll(int fd, const uint8_t *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

int anonymousFile() {
#if defined(SYS_memfd_create)
  int fd = static_cast<int>(
      syscall(SYS_memfd_create, "aicc-code", 1u /*MFD_CLOEXEC*/));
  if (fd >= 0)
    return fd;
#endif
  return -1;
}
} // namespace

CpuCode::~CpuCode() {
  if (handle)
    dlclose(handle);
}

namespace {
/// The file a code object is written to for the loader: closed, and
/// removed when it is a temporary, however load returns.
struct ScratchFile {
  int fd = -1;
  std::string path;
  bool temporary = false;
  ScratchFile() = default;
  ScratchFile(const ScratchFile &) = delete;
  ScratchFile &operator=(const ScratchFile &) = delete;
  ~ScratchFile() {
    if (temporary)
      ::unlink(path.c_str());
    if (fd >= 0)
      ::close(fd);
  }
  /// Creates a unique file from `pattern` (ending in XXXXXX) in place;
  /// nothing allocates between the file's creation and its ownership here.
  bool create(std::string pattern, bool removeAfter) {
    path = std::move(pattern);
    fd = mkostemp(path.data(), O_CLOEXEC);
    temporary = removeAfter && fd >= 0;
    return fd >= 0;
  }
};
} // namespace

aicc_status_t CpuCode::load(const uint8_t *image, size_t size) {
  ScratchFile file;
  // For profilers and debuggers, which need a file to read symbols from:
  // AICC_CODE_DIR keeps each loaded code object as a file there.
  const char *keepDir = std::getenv("AICC_CODE_DIR");
  if (keepDir && *keepDir) {
    if (!file.create(std::string(keepDir) + "/aicc-code-XXXXXX", false))
      return fail(AICC_IO_ERROR, "cannot create a file in AICC_CODE_DIR: " +
                                     std::string(std::strerror(errno)));
  } else {
    // Room for the name before the descriptor exists.
    file.path.reserve(32);
    file.fd = anonymousFile();
    if (file.fd >= 0) {
      char name[32];
      std::snprintf(name, sizeof(name), "/proc/self/fd/%d", file.fd);
      file.path = name;
    } else {
      const char *dir = std::getenv("TMPDIR");
      if (!file.create(std::string(dir && *dir ? dir : "/tmp") +
                           "/aicc-code-XXXXXX",
                       true))
        return fail(AICC_IO_ERROR, std::string("cannot create a file for the "
                                               "code object: ") +
                                       std::strerror(errno));
    }
  }
  if (!writeAll(file.fd, image, size))
    return fail(AICC_IO_ERROR, "cannot write the code object to memory");
  handle = dlopen(file.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *message = dlerror();
    return fail(AICC_INVALID_BUNDLE,
                std::string("the system loader refused the CPU code object: ") +
                    (message ? message : "unknown error"));
  }
  return AICC_OK;
}

void *CpuCode::symbol(const char *name) const {
  return handle ? dlsym(handle, name) : nullptr;
}
