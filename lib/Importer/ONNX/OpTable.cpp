//===- OpTable.cpp - The opset-aware table of ONNX conversions ------------===//

#include "ImporterInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace aicc::onnx_importer {

void OpTable::add(llvm::StringRef opType, int sinceVersion,
                  Converter converter) {
  auto &list = entries[opType];
  list.push_back({sinceVersion, std::move(converter)});
  llvm::sort(list, [](const Entry &a, const Entry &b) {
    return a.sinceVersion < b.sinceVersion;
  });
}

const Converter *OpTable::lookup(llvm::StringRef opType, int64_t opset) const {
  auto it = entries.find(opType);
  if (it == entries.end())
    return nullptr;
  const Converter *found = nullptr;
  for (const Entry &entry : it->second)
    if (entry.sinceVersion <= opset)
      found = &entry.converter;
  return found;
}

int OpTable::firstVersion(llvm::StringRef opType) const {
  auto it = entries.find(opType);
  return it == entries.end() ? 0 : it->second.front().sinceVersion;
}

void OpTable::print(llvm::raw_ostream &os) const {
  llvm::SmallVector<llvm::StringRef> names;
  for (const auto &entry : entries)
    names.push_back(entry.getKey());
  llvm::sort(names);
  os << "Operators of the default ONNX domain that aicc imports, with the "
        "opsets each\nconversion covers:\n";
  for (llvm::StringRef name : names) {
    const auto &list = entries.find(name)->second;
    os << "  " << name;
    os.indent(std::max<int>(1, 28 - static_cast<int>(name.size())));
    os << "opset " << list.front().sinceVersion << "-" << kMaxOpset;
    if (list.size() > 1) {
      os << " (from ";
      llvm::interleaveComma(
          list, os, [&](const Entry &entry) { os << entry.sinceVersion; });
      os << ")";
    }
    os << "\n";
  }
  os << names.size() << " operators\n";
}

const OpTable &OpTable::get() {
  static const OpTable table = [] {
    OpTable t;
    registerElementwiseOps(t);
    registerMatrixOps(t);
    registerNNOps(t);
    registerReductionOps(t);
    registerShapeOps(t);
    registerIndexingOps(t);
    registerControlFlowOps(t);
    registerQuantizationOps(t);
    registerRecurrentOps(t);
    registerSignalOps(t);
    registerLossOps(t);
    return t;
  }();
  return table;
}

} // namespace aicc::onnx_importer
