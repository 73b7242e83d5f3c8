//===- ONNXImporter.h - ONNX models into the tile dialect -------*- C++ -*-===//
//
// The front door of the compiler: reads an ONNX model and builds a module
// holding one `func.func @main` of tile ops. Problems with the input are
// reported as `error:` diagnostics naming the node and a failure() result;
// nothing the file contains makes the importer abort.
//
//===----------------------------------------------------------------------===//

#ifndef AICC_IMPORTER_ONNXIMPORTER_H
#define AICC_IMPORTER_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace aicc {

/// What the importer may do and how far it may go.
struct ONNXImportOptions {
  /// Static shapes for graph inputs by name, overriding (pinning) the
  /// symbolic dimensions a model leaves open.
  llvm::SmallVector<std::pair<std::string, llvm::SmallVector<int64_t>>>
      inputShapes;
  /// Initializers with at most this many elements become foldable
  /// `tile.constant`s; larger ones become named `tile.weight`s.
  int64_t constantElementLimit = 4096;
  /// Compile-time evaluation (constant folding, shape sub-graphs) produces no
  /// tensor with more elements than this, splats aside.
  int64_t foldElementLimit = 1 << 20;
  /// The largest model file, in bytes, the importer reads.
  int64_t maxModelBytes = int64_t(2) << 30;
  /// The deepest nesting of subgraphs (If/Loop/Scan bodies) accepted.
  int maxSubgraphDepth = 64;
  /// The most operations an import may create, all graphs and unrolled
  /// sequences together: it bounds the time and memory a small model with
  /// nested control flow can make the compiler spend.
  int64_t maxOperations = 2'000'000;
};

/// Imports the ONNX model at `path`. External data is read from the model's
/// folder only. Errors are emitted as diagnostics on `context`.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXModel(mlir::MLIRContext &context, llvm::StringRef path,
                const ONNXImportOptions &options = {});

/// Imports an ONNX model held in memory. `modelDir` is where external data
/// would be found; an empty one refuses external data.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXModelFromBuffer(mlir::MLIRContext &context, llvm::StringRef buffer,
                          llvm::StringRef modelDir, llvm::StringRef displayName,
                          const ONNXImportOptions &options = {});

/// Prints every supported operator with the opset range of each conversion.
void printSupportedONNXOps(llvm::raw_ostream &os);

/// Parses `NAME=1x3x224x224` into `options.inputShapes`; false on bad text.
bool parseInputShape(llvm::StringRef text, ONNXImportOptions &options);

} // namespace aicc

#endif // AICC_IMPORTER_ONNXIMPORTER_H
