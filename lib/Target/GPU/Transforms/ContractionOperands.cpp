//===- ContractionOperands.cpp - How the tensor-core kernels read operands ===//
//
// An operand is read 16 bytes at a time when its contiguous dimension walks
// the innermost loops of one role (k, or its rows) in order. Convolutions
// hide that behind loops of extent 1 and dimensions split in two: a 1x1
// filter is [f, c, 1, 1] (c contiguous, then two unit dimensions), an
// image [n, c, h, w] walks the pixel loops h and w in two dimensions that
// are contiguous together. `prepareOperands` gives such operands views
// whose last dimension is the whole run (the filter as [f, c], the image
// as [n, c, h * w]) and orders the inputs so that A is the one read along
// k, as wgmma wants it: a 1x1 convolution becomes a product of the filter
// and the image, the pixels as columns.
//
//===----------------------------------------------------------------------===//

#include "MMAKernel.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace aicc::gpu::mma {
namespace {

/// Fewest rows the second input may have to become A.
constexpr int64_t kMinSwappedRows = 64;

/// `e` as coefficients of loops, if it is a sum of loops times constants.
std::optional<DenseMap<unsigned, int64_t>> linearTerms(AffineExpr e) {
  DenseMap<unsigned, int64_t> terms;
  bool ok = true;
  std::function<void(AffineExpr, int64_t)> walk = [&](AffineExpr x,
                                                      int64_t scale) {
    if (auto dim = dyn_cast<AffineDimExpr>(x)) {
      terms[dim.getPosition()] += scale;
      return;
    }
    auto binary = dyn_cast<AffineBinaryOpExpr>(x);
    if (!binary) {
      ok = false;
      return;
    }
    if (binary.getKind() == AffineExprKind::Add) {
      walk(binary.getLHS(), scale);
      walk(binary.getRHS(), scale);
    } else if (binary.getKind() == AffineExprKind::Mul) {
      auto constant = dyn_cast<AffineConstantExpr>(binary.getRHS());
      if (!constant)
        ok = false;
      else
        walk(binary.getLHS(), scale * constant.getValue());
    } else {
      ok = false;
    }
  };
  walk(e, 1);
  if (!ok)
    return std::nullopt;
  return terms;
}

/// How many of the innermost `loops` `e` linearizes row-major
/// (`loops[n-1]` with coefficient 1, each outer one times the extents
/// inside it), with no other loop but loops of extent 1 (always 0); 0 if
/// it is no such run.
int64_t runLength(AffineExpr e, ArrayRef<unsigned> loops,
                  ArrayRef<int64_t> bounds) {
  std::optional<DenseMap<unsigned, int64_t>> terms = linearTerms(e);
  if (!terms || loops.empty())
    return 0;
  int64_t length = 0, coefficient = 1;
  for (unsigned loop : llvm::reverse(loops)) {
    auto it = terms->find(loop);
    if (it == terms->end() || it->second != coefficient)
      break;
    coefficient *= bounds[loop];
    ++length;
  }
  // Every other term is a unit loop's.
  size_t others = llvm::count_if(*terms, [&](auto &term) {
    return term.second != 0 && bounds[term.first] != 1;
  });
  return static_cast<size_t>(length) == others ? length : 0;
}

/// The one loop of extent > 1 that `e` is (plus unit loops), if any.
std::optional<unsigned> soleLoop(AffineExpr e, ArrayRef<int64_t> bounds) {
  std::optional<DenseMap<unsigned, int64_t>> terms = linearTerms(e);
  if (!terms)
    return std::nullopt;
  std::optional<unsigned> loop;
  for (auto [l, coefficient] : *terms) {
    if (coefficient == 0 || bounds[l] == 1)
      continue;
    if (loop || coefficient != 1)
      return std::nullopt;
    loop = l;
  }
  return loop;
}

/// The loops of `c`'s role that `loop` has (k, m or n), or none.
ArrayRef<unsigned> roleOf(const aicc::gpu::Contraction &c, unsigned loop) {
  for (ArrayRef<unsigned> role : {ArrayRef(c.k), ArrayRef(c.m), ArrayRef(c.n)})
    if (llvm::is_contained(role, loop))
      return role;
  return {};
}

/// One operand as prepareOperands reads it.
struct PreparedOperand {
  Value memref;
  AffineMap map;
};

/// `memref` indexed by `map`, or a view of it whose last dimension is its
/// innermost run of loops of one role: the dimensions of the run (several
/// contiguous ones, or one followed by unit dimensions) become one, last,
/// indexed by their row-major linearization; the other dimensions keep
/// their order, unit ones included (their loops stay in the map).
PreparedOperand collapseRun(OpBuilder &b, Location loc, Value memref,
                            AffineMap map, const aicc::gpu::Contraction &c) {
  PreparedOperand same{memref, map};
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return same;
  ArrayRef<int64_t> shape = type.getShape();
  ArrayRef<AffineExpr> results = map.getResults();
  // The run, innermost first: the last dimensions of extent > 1, each the
  // next loop of the role outwards and contiguous with the one inside it.
  SmallVector<int64_t> run;
  ArrayRef<unsigned> role;
  for (int64_t i = type.getRank() - 1; i >= 0; --i) {
    if (shape[i] == 1)
      continue;
    std::optional<unsigned> loop = soleLoop(results[i], c.bounds);
    if (!loop)
      break;
    if (run.empty()) {
      role = roleOf(c, *loop);
      if (role.empty())
        break;
    }
    if (run.size() == role.size() ||
        role[role.size() - 1 - run.size()] != *loop ||
        shape[i] != c.bounds[*loop] ||
        (!run.empty() && strides[i] != strides[run.back()] * shape[run.back()]))
      break;
    run.push_back(i);
  }
  bool unitAfter = !run.empty() && run.front() != type.getRank() - 1;
  if (run.empty() || (run.size() == 1 && !unitAfter))
    return same;
  std::reverse(run.begin(), run.end());
  SmallVector<int64_t> viewShape, viewStrides;
  SmallVector<AffineExpr> viewResults;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (llvm::is_contained(run, i))
      continue;
    viewShape.push_back(shape[i]);
    viewStrides.push_back(strides[i]);
    viewResults.push_back(results[i]);
  }
  int64_t extent = 1;
  AffineExpr linear = getAffineConstantExpr(0, map.getContext());
  for (int64_t i : run) {
    extent *= shape[i];
    linear = linear * shape[i] + results[i];
  }
  viewShape.push_back(extent);
  viewStrides.push_back(strides[run.back()]);
  viewResults.push_back(linear);
  auto viewType = MemRefType::get(
      viewShape, type.getElementType(),
      StridedLayoutAttr::get(type.getContext(), offset, viewStrides),
      type.getMemorySpace());
  Value view = memref::ReinterpretCastOp::create(
      b, loc, viewType, memref, offset, viewShape, viewStrides);
  return {view,
          AffineMap::get(map.getNumDims(), 0, viewResults, map.getContext())};
}

} // namespace

