//===- Tools.h - External tools the code generators run ---------*- C++ -*-===//
//
// The CPU and GPU code generators hand an object to an outside program (the
// ELF linker, ptxas) and read back what it wrote; this is that step, once.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_TARGET_TOOLS_H
#define AICC_TARGET_TOOLS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace aicc {

/// The ELF linker as an executable path: `linker` when given, else
/// $AICC_LLD, else the ld.lld found when aicc was configured; an absolute
/// path or a name looked up in PATH. The error says how to get one.
llvm::Expected<std::string> findLinker(llvm::StringRef linker = {});

/// Writes `input` to a temporary file ending in `inSuffix`, runs `tool`
/// with the arguments `makeArgs` builds from that file's path and an output
/// path, and returns the output file's bytes. On failure the error reads
/// "<what> failed (<exit status or reason>): <the tool's output>". The
/// temporary files are removed either way.
llvm::Expected<std::string>
runFileTool(llvm::StringRef tool, llvm::StringRef input,
            llvm::StringRef inSuffix,
            llvm::function_ref<llvm::SmallVector<std::string>(llvm::StringRef,
                                                              llvm::StringRef)>
                makeArgs,
            const llvm::Twine &what);

} // namespace aicc

#endif // AICC_TARGET_TOOLS_H
