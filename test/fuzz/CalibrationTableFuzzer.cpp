//===- CalibrationTableFuzzer.cpp - libFuzzer target: calibration tables --===//
//
// Arbitrary bytes as a calibration table file (--calibration-table): the
// reader accepts a valid table or refuses it with an error, and never
// crashes. A table it accepts is written back and must read again as the
// same table (the writer's output is one the reader takes, value for
// value).
//
//===----------------------------------------------------------------------===//

#include "aicc/Quantize/Quantize.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace {
/// A file of this process's own, rewritten for each input.
const std::string &scratch(const char *name) {
  static std::string dir = [] {
    char root[] = "/tmp/aicc-fuzz-table-XXXXXX";
    if (!mkdtemp(root))
      std::abort();
    return std::string(root);
  }();
  static std::string input = dir + "/input.json",
                     output = dir + "/written.json";
  return std::string(name) == "input" ? input : output;
}

bool sameTable(const aicc::CalibrationTable &a,
               const aicc::CalibrationTable &b) {
  if (a.method != b.method || a.samples != b.samples ||
      a.tensors.size() != b.tensors.size())
    return false;
  for (const auto &[name, range] : a.tensors) {
    auto it = b.tensors.find(name);
    if (it == b.tensors.end() || it->second.min != range.min ||
        it->second.max != range.max || it->second.threshold != range.threshold)
      return false;
  }
  return true;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &input = scratch("input");
  int fd = open(input.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || write(fd, data, size) != static_cast<ssize_t>(size))
    std::abort();
  close(fd);
  llvm::Expected<aicc::CalibrationTable> table =
      aicc::readCalibrationTable(input);
  if (!table) {
    llvm::consumeError(table.takeError());
    return 0;
  }
  const std::string &written = scratch("output");
  if (llvm::Error error =
          aicc::writeCalibrationTable(*table, written)) {
    llvm::consumeError(std::move(error));
    std::abort();
  }
  llvm::Expected<aicc::CalibrationTable> again =
      aicc::readCalibrationTable(written);
  if (!again || !sameTable(*table, *again))
    std::abort();
  return 0;
}
