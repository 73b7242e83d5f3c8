//===- FuseHorizontal.cpp - Products of one input side by side ------------===//
//
// Horizontal fusion. BERT's exporter writes attention's q, k and v
// projections as three products of one normalized input, each with its
// bias: three independent kernels that each read the whole input and, at
// small batches, each fill a fraction of the GPU. Side by side they are one
// product whose matrix lays the three matrices' columns end to end, one
// bias, and a slice of the result per original product: one kernel, the
// input read once, three times the blocks. That is the form GPT-2 and
// torchvision export already, which the layout chains and the attention
// kernels read in place.
//
// A traffic model decides, per group of products that can be packed: kept
// apart, each product reads the input, its matrix and writes its result,
// and costs a launch; packed, the input is read once, and a result that
// leaves the function is copied out of the packed one.
//
//===----------------------------------------------------------------------===//

#include "aicc/Support/StoredBytes.h"

#include "Tile/IR/Constants.h"
#include "Tile/IR/TileOps.h"
#include "Tile/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringSet.h"

#include <map>

namespace aicc::tile {
#define GEN_PASS_DEF_TILEFUSEHORIZONTALPASS
#include "Tile/Transforms/Passes.h.inc"
} // namespace aicc::tile

using namespace mlir;
using namespace aicc::tile;

namespace {

/// The row-major bytes of a constant, splats expanded; none where the data
/// is not in memory (a resource without its blob) or is not whole bytes.
std::optional<std::vector<char>> rowMajorBytes(ElementsAttr value) {
  auto type = cast<ShapedType>(value.getType());
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  if (type.getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(value);
      dense && dense.isSplat()) {
    ArrayRef<char> one = dense.getRawData();
    std::vector<char> bytes;
    bytes.reserve(one.size() * type.getNumElements());
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i)
      bytes.insert(bytes.end(), one.begin(), one.end());
    return bytes;
  }
  std::optional<ArrayRef<char>> stored = aicc::storedBytes(value);
  if (!stored ||
      int64_t(stored->size()) != type.getNumElements() * elementBytes)
    return std::nullopt;
  return std::vector<char>(stored->begin(), stored->end());
}