bool vectorizable(Value memref, AffineMap map, ArrayRef<unsigned> loops,
                  ArrayRef<int64_t> bounds, int64_t lanes) {
  if (map.getNumResults() == 0 || loops.empty())
    return false;
  AffineExpr last = map.getResults().back();
  int64_t length = runLength(last, loops, bounds);
  if (length == 0)
    return false;
  ArrayRef<unsigned> run = loops.take_back(length);
  int64_t extent = 1;
  for (unsigned loop : run)
    extent *= bounds[loop];
  if (extent % lanes != 0)
    return false;
  for (AffineExpr e : map.getResults().drop_back())
    for (unsigned loop : run)
      if (e.isFunctionOfDim(loop))
        return false;
  auto type = cast<MemRefType>(memref.getType());
  return type.hasStaticShape() &&
         type.getDimSize(type.getRank() - 1) >= extent &&
         aicc::gpu::rowVectorsAligned(type, lanes);
}

Access chooseAccess(Value memref, AffineMap map, ArrayRef<unsigned> rowLoops,
                    const aicc::gpu::Contraction &c) {
  if (vectorizable(memref, map, c.k, c.bounds))
    return Access::KVector;
  if (vectorizable(memref, map, rowLoops, c.bounds))
    return Access::RowVector;
  return Access::Scalar;
}

