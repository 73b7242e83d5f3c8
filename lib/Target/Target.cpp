//===- Target.cpp - The target registry -----------------------------------===//

#include "aicc/Target/Target.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;
using namespace aicc;

CompileSession::~CompileSession() = default;
Target::~Target() = default;

const EmitStage *Target::findEmitStage(llvm::StringRef name) const {
  for (const EmitStage &stage : getEmitStages())
    if (stage.name == name)
      return &stage;
  return nullptr;
}

llvm::Error Target::verify(const TargetOptions &options) const {
  if (options.optLevel > 3)
    return llvm::createStringError("the optimization level must be 0 to 3");
  return verifyOptions(options);
}

llvm::Expected<std::unique_ptr<TargetOptions>>
Target::parseOptions(llvm::ArrayRef<std::string> args) const {
  std::unique_ptr<TargetOptions> options = createOptions();
  // Each argument is parsed alone, so that an error names it.
  for (const std::string &arg : args) {
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    // PassOptions takes "key=value" and "key={a b}"; a lone "key" sets a
    // flag.
    if (failed(options->parseFromString(arg, errorStream))) {
      // The parser says so here of an unknown option; of a bad value,
      // llvm::cl has said why already.
      if (!errors.empty())
        return llvm::createStringError(
            "the " + getName().str() + " target has no option '--" +
            llvm::StringRef(arg).split('=').first + "'");
      return llvm::createStringError("'--" + arg + "' is not a value the " +
                                     getName().str() + " target takes");
    }
  }
  return std::move(options);
}

namespace {
struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<Target>> targets;
};

Registry &registry() {
  static Registry instance;
  return instance;
}
} // namespace

void TargetRegistry::add(std::unique_ptr<Target> target) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const std::unique_ptr<Target> &existing : r.targets)
    if (existing->getName() == target->getName())
      llvm::report_fatal_error("target '" + target->getName() +
                               "' registered twice");
  r.targets.push_back(std::move(target));
}

const Target *TargetRegistry::lookup(llvm::StringRef name) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const std::unique_ptr<Target> &target : r.targets)
    if (target->getName() == name)
      return target.get();
  return nullptr;
}

std::vector<const Target *> TargetRegistry::all() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<const Target *> result;
  for (const std::unique_ptr<Target> &target : r.targets)
    result.push_back(target.get());
  return result;
}

std::string TargetRegistry::names() {
  std::vector<std::string> names;
  for (const Target *target : all())
    names.push_back(target->getName().str());
  return llvm::join(names, ", ");
}
