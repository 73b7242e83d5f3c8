//===- Tools.cpp - External tools the code generators run -----------------===//

#include "aicc/Target/Tools.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <vector>

#ifndef AICC_DEFAULT_LINKER
#define AICC_DEFAULT_LINKER "ld.lld"
#endif

using namespace llvm;

namespace {
Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// Temporary files removed when it goes out of scope.
struct TemporaryFiles {
  std::vector<std::string> paths;
  ~TemporaryFiles() {
    for (const std::string &path : paths)
      sys::fs::remove(path);
  }
  Expected<std::string> create(StringRef suffix) {
    SmallString<128> path;
    if (std::error_code ec = sys::fs::createTemporaryFile("aicc", suffix, path))
      return makeError("cannot create a temporary file: " + ec.message());
    paths.push_back(path.str().str());
    return paths.back();
  }
};

Expected<std::string> readFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  return (*buffer)->getBuffer().str();
}
} // namespace

Expected<std::string> aicc::findLinker(StringRef linker) {
  std::string name = linker.str();
  if (name.empty()) {
    const char *fromEnv = std::getenv("AICC_LLD");
    name = fromEnv && *fromEnv ? fromEnv : AICC_DEFAULT_LINKER;
  }
  ErrorOr<std::string> path = sys::path::is_absolute(name)
                                  ? ErrorOr<std::string>(name)
                                  : sys::findProgramByName(name);
  if (!path || !sys::fs::can_execute(*path))
    return makeError("cannot run the linker '" + name +
                     "'; install lld-22 (scripts/install-deps.sh) or set "
                     "AICC_LLD");
  return *path;
}

Expected<std::string> aicc::runFileTool(
    StringRef tool, StringRef input, StringRef inSuffix,
    function_ref<SmallVector<std::string>(StringRef, StringRef)> makeArgs,
    const Twine &what) {
  TemporaryFiles files;
  Expected<std::string> in = files.create(inSuffix);
  if (!in)
    return in.takeError();
  Expected<std::string> out = files.create("out");
  if (!out)
    return out.takeError();
  Expected<std::string> log = files.create("log");
  if (!log)
    return log.takeError();
  {
    std::error_code ec;
    raw_fd_ostream os(*in, ec);
    if (ec)
      return makeError("cannot write '" + *in + "': " + ec.message());
    os << input;
    os.close();
    if (os.has_error())
      return makeError("cannot write '" + *in + "'");
  }
  SmallVector<std::string> args = makeArgs(*in, *out);
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, *log, *log};
  std::string message;
  int status =
      sys::ExecuteAndWait(tool, argRefs, std::nullopt, redirects,
                          /*SecondsToWait=*/0, /*MemoryLimit=*/0, &message);
  if (status != 0) {
    Expected<std::string> output = readFile(*log);
    return makeError(
        what + " failed (" +
        (message.empty() ? "exit " + std::to_string(status) : message) + "): " +
        (output ? StringRef(*output).trim().str()
                : toString(output.takeError())));
  }
  return readFile(*out);
}
