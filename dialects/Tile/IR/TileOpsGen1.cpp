//===- TileOpsGen1.cpp - Generated op definitions, second shard -----------===//
//
// The ODS-generated op classes are compiled in two translation units so that
// the two halves build in parallel and editing hand-written op code does not
// recompile them.
//
//===----------------------------------------------------------------------===//

#include "Tile/IR/TileOps.h"

using namespace mlir;

#define GET_OP_DEFS_1
#include "Tile/IR/TileOps.cpp.inc"
