//===- OpTable.cpp - The opset-aware table of ONNX conversions ------------===//

#include "ImporterInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace aicc::onnx_importer {

/// The table's key of `opType` in `domain`.
static std::string qualifiedName(llvm::StringRef domain,
                                 llvm::StringRef opType) {
  return isDefaultDomain(domain) ? opType.str() : (domain + "." + opType).str();
}

void OpTable::add(llvm::StringRef domain, llvm::StringRef opType,
                  int sinceVersion, Converter converter) {
  if (!isDefaultDomain(domain))
    domains.insert(domain);
  auto &list = entries[qualifiedName(domain, opType)];
  list.push_back({sinceVersion, std::move(converter)});
  llvm::sort(list, [](const Entry &a, const Entry &b) {
    return a.sinceVersion < b.sinceVersion;
  });
}

const Converter *OpTable::lookup(llvm::StringRef domain, llvm::StringRef opType,
                                 int64_t version) const {
  auto it = entries.find(qualifiedName(domain, opType));
  if (it == entries.end())
    return nullptr;
  const Converter *found = nullptr;
  for (const Entry &entry : it->second)
    if (entry.sinceVersion <= version)
      found = &entry.converter;
  return found;
}

int OpTable::firstVersion(llvm::StringRef domain,
                          llvm::StringRef opType) const {
  auto it = entries.find(qualifiedName(domain, opType));
  return it == entries.end() ? 0 : it->second.front().sinceVersion;
}

bool OpTable::knowsDomain(llvm::StringRef domain) const {
  return isDefaultDomain(domain) || domains.contains(domain);
}

void OpTable::print(llvm::raw_ostream &os) const {
  llvm::SmallVector<llvm::StringRef> names, others;
  for (const auto &entry : entries)
    (entry.getKey().contains('.') ? others : names).push_back(entry.getKey());
  llvm::sort(names);
  llvm::sort(others);
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
  if (others.empty())
    return;
  os << "Operators of other domains:\n";
  for (llvm::StringRef name : others)
    os << "  " << name << "\n";
  os << others.size() << " operators\n";
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
    registerMicrosoftQuantizationOps(t);
    registerMicrosoftFusionOps(t);
    registerRecurrentOps(t);
    registerSignalOps(t);
    registerLossOps(t);
    return t;
  }();
  return table;
}

} // namespace aicc::onnx_importer