linalg::GenericOp prepareOperands(linalg::GenericOp op,
                                  const aicc::gpu::Contraction &c) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto viewOf = [&](unsigned i) {
    return collapseRun(b, loc, op.getDpsInputs()[i], maps[i], c);
  };
  PreparedOperand x = viewOf(0), y = viewOf(1);
  bool xChanged = x.memref != op.getDpsInputs()[0],
       yChanged = y.memref != op.getDpsInputs()[1];
  auto dropUnused = [](PreparedOperand &p, bool changed) {
    if (changed && p.memref.use_empty())
      p.memref.getDefiningOp()->erase();
  };
  // A linalg op's loop extents come from dimensions indexed by one loop: a
  // view is kept only if every loop it linearizes is still one elsewhere
  // (a 3x3 filter's kh and kw index the image only in sums).
  auto keepsLoops = [&](ArrayRef<AffineMap> candidate) {
    return llvm::all_of(
        llvm::seq<unsigned>(0, op.getNumLoops()), [&](unsigned l) {
          return llvm::any_of(candidate, [&](AffineMap m) {
            return llvm::any_of(m.getResults(), [&](AffineExpr e) {
              auto dim = dyn_cast<AffineDimExpr>(e);
              return dim && dim.getPosition() == l;
            });
          });
        });
  };
  auto restore = [&](PreparedOperand &p, unsigned i, bool &changed) {
    dropUnused(p, changed);
    p = {op.getDpsInputs()[i], maps[i]};
    changed = false;
  };
  if (xChanged && !keepsLoops({x.map, maps[1], maps[2]}))
    restore(x, 0, xChanged);
  if (yChanged && !keepsLoops({x.map, y.map, maps[2]}))
    restore(y, 1, yChanged);
  // A along k: the second input when only it is read so, and the output's
  // contiguous dimension is among the first's rows (a convolution's
  // pixels), which then become the columns its stores walk. The roles swap
  // with the inputs, so the second's rows must fill the kernels' blocks of
  // 64 or 128 rows: a projection to 16 or 32 channels keeps the pixels as
  // rows (on the H100, MobileNetV2's 32 -> 16 at batch 32: 0.081 ms as it
  // is, 0.222 swapped).
  auto outLast = dyn_cast<AffineDimExpr>(maps[2].getResults().back());
  bool swap = c.extent(c.n) >= kMinSwappedRows && c.extent(c.m) >= 8 &&
              chooseAccess(y.memref, y.map, c.n, c) == Access::KVector &&
              chooseAccess(x.memref, x.map, c.m, c) != Access::KVector &&
              outLast && llvm::is_contained(c.m, outLast.getPosition());
  if (!swap && !xChanged && !yChanged)
    return op;
  if (!swap &&
      chooseAccess(x.memref, x.map, c.m, c) ==
          chooseAccess(op.getDpsInputs()[0], maps[0], c.m, c) &&
      chooseAccess(y.memref, y.map, c.n, c) ==
          chooseAccess(op.getDpsInputs()[1], maps[1], c.n, c)) {
    // The views change no access: the op stays as it was.
    dropUnused(x, xChanged);
    dropUnused(y, yChanged);
    return op;
  }
  if (swap)
    std::swap(x, y);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{}, ValueRange{x.memref, y.memref}, op.getDpsInits(),
      ArrayRef<AffineMap>{x.map, y.map, maps[2]}, op.getIteratorTypesArray());
  generic->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  Block *old = op.getBody();
  Block *body = b.createBlock(&generic.getRegion());
  IRMapping mapping;
  for (unsigned i = 0; i < 3; ++i) {
    unsigned from = swap && i < 2 ? 1 - i : i;
    mapping.map(old->getArgument(from),
                body->addArgument(old->getArgument(from).getType(), loc));
  }
  b.setInsertionPointToStart(body);
  for (Operation &inner : *old)
    b.clone(inner, mapping);
  op.erase();
  return generic;
}

} // namespace aicc::gpu::mma
