//===- Matrix.cpp - MatMul, Gemm, MatMulInteger, Einsum -------------------===//

#include "../ImporterInternal.h"

#include "aicc/Support/StoredBytes.h"

#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {

Value buildGemm(NodeContext &c) {
  Value a = c.input(0), b = c.input(1);
  double alpha = c.getFloat("alpha", 1.0), beta = c.getFloat("beta", 1.0);
  Value y =
      c.matmul(a, b, c.getInt("transA", 0) != 0, c.getInt("transB", 0) != 0);
  if (alpha != 1.0)
    y = c.binary(BinaryKind::mul, y, c.scalarLike(y, alpha));
  if (Value bias = c.optionalInput(2)) {
    if (beta != 1.0)
      bias = c.binary(BinaryKind::mul, bias, c.scalarLike(bias, beta));
    y = c.binary(BinaryKind::add, y, bias);
  }
  return y;
}

Value numpyMatmul(NodeContext &c, Value lhs, Value rhs) {
  RankedTensorType lhsType = NodeContext::typeOf(lhs);
  RankedTensorType rhsType = NodeContext::typeOf(rhs);
  if (!lhsType || !rhsType)
    return c.fail();
  bool rowVector = lhsType.getRank() == 1,
       columnVector = rhsType.getRank() == 1;
  if (rowVector)
    lhs = c.reshape(lhs, {1, lhsType.getDimSize(0)});
  if (columnVector)
    rhs = c.reshape(rhs, {rhsType.getDimSize(0), 1});
  Value result = c.matmul(lhs, rhs);
  RankedTensorType resultType = NodeContext::typeOf(result);
  if (!resultType || (!rowVector && !columnVector))
    return result;
  SmallVector<int64_t> shape(resultType.getShape());
  if (columnVector)
    shape.pop_back();
  if (rowVector)
    shape.erase(shape.end() - (columnVector ? 1 : 2));
  return c.reshape(result, shape);
}

bool isZeroConstant(NodeContext &c, Value value) {
  ElementsAttr known = c.constantValue(value);
  if (!known)
    return false;
  if (auto dense = dyn_cast<DenseElementsAttr>(known); dense && dense.isSplat())
    return matchPattern(dense.getSplatValue<Attribute>(), m_Zero()) ||
           matchPattern(dense.getSplatValue<Attribute>(), m_AnyZeroFloat());
  std::optional<ArrayRef<char>> bytes = aicc::storedBytes(known);
  return bytes && llvm::all_of(*bytes, [](char b) { return b == 0; });
}

