//===- Table.cpp - The calibration table, as JSON -------------------------===//
//
//   {"format": "aicc-calibration", "version": 1, "method": "entropy",
//    "samples": 16,
//    "tensors": {"x": {"min": -2.1, "max": 3.4, "threshold": 3.0}, ...}}
//
// The file may come from anywhere: every field is checked (types, finite
// numbers, min <= 0 <= max after widening, threshold within the range) and
// the sizes are bounded before anything is used.
//
//===----------------------------------------------------------------------===//

#include "aicc/Quantize/Quantize.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;

namespace {
constexpr int64_t kMaxTableBytes = 64 << 20;
constexpr size_t kMaxTensors = 1 << 20;

Error invalid(const std::string &path, const Twine &why) {
  return createStringError(inconvertibleErrorCode(),
                           "calibration table '" + path + "': " + why);
}
} // namespace

Expected<aicc::CalibrationTable>
aicc::readCalibrationTable(const std::string &path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return invalid(path, buffer.getError().message());
  if ((*buffer)->getBufferSize() > kMaxTableBytes)
    return invalid(path, "larger than 64 MiB");
  Expected<json::Value> parsed = json::parse((*buffer)->getBuffer());
  if (!parsed)
    return invalid(path, "not JSON: " + toString(parsed.takeError()));
  const json::Object *root = parsed->getAsObject();
  if (!root)
    return invalid(path, "the top level must be an object");
  if (root->getString("format") != StringRef("aicc-calibration"))
    return invalid(path, "\"format\" must be \"aicc-calibration\"");
  if (root->getInteger("version") != 1)
    return invalid(path, "\"version\" must be 1");
  CalibrationTable table;
  std::optional<StringRef> method = root->getString("method");
  if (!method)
    return invalid(path, "\"method\" must be a string");
  table.method = method->str();
  std::optional<int64_t> samples = root->getInteger("samples");
  if (!samples || *samples < 0)
    return invalid(path, "\"samples\" must be a non-negative integer");
  table.samples = *samples;
  const json::Object *tensors = root->getObject("tensors");
  if (!tensors)
    return invalid(path, "\"tensors\" must be an object");
  if (tensors->size() > kMaxTensors)
    return invalid(path, "more than 2^20 tensors");
  for (const auto &[name, value] : *tensors) {
    const json::Object *entry = value.getAsObject();
    std::string where = "tensor '" + name.str() + "'";
    if (!entry)
      return invalid(path, where + " must be an object");
    TensorRange range;
    for (auto [key, field] : {std::pair<StringRef, double *>{"min", &range.min},
                              {"max", &range.max},
                              {"threshold", &range.threshold}}) {
      std::optional<double> number = entry->getNumber(key);
      if (!number || !std::isfinite(*number))
        return invalid(path, where + ": \"" + key +
                                 "\" must be a finite "
                                 "number");
      *field = *number;
    }
    if (range.min > range.max)
      return invalid(path, where + ": \"min\" is above \"max\"");
    if (range.threshold < 0 ||
        range.threshold > std::max(std::abs(range.min), std::abs(range.max)))
      return invalid(path, where + ": \"threshold\" must lie in [0, "
                                   "max(|min|, |max|)]");
    table.tensors[name.str()] = range;
  }
  return table;
}

Error aicc::writeCalibrationTable(const CalibrationTable &table,
                                  const std::string &path) {
  json::Object tensors;
  for (const auto &[name, range] : table.tensors)
    tensors[name] = json::Object{
        {"min", range.min}, {"max", range.max}, {"threshold", range.threshold}};
  json::Object root{{"format", "aicc-calibration"},
                    {"version", 1},
                    {"method", table.method},
                    {"samples", table.samples},
                    {"tensors", std::move(tensors)}};
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_TextWithCRLF);
  if (ec)
    return createStringError(ec, "cannot write calibration table '" + path +
                                     "': " + ec.message());
  os << formatv("{0:2}", json::Value(std::move(root))) << "\n";
  return Error::success();
}
