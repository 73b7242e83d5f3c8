//===- ExternalDataFuzzer.cpp - libFuzzer target: external data paths -----===//
//
// Arbitrary bytes as an ONNX model whose folder holds external data and
// traps: a data file, one in a subfolder, a symbolic link that leads out of
// the folder, a hard link to a file outside it, and a FIFO. Any tensor the
// model points at must be read from inside the folder or refused; the
// harness checks that the bytes of the outside file never reach the IR.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"

#include "aicc/Importer/ONNXImporter.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {
/// Bytes of the file outside the model's folder: if they show up in the
/// imported IR, the resolver read from outside.
constexpr char kSecret[] = "AICC-SECRET-OUTSIDE-THE-MODEL-FOLDER-0123456789";

void writeFile(const std::string &path, const std::string &bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    std::abort();
  if (write(fd, bytes.data(), bytes.size()) !=
      static_cast<ssize_t>(bytes.size()))
    std::abort();
  close(fd);
}

/// The model folder, made once: data.bin (4 KiB of a pattern),
/// sub/inner.bin, out-link -> ../outside/secret.bin, hard -> the secret by
/// hard link, fifo.
const std::string &modelDir() {
  static std::string dir = [] {
    char root[] = "/tmp/aicc-fuzz-external-XXXXXX";
    if (!mkdtemp(root))
      std::abort();
    std::string base = root;
    std::string model = base + "/model", outside = base + "/outside";
    mkdir(model.c_str(), 0700);
    mkdir(outside.c_str(), 0700);
    mkdir((model + "/sub").c_str(), 0700);
    std::string pattern;
    for (int i = 0; i < 4096; ++i)
      pattern.push_back(static_cast<char>(i * 7));
    writeFile(model + "/data.bin", pattern);
    writeFile(model + "/sub/inner.bin", pattern.substr(0, 64));
    std::string secret;
    while (secret.size() < 4096)
      secret += kSecret;
    writeFile(outside + "/secret.bin", secret);
    if (symlink("../outside/secret.bin", (model + "/out-link").c_str()) != 0 ||
        link((outside + "/secret.bin").c_str(), (model + "/hard").c_str()) !=
            0 ||
        mkfifo((model + "/fifo").c_str(), 0600) != 0)
      std::abort();
    return model;
  }();
  return dir;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto context = aicc::fuzz::makeContext();
  aicc::ONNXImportOptions options;
  options.foldElementLimit = 1 << 16;
  options.maxOperations = 20000;
  // Every initializer stays a constant, so read bytes would appear in the IR.
  options.constantElementLimit = 1 << 16;
  mlir::OwningOpRef<mlir::ModuleOp> module = aicc::importONNXModelFromBuffer(
      *context, llvm::StringRef(reinterpret_cast<const char *>(data), size),
      modelDir(), "fuzz.onnx", options);
  if (!module)
    return 0;
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags().printGenericOpForm());
  // Elided or hex-printed, the secret's prefix would show as "AICC-SECRET" or
  // its hex; check both.
  if (text.find("AICC-SECRET") != std::string::npos ||
      text.find("414943432D534543524554") != std::string::npos)
    std::abort(); // read from outside the model's folder
  return 0;
}