namespace {

LogicalResult convertMatMul(NodeContext &c) {
  return c.setOutputs({numpyMatmul(c, c.input(0), c.input(1))});
}

LogicalResult convertGemm(NodeContext &c) {
  return c.setOutputs({buildGemm(c)});
}

/// `x` as i32 minus its zero point; a per-row zero point of a matrix is
/// shaped to broadcast along the rows. A zero point known to be 0 is left
/// out: the product of the widened operands then runs on the 8-bit ones
/// (tile-lower-quant).
Value subtractZeroPoint(NodeContext &c, Value x, Value zeroPoint, bool perRow) {
  Type i32 = c.builder().getI32Type();
  Value wide = c.cast(x, i32);
  if (!zeroPoint || isZeroConstant(c, zeroPoint))
    return wide;
  Value zp = c.cast(zeroPoint, i32);
  RankedTensorType zpType = NodeContext::typeOf(zp);
  RankedTensorType xType = NodeContext::typeOf(x);
  if (perRow && zpType && xType && zpType.getRank() == 1 &&
      zpType.getDimSize(0) != 1 && xType.getRank() >= 2)
    zp = c.reshape(zp, {zpType.getDimSize(0), 1});
  return c.binary(BinaryKind::sub, wide, zp);
}

LogicalResult convertMatMulInteger(NodeContext &c) {
  Value a = subtractZeroPoint(c, c.input(0), c.optionalInput(2), true);
  Value b = subtractZeroPoint(c, c.input(1), c.optionalInput(3), false);
  return c.setOutputs({numpyMatmul(c, a, b)});
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// An operand with one label per dimension. Letters label themselves;
/// dimensions under "..." get labels from kEllipsis on, aligned on the right
/// across operands.
struct Term {
  Value value;
  SmallVector<int> labels;
};
constexpr int kEllipsis = 256;

std::optional<SmallVector<int>> parseTerm(NodeContext &c, StringRef text,
                                          int64_t rank, int ellipsisRank) {
  SmallVector<int> labels;
  size_t dots = text.find("...");
  if (dots != StringRef::npos &&
      text.find("...", dots + 1) != StringRef::npos) {
    c.error() << "term '" << text << "' has '...' twice";
    return std::nullopt;
  }
  int64_t letters = text.size() - (dots == StringRef::npos ? 0 : 3);
  int64_t covered = dots == StringRef::npos ? 0 : rank - letters;
  if (rank >= 0 && (covered < 0 || letters + covered != rank)) {
    c.error() << "term '" << text << "' does not match an operand of rank "
              << rank;
    return std::nullopt;
  }
  for (size_t i = 0; i < text.size(); ++i) {
    if (i == dots) {
      int count = rank >= 0 ? int(covered) : ellipsisRank;
      for (int k = 0; k < count; ++k)
        labels.push_back(kEllipsis + ellipsisRank - count + k);
      i += 2;
      continue;
    }
    if (!llvm::isAlpha(text[i])) {
      c.error() << "term '" << text << "' has an invalid label '" << text[i]
                << "'";
      return std::nullopt;
    }
    labels.push_back(text[i]);
  }
  return labels;
}

/// The size of `label` in `term`.
int64_t sizeOf(const Term &term, int label) {
  RankedTensorType type = NodeContext::typeOf(term.value);
  for (auto [i, l] : llvm::enumerate(term.labels))
    if (l == label)
      return type.getDimSize(i);
  return 1;
}

/// Replaces dimensions that repeat a label by the diagonal along them.
void takeDiagonals(NodeContext &c, Term &term) {
  for (size_t p = 0; p < term.labels.size(); ++p)
    for (size_t q = p + 1; q < term.labels.size(); ++q) {
      if (term.labels[p] != term.labels[q])
        continue;
      RankedTensorType type = NodeContext::typeOf(term.value);
      if (!type)
        return;
      int64_t n = type.getDimSize(p);
      if (ShapedType::isDynamic(n) || n != type.getDimSize(q)) {
        c.error() << "a repeated label needs equal static sizes";
        term.value = c.fail();
        return;
      }
      SmallVector<int64_t> maskShape(type.getRank(), 1);
      maskShape[p] = maskShape[q] = n;
      SmallVector<bool> eye;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          eye.push_back(i == j);
      Value mask = c.constant(DenseElementsAttr::get(
          RankedTensorType::get({n, n}, c.builder().getI1Type()),
          ArrayRef<bool>(eye)));
      mask = c.cast(c.reshape(mask, maskShape), type.getElementType());
      Value masked = c.binary(BinaryKind::mul, term.value, mask);
      term.value = c.reduce(ReduceKind::sum, masked, {int64_t(q)}, false);
      term.labels.erase(term.labels.begin() + q);
      --q;
    }
}

/// Sums away the dimensions whose labels are not in `keep`.
void sumOut(NodeContext &c, Term &term,
            const llvm::SmallSetVector<int, 8> &keep) {
  SmallVector<int64_t> axes;
  SmallVector<int> kept;
  for (auto [i, label] : llvm::enumerate(term.labels)) {
    if (keep.contains(label))
      kept.push_back(label);
    else
      axes.push_back(i);
  }
  if (axes.empty())
    return;
  term.value = c.reduce(ReduceKind::sum, term.value, axes, false);
  term.labels = std::move(kept);
}

/// Transposes `term` so its labels come in `order`.
void permute(NodeContext &c, Term &term, ArrayRef<int> order) {
  SmallVector<int64_t> permutation;
  for (int label : order)
    permutation.push_back(llvm::find(term.labels, label) - term.labels.begin());
  if (!llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    term.value = c.transpose(term.value, permutation);
  term.labels.assign(order.begin(), order.end());
}

/// Contracts two terms over their shared labels not in `keep`.
Term contract(NodeContext &c, Term lhs, Term rhs,
              const llvm::SmallSetVector<int, 8> &keep) {
  SmallVector<int> batch, lhsFree, rhsFree, shared;
  for (int label : lhs.labels) {
    bool inRhs = llvm::is_contained(rhs.labels, label);
    if (inRhs && keep.contains(label))
      batch.push_back(label);
    else if (inRhs)
      shared.push_back(label);
    else
      lhsFree.push_back(label);
  }
  for (int label : rhs.labels)
    if (!llvm::is_contained(lhs.labels, label))
      rhsFree.push_back(label);

  auto product = [&](const Term &term, ArrayRef<int> labels) {
    int64_t p = 1;
    for (int label : labels)
      p *= sizeOf(term, label);
    return p;
  };
  SmallVector<int64_t> batchSizes;
  for (int label : batch)
    batchSizes.push_back(std::max(sizeOf(lhs, label), sizeOf(rhs, label)));

  SmallVector<int> lhsOrder(batch), rhsOrder(batch);
  llvm::append_range(lhsOrder, lhsFree);
  llvm::append_range(lhsOrder, shared);
  llvm::append_range(rhsOrder, shared);
  llvm::append_range(rhsOrder, rhsFree);
  permute(c, lhs, lhsOrder);
  permute(c, rhs, rhsOrder);
  int64_t m = product(lhs, lhsFree), k = product(lhs, shared),
          n = product(rhs, rhsFree);
  // Batch labels of size 1 on one side broadcast inside the matmul.
  auto batchShape = [&](const Term &term) {
    SmallVector<int64_t> shape;
    for (int label : batch)
      shape.push_back(sizeOf(term, label));
    return shape;
  };
  SmallVector<int64_t> lhsBatch = batchShape(lhs), rhsBatch = batchShape(rhs);
  lhsBatch.append({m, k});
  rhsBatch.append({k, n});
  Value product2 =
      c.matmul(c.reshape(lhs.value, lhsBatch), c.reshape(rhs.value, rhsBatch));
  SmallVector<int64_t> resultShape(batchSizes);
  for (int label : lhsFree)
    resultShape.push_back(sizeOf(lhs, label));
  for (int label : rhsFree)
    resultShape.push_back(sizeOf(rhs, label));
  Term result;
  result.value = c.reshape(product2, resultShape);
  result.labels = batch;
  llvm::append_range(result.labels, lhsFree);
  llvm::append_range(result.labels, rhsFree);
  return result;
}

LogicalResult convertEinsum(NodeContext &c) {
  std::string equation;
  for (char ch : c.getString("equation", ""))
    if (ch != ' ')
      equation.push_back(ch);
  auto [inputsText, outputText] = StringRef(equation).split("->");
  bool explicitOutput = StringRef(equation).contains("->");
  SmallVector<StringRef> termTexts;
  inputsText.split(termTexts, ',');
  if (termTexts.size() != c.numInputs()) {
    c.error() << "equation '" << equation << "' has " << termTexts.size()
              << " operands but the node has " << c.numInputs() << " inputs";
    return failure();
  }

  int ellipsisRank = 0;
  for (auto [i, text] : llvm::enumerate(termTexts)) {
    RankedTensorType type = NodeContext::typeOf(c.input(i));
    if (!type)
      return failure();
    if (!type.hasStaticShape()) {
      c.error() << "operands must have static shapes";
      return failure();
    }
    int64_t letters = llvm::count_if(text, llvm::isAlpha);
    if (text.contains("..."))
      ellipsisRank = std::max<int>(ellipsisRank, type.getRank() - letters);
  }
  SmallVector<Term> terms;
  llvm::DenseMap<int, int> occurrences;
  for (auto [i, text] : llvm::enumerate(termTexts)) {
    Term term;
    term.value = c.input(i);
    std::optional<SmallVector<int>> labels = parseTerm(
        c, text, NodeContext::typeOf(term.value).getRank(), ellipsisRank);
    if (!labels)
      return failure();
    term.labels = *labels;
    for (int label : term.labels)
      ++occurrences[label];
    terms.push_back(std::move(term));
  }

  SmallVector<int> output;
  if (explicitOutput) {
    std::optional<SmallVector<int>> labels =
        parseTerm(c, outputText, -1, ellipsisRank);
    if (!labels)
      return failure();
    output = *labels;
  } else {
    for (int k = 0; k < ellipsisRank; ++k)
      output.push_back(kEllipsis + k);
    SmallVector<int> once;
    for (auto [label, count] : occurrences)
      if (count == 1 && label < kEllipsis)
        once.push_back(label);
    llvm::sort(once);
    llvm::append_range(output, once);
  }

  for (Term &term : terms)
    takeDiagonals(c, term);
  // Fold operands left to right, keeping labels still needed by the output
  // or by an operand not yet combined.
  Term result = terms.front();
  for (size_t i = 0; i <= terms.size() && !c.failed(); ++i) {
    llvm::SmallSetVector<int, 8> keep(output.begin(), output.end());
    for (size_t j = i + 1; j < terms.size(); ++j)
      keep.insert(terms[j].labels.begin(), terms[j].labels.end());
    if (i == 0) {
      // Labels only the first operand has and nobody needs are summed now.
      for (int label : terms.size() > 1 ? terms[1].labels : SmallVector<int>{})
        keep.insert(label);
      sumOut(c, result, keep);
      continue;
    }
    if (i == terms.size())
      break;
    Term next = terms[i];
    llvm::SmallSetVector<int, 8> nextKeep(keep);
    nextKeep.insert(result.labels.begin(), result.labels.end());
    sumOut(c, next, nextKeep);
    result = contract(c, result, next, keep);
  }
  llvm::SmallSetVector<int, 8> keep(output.begin(), output.end());
  sumOut(c, result, keep);
  if (c.failed())
    return failure();
  for (int label : output)
    if (!llvm::is_contained(result.labels, label)) {
      c.error() << "output label '" << char(label) << "' appears in no operand";
      return failure();
    }
  permute(c, result, output);
  return c.setOutputs({result.value});
}

} // namespace

void registerMatrixOps(OpTable &t) {
  t.add("MatMul", 1, convertMatMul);
  t.add("Gemm", 1, convertGemm);
  t.add("MatMulInteger", 10, convertMatMulInteger);
  t.add("Einsum", 12, convertEinsum);
}

} // namespace aicc::onnx_importer
