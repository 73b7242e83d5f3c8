//===- aicc.cpp - The aicc compiler driver --------------------------------===//
//
// aicc MODEL.onnx [-o FILE] [--emit=tile] [--input-shape=NAME=DxD...]
// aicc --list-ops
//
// A thin main over the library pipelines: it parses options, calls them, and
// prints their diagnostics. Exit status: 0 on success, 1 on any error.
//
//===----------------------------------------------------------------------===//

#include "aicc/Importer/ONNXImporter.h"
#include "aicc/InitAll.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {

enum class EmitKind { Tile };

cl::OptionCategory category("aicc options");

cl::opt<std::string> inputPath(cl::Positional, cl::desc("<model.onnx>"),
                               cl::cat(category));
cl::opt<std::string> outputPath("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(category));
cl::opt<EmitKind> emit("emit", cl::desc("What to produce"),
                       cl::values(clEnumValN(EmitKind::Tile, "tile",
                                             "the imported tile-dialect IR")),
                       cl::init(EmitKind::Tile), cl::cat(category));
cl::list<std::string>
    inputShapes("input-shape",
                cl::desc("Pin a graph input's shape: NAME=1x3x224x224 "
                         "(repeatable; NAME=scalar for rank 0)"),
                cl::value_desc("NAME=DxD..."), cl::cat(category));
cl::opt<bool> listOps("list-ops",
                      cl::desc("Print the supported ONNX operators and exit"),
                      cl::cat(category));

/// Prints diagnostics as `FILE: error: message`, the form compilers use.
void printDiagnostic(mlir::Diagnostic &diagnostic, raw_ostream &os) {
  std::string where = "aicc";
  if (auto file = dyn_cast<mlir::FileLineColLoc>(diagnostic.getLocation())) {
    where = file.getFilename().str();
    if (file.getLine() != 0)
      where += ":" + std::to_string(file.getLine()) + ":" +
               std::to_string(file.getColumn());
  }
  auto severity = [](mlir::DiagnosticSeverity s) {
    switch (s) {
    case mlir::DiagnosticSeverity::Error:
      return "error";
    case mlir::DiagnosticSeverity::Warning:
      return "warning";
    case mlir::DiagnosticSeverity::Note:
      return "note";
    case mlir::DiagnosticSeverity::Remark:
      return "remark";
    }
    return "error";
  };
  os << where << ": " << severity(diagnostic.getSeverity()) << ": "
     << diagnostic.str() << "\n";
  for (mlir::Diagnostic &note : diagnostic.getNotes())
    os << where << ": note: " << note.str() << "\n";
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "aicc: an ahead-of-time compiler for ONNX "
                              "models\n");

  if (listOps) {
    aicc::printSupportedONNXOps(outs());
    return 0;
  }
  if (inputPath.empty()) {
    errs() << "aicc: error: no input model (see aicc --help)\n";
    return 1;
  }

  aicc::ONNXImportOptions options;
  for (const std::string &shape : inputShapes)
    if (!aicc::parseInputShape(shape, options)) {
      errs() << "aicc: error: --input-shape expects NAME=DxDx..., got '"
             << shape << "'\n";
      return 1;
    }

  mlir::DialectRegistry registry;
  aicc::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  mlir::ScopedDiagnosticHandler handler(&context, [](mlir::Diagnostic &d) {
    printDiagnostic(d, errs());
    return mlir::success();
  });

  mlir::OwningOpRef<mlir::ModuleOp> module =
      aicc::importONNXModel(context, inputPath, options);
  if (!module)
    return 1;

  std::string error;
  std::unique_ptr<ToolOutputFile> output =
      mlir::openOutputFile(outputPath, &error);
  if (!output) {
    errs() << "aicc: error: " << error << "\n";
    return 1;
  }
  switch (emit) {
  case EmitKind::Tile:
    module->print(output->os());
    output->os() << "\n";
    break;
  }
  output->keep();
  return 0;
}
