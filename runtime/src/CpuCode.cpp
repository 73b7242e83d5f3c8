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

aicc_status_t CpuCode::load(const uint8_t *image, size_t size) {
  std::string path;
  bool temporary = false;
  // For profilers and debuggers, which need a file to read symbols from:
  // AICC_CODE_DIR keeps each loaded code object as a file there.
  const char *keepDir = std::getenv("AICC_CODE_DIR");
  int fd = keepDir && *keepDir ? -1 : anonymousFile();
  if (keepDir && *keepDir) {
    std::string pattern = std::string(keepDir) + "/aicc-code-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    fd = mkstemp(buffer.data());
    if (fd < 0)
      return fail(AICC_IO_ERROR, "cannot create a file in AICC_CODE_DIR: " +
                                     std::string(std::strerror(errno)));
    path = buffer.data();
  } else if (fd >= 0) {
    path = "/proc/self/fd/" + std::to_string(fd);
  } else {
    const char *dir = std::getenv("TMPDIR");
    std::string pattern =
        std::string(dir && *dir ? dir : "/tmp") + "/aicc-code-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    fd = mkstemp(buffer.data());
    if (fd < 0)
      return fail(AICC_IO_ERROR, std::string("cannot create a file for the "
                                             "code object: ") +
                                     std::strerror(errno));
    path = buffer.data();
    temporary = true;
  }
  bool written = writeAll(fd, image, size);
  if (written)
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::string loaderError;
  if (!handle) {
    const char *message = dlerror();
    loaderError = message ? message : "unknown error";
  }
  if (temporary)
    ::unlink(path.c_str());
  ::close(fd);
  if (!written)
    return fail(AICC_IO_ERROR, "cannot write the code object to memory");
  if (!handle)
    return fail(AICC_INVALID_BUNDLE,
                "the system loader refused the CPU code object: " +
                    loaderError);
  return AICC_OK;
}

void *CpuCode::symbol(const char *name) const {
  return handle ? dlsym(handle, name) : nullptr;
}