int64_t bytesOf(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// A product of the shared input with a constant matrix, and the bias
/// added to it (a constant vector along its columns) when that is the
/// product's only use.
struct Member {
  MatmulOp product;
  BinaryOp biasAdd;
  Value bias;

  Value matrix() { return product.getRhs(); }
  /// The matrix as stored: K x N, or N x K when the product transposes it.
  bool transposed() { return product.getTransposeRhs(); }
  int64_t columns() { return matrixDim(transposed() ? 0 : 1); }
  int64_t depth() { return matrixDim(transposed() ? 1 : 0); }
  int64_t matrixDim(unsigned d) {
    return product.getRhs().getType().getDimSize(d);
  }
  /// What the rest of the function reads: the biased product, or the
  /// product.
  Value result() { return biasAdd ? biasAdd.getResult() : product.getResult(); }
};

/// `op` as a member: an unbatched product of static shape with a constant
/// matrix (transposed or not), its input not transposed.
std::optional<Member> asMember(MatmulOp op) {
  TypedValue<RankedTensorType> rhs = op.getRhs();
  if (op.getTransposeLhs() || rhs.getType().getRank() != 2 ||
      !op.getType().hasStaticShape() ||
      !op.getLhs().getType().hasStaticShape() || !compileTimeValue(rhs))
    return std::nullopt;
  Member member{op, nullptr, nullptr};
  if (!op->hasOneUse())
    return member;
  auto add = dyn_cast<BinaryOp>(*op->user_begin());
  if (!add || add.getKind() != BinaryKind::add || add.getType() != op.getType())
    return member;
  Value other = add.getLhs() == op.getResult() ? add.getRhs() : add.getLhs();
  auto otherType = cast<RankedTensorType>(other.getType());
  if (otherType.getRank() == 1 && otherType.getDimSize(0) == member.columns() &&
      compileTimeValue(other)) {
    member.biasAdd = add;
    member.bias = other;
  }
  return member;
}

/// Products that can share one kernel: one input, one element type, the
/// same depth, matrices all transposed or none, and all with a bias or
/// none.
struct GroupKey {
  Value input;
  Type matrixType;
  int64_t depth;
  bool transposed;
  bool biased;
  Type biasType;
  Block *block;
  auto tuple() const {
    return std::make_tuple(input.getAsOpaquePointer(),
                           matrixType.getAsOpaquePointer(), depth, transposed,
                           biased, biasType.getAsOpaquePointer(), block);
  }
  bool operator<(const GroupKey &o) const { return tuple() < o.tuple(); }
};

struct TileFuseHorizontalPass
    : aicc::tile::impl::TileFuseHorizontalPassBase<TileFuseHorizontalPass> {
  using Base::Base;

  /// Whether packing `members` moves less than keeping them apart (see the
  /// file comment); launches count as `launchBytes` each.
  bool packingPays(ArrayRef<Member> members) const {
    MatmulOp first = members.front().product;
    int64_t input = bytesOf(first.getLhs());
    int64_t n = members.size();
    int64_t copies = 0;
    for (Member m : members)
      if (llvm::any_of(m.result().getUsers(), [](Operation *user) {
            return user->hasTrait<OpTrait::ReturnLike>();
          }))
        copies += 2 * bytesOf(m.result());
    int64_t apart = n * input + n * int64_t(launchBytes);
    int64_t packed = input + int64_t(launchBytes) + copies;
    return packed < apart;
  }

  /// A name for the packed weight: the members' names joined, made unique.
  std::string packedName(ArrayRef<Value> parts, llvm::StringSet<> &names) {
    std::string base;
    for (Value part : parts) {
      if (!base.empty())
        base += "+";
      if (auto weight = part.getDefiningOp<WeightOp>())
        base += weight.getName().str();
      else
        base += "constant";
    }
    std::string name = base;
    for (int suffix = 1; names.contains(name); ++suffix)
      name = base + "." + std::to_string(suffix);
    names.insert(name);
    return name;
  }

  /// One constant of `type` holding `parts` side by side (each row of it
  /// the parts' rows laid end to end) or, with `stacked` (vectors,
  /// transposed matrices), one after another: a weight when any part is
  /// one, else a constant. Null if some part has no data.
  Value concatenate(OpBuilder &b, Location loc, ArrayRef<Value> parts,
                    RankedTensorType type, bool stacked,
                    llvm::StringSet<> &names) {
    SmallVector<std::vector<char>> data;
    SmallVector<int64_t> rowBytes;
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    bool anyWeight = false;
    for (Value part : parts) {
      std::optional<std::vector<char>> bytes =
          rowMajorBytes(compileTimeValue(part));
      if (!bytes)
        return nullptr;
      data.push_back(std::move(*bytes));
      auto partType = cast<RankedTensorType>(part.getType());
      rowBytes.push_back(partType.getDimSize(partType.getRank() - 1) *
                         elementBytes);
      anyWeight |= static_cast<bool>(part.getDefiningOp<WeightOp>());
    }
    int64_t rows = stacked ? 1 : type.getDimSize(0);
    if (stacked)
      for (size_t i = 0; i < data.size(); ++i)
        rowBytes[i] = data[i].size();
    std::vector<char> packed;
    packed.reserve(type.getNumElements() * elementBytes);
    for (int64_t r = 0; r < rows; ++r)
      for (auto [bytes, row] : llvm::zip(data, rowBytes))
        packed.insert(packed.end(), bytes.begin() + r * row,
                      bytes.begin() + (r + 1) * row);
    if (!anyWeight) {
      auto value = DenseElementsAttr::getFromRawBuffer(type, packed);
      return ConstantOp::create(b, loc, value);
    }
    // A weight in the entry block, where tile-outline-weights takes it
    // from: at its start when the first part is a constant in a nested
    // block.
    OpBuilder::InsertionGuard guard(b);
    Block &entry = b.getInsertionBlock()
                       ->getParent()
                       ->getParentOfType<func::FuncOp>()
                       .getBody()
                       .front();
    if (b.getInsertionBlock() != &entry)
      b.setInsertionPointToStart(&entry);
    return createWeight(b, loc, type, packedName(parts, names), packed);
  }

  /// Replaces `members` by one product, one bias and a slice each.
  LogicalResult pack(ArrayRef<Member> members, llvm::StringSet<> &names) {
    MatmulOp first = members.front().product;
    Location loc = first.getLoc();
    RankedTensorType matrixType = first.getRhs().getType();
    RankedTensorType resultType = first.getType();
    Member head = members.front();
    bool transposed = head.transposed();
    int64_t depth = head.depth();
    int64_t columns = 0;
    SmallVector<Value> matrices, biases;
    for (Member m : members) {
      columns += m.columns();
      matrices.push_back(m.matrix());
      if (m.bias)
        biases.push_back(m.bias);
    }
    // The packed constants go where the first matrix is (weights stay in
    // the entry block, in a deterministic order).
    OpBuilder b(first.getRhs().getDefiningOp());
    SmallVector<int64_t> matrixShape{depth, columns};
    if (transposed)
      std::swap(matrixShape[0], matrixShape[1]);
    Value matrix = concatenate(
        b, loc, matrices,
        RankedTensorType::get(matrixShape, matrixType.getElementType()),
        /*stacked=*/transposed, names);
    Value bias;
    if (matrix && !biases.empty())
      bias = concatenate(
          b, loc, biases,
          RankedTensorType::get({columns},
                                cast<RankedTensorType>(biases.front().getType())
                                    .getElementType()),
          /*stacked=*/true, names);
    if (!matrix || (!biases.empty() && !bias)) {
      if (matrix)
        matrix.getDefiningOp()->erase();
      return failure();
    }

    b.setInsertionPoint(first);
    int64_t rank = resultType.getRank();
    SmallVector<int64_t> shape(resultType.getShape());
    shape.back() = columns;
    auto packedType = RankedTensorType::get(shape, resultType.getElementType());
    Value packed =
        MatmulOp::create(b, loc, packedType, first.getLhs(), matrix, nullptr,
                         transposed ? b.getUnitAttr() : nullptr);
    if (bias)
      packed = BinaryOp::create(b, loc, BinaryKind::add, packed, bias);
    SmallVector<Value> slices;
    int64_t start = 0;
    for (Member m : members) {
      SmallVector<int64_t> starts(rank, 0), sizes(resultType.getShape()),
          steps(rank, 1);
      starts.back() = start;
      sizes.back() = m.columns();
      start += m.columns();
      slices.push_back(SliceOp::create(
          b, m.product.getLoc(), m.product.getType(), packed,
          b.getDenseI64ArrayAttr(starts), b.getDenseI64ArrayAttr(sizes),
          b.getDenseI64ArrayAttr(steps)));
    }
    for (auto [member, slice] : llvm::zip(members, slices)) {
      Member m = member;
      m.result().replaceAllUsesWith(slice);
      if (m.biasAdd)
        m.biasAdd.erase();
      Value oldMatrix = m.matrix(), oldBias = m.bias;
      m.product.erase();
      for (Value old : {oldMatrix, oldBias})
        if (old && old.use_empty())
          old.getDefiningOp()->erase();
    }
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (columnMultiple < 1) {
      func.emitError("tile-fuse-horizontal: column-multiple must be at "
                     "least 1");
      return signalPassFailure();
    }
    llvm::StringSet<> names;
    func.walk([&](WeightOp op) { names.insert(op.getName()); });

    // Groups in the order their first products appear.
    std::map<GroupKey, size_t> index;
    SmallVector<SmallVector<Member>> groups;
    func.walk([&](MatmulOp op) {
      std::optional<Member> member = asMember(op);
      if (!member)
        return;
      // Slices of the packed result start on 16-byte boundaries of half
      // storage, where the kernels that read them in place load vectors.
      if (member->columns() % int64_t(columnMultiple) != 0)
        return;
      GroupKey key{
          op.getLhs(),
          op.getRhs().getType().getElementType(),
          member->depth(),
          member->transposed(),
          static_cast<bool>(member->bias),
          member->bias
              ? cast<RankedTensorType>(member->bias.getType()).getElementType()
              : Type(),
          op->getBlock()};
      auto [it, added] = index.try_emplace(key, groups.size());
      if (added)
        groups.emplace_back();
      groups[it->second].push_back(*member);
    });
    for (SmallVector<Member> &members : groups)
      if (members.size() >= 2 && packingPays(members))
        (void)pack(members, names);
  }
};

} // namespace
