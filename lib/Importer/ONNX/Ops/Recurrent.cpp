//===- Recurrent.cpp - RNN, GRU and LSTM ----------------------------------===//
//
// The recurrent operators unrolled over their (static) sequence: the input
// projections of all steps are one batched matmul, then each step adds the
// recurrent projection and applies the gate equations of the ONNX
// specification. Bidirectional layers run the reverse direction over the
// reversed sequence.
//
//===----------------------------------------------------------------------===//

#include "../ImporterInternal.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace aicc::tile;

namespace aicc::onnx_importer {
namespace {

/// The steps (each direction counted) that all recurrent layers of a model
/// may unroll together. The compile time of an unrolled chain grows faster
/// than its length (bufferization's analysis of it): on the project's
/// 2-core VM a bidirectional LSTM of 64 steps took 20 s to compile, of 128
/// steps 173 s, of 512 more than 300 s, from a 172-byte model; 64 steps
/// in one direction took 3.5 s (13 s with ASan). Beyond this the layers
/// would need a loop form, which aicc does not have yet.
constexpr int64_t kMaxUnrolledSteps = 64;

/// One activation function with its ONNX parameters.
struct Activation {
  std::string name;
  std::optional<double> alpha, beta;
};

Value applyActivation(NodeContext &c, const Activation &f, Value x) {
  StringRef name = f.name;
  auto scalar = [&](double v) { return c.scalarLike(x, v); };
  if (name == "Sigmoid")
    return c.unary(UnaryKind::sigmoid, x);
  if (name == "Tanh")
    return c.unary(UnaryKind::tanh, x);
  if (name == "Relu")
    return c.unary(UnaryKind::relu, x);
  if (name == "Softsign")
    return c.unary(UnaryKind::softsign, x);
  if (name == "Softplus")
    return c.unary(UnaryKind::softplus, x);
  if (name == "LeakyRelu")
    return c.unary(UnaryKind::leaky_relu, x, f.alpha.value_or(0.01));
  if (name == "ThresholdedRelu")
    return c.unary(UnaryKind::thresholded_relu, x, f.alpha.value_or(1.0));
  if (name == "Elu")
    return c.unary(UnaryKind::elu, x, f.alpha.value_or(1.0));
  if (name == "HardSigmoid")
    return c.unary(UnaryKind::hard_sigmoid, x, f.alpha.value_or(0.2),
                   f.beta.value_or(0.5));
  if (name == "Affine")
    return c.binary(BinaryKind::add,
                    c.binary(BinaryKind::mul, x, scalar(f.alpha.value_or(1.0))),
                    scalar(f.beta.value_or(0.0)));
  if (name == "ScaledTanh")
    return c.binary(
        BinaryKind::mul, scalar(f.alpha.value_or(1.0)),
        c.unary(UnaryKind::tanh,
                c.binary(BinaryKind::mul, x, scalar(f.beta.value_or(1.0)))));
  c.error() << "unknown activation '" << name << "'";
  return Value();
}

/// What one recurrent operator computes per step.
enum class Cell { RNN, GRU, LSTM };

struct Layer {
  Cell cell;
  int64_t gates;  // 1, 3 or 4
  int64_t hidden; // hidden_size
  int64_t steps, batch;
  int64_t directions; // 1 or 2
  bool reverseOnly;
  SmallVector<Activation> activations; // per direction, in ONNX order
  std::optional<double> clip;
  bool linearBeforeReset;
  bool inputForget;
};

/// Slice `[start, start + size)` of the last dimension of a 2-D value.
Value columns(NodeContext &c, Value x, int64_t start, int64_t size) {
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return c.fail();
  return c.slice(x, {0, start}, {type.getDimSize(0), size}, {1, 1});
}

/// Row `index` of the first dimension of `x`, with that dimension dropped.
Value row(NodeContext &c, Value x, int64_t index) {
  RankedTensorType type = NodeContext::typeOf(x);
  if (!type)
    return c.fail();
  if (type.getRank() < 1 || type.isDynamicDim(0) || index >= type.getDimSize(0))
    return c.error() << "an input has shape " << type << ", which has no row "
                     << index << " (one per direction or step)",
           c.fail();
  SmallVector<int64_t> starts(type.getRank(), 0), sizes(type.getShape()),
      steps(type.getRank(), 1);
  starts[0] = index;
  sizes[0] = 1;
  return c.reshape(c.slice(x, starts, sizes, steps),
                   type.getShape().drop_front());
}

Value maybeClip(NodeContext &c, const Layer &layer, Value x) {
  if (!layer.clip)
    return x;
  x = c.binary(BinaryKind::max, x, c.scalarLike(x, -*layer.clip));
  return c.binary(BinaryKind::min, x, c.scalarLike(x, *layer.clip));
}

/// Runs one direction over `projected` (steps x batch x gates*hidden: the
/// input projections plus both biases) and returns the hidden state of
/// every step and the final cell state.
/// With `lengths` (batch, i64), a sequence shorter than the others keeps
/// its state and outputs zeros past its end (forward direction only).
std::pair<SmallVector<Value>, Value>
runDirection(NodeContext &c, const Layer &layer, Value projected, Value r,
             Value rb, Value peephole, Value h, Value cellState, bool reverse,
             ArrayRef<Activation> activations, Value lengths) {
  int64_t H = layer.hidden;
  SmallVector<Value> outputs(layer.steps);
  auto act = [&](size_t i, Value x) {
    return applyActivation(c, activations[i], maybeClip(c, layer, x));
  };
  for (int64_t s = 0; s < layer.steps && !c.failed(); ++s) {
    int64_t t = reverse ? layer.steps - 1 - s : s;
    Value xw = row(c, projected, t); // batch x gates*H
    Value previousH = h, previousC = cellState;
    Value hr = c.matmul(h, r, false, true);
    switch (layer.cell) {
    case Cell::RNN:
      h = act(0, c.binary(BinaryKind::add, xw, hr));
      break;
    case Cell::GRU: {
      // Gates z, r, h; the recurrent bias of h stays apart for
      // linear_before_reset.
      Value z = act(0, c.binary(BinaryKind::add, columns(c, xw, 0, H),
                                columns(c, hr, 0, H)));
      Value rg = act(0, c.binary(BinaryKind::add, columns(c, xw, H, H),
                                 columns(c, hr, H, H)));
      // The rows of R for the h gate.
      Value rh = c.slice(r, {2 * H, 0}, {H, H}, {1, 1});
      Value candidate;
      if (layer.linearBeforeReset) {
        Value recurrent = columns(c, hr, 2 * H, H);
        if (rb)
          recurrent = c.binary(BinaryKind::add, recurrent, rb);
        candidate = c.binary(BinaryKind::add, columns(c, xw, 2 * H, H),
                             c.binary(BinaryKind::mul, rg, recurrent));
      } else {
        Value reset = c.binary(BinaryKind::mul, rg, h);
        Value recurrent = c.matmul(reset, rh, false, true);
        if (rb)
          recurrent = c.binary(BinaryKind::add, recurrent, rb);
        candidate =
            c.binary(BinaryKind::add, columns(c, xw, 2 * H, H), recurrent);
      }
      Value hc = act(1, candidate);
      Value one = c.scalarLike(z, 1.0);
      h = c.binary(
          BinaryKind::add,
          c.binary(BinaryKind::mul, c.binary(BinaryKind::sub, one, z), hc),
          c.binary(BinaryKind::mul, z, h));
      break;
    }
    case Cell::LSTM: {
      // Gates i, o, f, c; peepholes P = [Pi, Po, Pf].
      Value gates = c.binary(BinaryKind::add, xw, hr);
      Value i = columns(c, gates, 0, H), o = columns(c, gates, H, H);
      Value f = columns(c, gates, 2 * H, H), g = columns(c, gates, 3 * H, H);
      auto peep = [&](int64_t k, Value state) {
        return c.binary(BinaryKind::mul, c.slice(peephole, {k * H}, {H}, {1}),
                        state);
      };
      if (peephole) {
        i = c.binary(BinaryKind::add, i, peep(0, cellState));
        f = c.binary(BinaryKind::add, f, peep(2, cellState));
      }
      i = act(0, i);
      f = layer.inputForget ? c.binary(BinaryKind::sub, c.scalarLike(i, 1.0), i)
                            : act(0, f);
      g = act(1, g);
      cellState =
          c.binary(BinaryKind::add, c.binary(BinaryKind::mul, f, cellState),
                   c.binary(BinaryKind::mul, i, g));
      if (peephole)
        o = c.binary(BinaryKind::add, o, peep(1, cellState));
      o = act(0, o);
      h = c.binary(BinaryKind::mul, o, act(2, cellState));
      break;
    }
    }
    outputs[t] = h;
    if (lengths) {
      Value active =
          c.reshape(c.compare(ComparePredicate::gt, lengths, c.i64Scalar(t)),
                    {layer.batch, 1});
      outputs[t] = c.select(active, h, c.scalarLike(h, 0.0));
      h = c.select(active, h, previousH);
      cellState = c.select(active, cellState, previousC);
    }
  }
  return {outputs, cellState};
}

Converter recurrentConverter(Cell cell) {
  return [cell](NodeContext &c) -> LogicalResult {
    Layer layer;
    layer.cell = cell;
    layer.gates = cell == Cell::RNN ? 1 : cell == Cell::GRU ? 3 : 4;
    bool batchFirst = c.opset >= 14 && c.getInt("layout", 0) == 1;
    Value x = c.input(0), w = c.input(1), r = c.input(2);
    std::optional<SmallVector<int64_t>> xShape = c.staticShape(x, "X");
    std::optional<SmallVector<int64_t>> wShape = c.staticShape(w, "W");
    if (!xShape || !wShape)
      return c.fail(), failure();
    if (xShape->size() != 3 || wShape->size() != 3) {
      c.error() << "X and W must have rank 3";
      return failure();
    }
    if (batchFirst)
      x = c.transpose(x, {1, 0, 2});
    layer.steps = batchFirst ? (*xShape)[1] : (*xShape)[0];
    layer.batch = batchFirst ? (*xShape)[0] : (*xShape)[1];
    layer.directions = (*wShape)[0];
    layer.hidden = c.getInt("hidden_size", (*wShape)[1] / layer.gates);
    std::string direction = c.getString("direction", "forward");
    if (direction != "forward" && direction != "reverse" &&
        direction != "bidirectional") {
      c.error() << "unknown direction '" << direction << "'";
      return failure();
    }
    if (layer.directions != 1 && layer.directions != 2) {
      c.error() << "W has " << layer.directions
                << " directions; a recurrent layer has 1 or 2";
      return failure();
    }
    if (layer.hidden < 1 || (*wShape)[1] != layer.gates * layer.hidden) {
      c.error() << "W has " << (*wShape)[1] << " rows per direction, but "
                << layer.gates << " gates of hidden_size " << layer.hidden
                << " need " << layer.gates * layer.hidden;
      return failure();
    }
    if ((direction == "bidirectional") != (layer.directions == 2)) {
      c.error() << "direction '" << direction << "' does not match W's "
                << layer.directions << " directions";
      return failure();
    }
    // Saturating: a sequence of 2^62 steps in two directions is refused,
    // not wrapped around.
    int64_t &unrolled = c.graph().model.unrolledSteps;
    uint64_t total = llvm::SaturatingMultiplyAdd<uint64_t>(
        layer.steps, layer.directions, unrolled);
    if (total > static_cast<uint64_t>(kMaxUnrolledSteps)) {
      c.error() << "the recurrent layers would unroll " << total
                << " steps in all (this one: " << layer.steps << " x "
                << layer.directions << " directions); aicc unrolls at most "
                << kMaxUnrolledSteps;
      return failure();
    }
    unrolled = static_cast<int64_t>(total);
    layer.reverseOnly = direction == "reverse";
    if (c.attribute("clip"))
      layer.clip = c.getFloat("clip", 0.0);
    layer.linearBeforeReset = c.getInt("linear_before_reset", 0) != 0;
    layer.inputForget = c.getInt("input_forget", 0) != 0;

    // Activations: defaults per cell, repeated per direction.
    SmallVector<std::string> defaults =
        cell == Cell::RNN ? SmallVector<std::string>{"Tanh"}
        : cell == Cell::GRU
            ? SmallVector<std::string>{"Sigmoid", "Tanh"}
            : SmallVector<std::string>{"Sigmoid", "Tanh", "Tanh"};
    SmallVector<std::string> names =
        c.getStrings("activations").value_or(SmallVector<std::string>{});
    SmallVector<double> alphas =
        c.getFloats("activation_alpha").value_or(SmallVector<double>{});
    SmallVector<double> betas =
        c.getFloats("activation_beta").value_or(SmallVector<double>{});
    size_t perDirection = defaults.size();
    for (int64_t d = 0; d < layer.directions; ++d)
      for (size_t k = 0; k < perDirection; ++k) {
        size_t index = d * perDirection + k;
        Activation a;
        a.name = index < names.size() ? names[index] : defaults[k];
        // Case-insensitive in practice.
        for (const std::string &known :
             {"Sigmoid", "Tanh", "Relu", "Affine", "LeakyRelu",
              "ThresholdedRelu", "ScaledTanh", "HardSigmoid", "Elu", "Softsign",
              "Softplus"})
          if (StringRef(a.name).equals_insensitive(known))
            a.name = known;
        if (index < alphas.size())
          a.alpha = alphas[index];
        if (index < betas.size())
          a.beta = betas[index];
        layer.activations.push_back(a);
      }

    // Per-sequence lengths: none needed when all are the full length.
    Value lengths = c.optionalInput(4);
    if (std::optional<SmallVector<int64_t>> known = c.knownInts(4))
      if (llvm::all_of(*known, [&](int64_t l) { return l == layer.steps; }))
        lengths = Value();
    if (lengths) {
      if (layer.directions == 2 || layer.reverseOnly) {
        c.error() << "sequence_lens with a reverse direction is not "
                     "supported";
        return failure();
      }
      lengths = c.cast(lengths, c.builder().getI64Type());
    }

    int64_t H = layer.hidden, G = layer.gates;
    RankedTensorType xType = NodeContext::typeOf(x);
    if (c.failed() || !xType)
      return c.fail(), failure();
    Type element = xType.getElementType();
    Value bias = c.optionalInput(3);
    Value initialH = c.optionalInput(5);
    Value initialC = cell == Cell::LSTM ? c.optionalInput(6) : Value();
    Value peepholes = cell == Cell::LSTM ? c.optionalInput(7) : Value();
    if (batchFirst) {
      if (initialH)
        initialH = c.transpose(initialH, {1, 0, 2});
      if (initialC)
        initialC = c.transpose(initialC, {1, 0, 2});
    }

    SmallVector<SmallVector<Value>> hidden(layer.directions);
    SmallVector<Value> lastH, lastC;
    for (int64_t d = 0; d < layer.directions && !c.failed(); ++d) {
      Value wd = row(c, w, d), rd = row(c, r, d); // G*H x I, G*H x H
      // All input projections at once: steps x batch x G*H.
      Value projected = c.matmul(x, wd, false, true);
      Value recurrentBias;
      if (bias) {
        Value bd = row(c, bias, d); // 2*G*H: Wb then Rb
        Value wb = c.slice(bd, {0}, {G * H}, {1});
        Value rb = c.slice(bd, {G * H}, {G * H}, {1});
        if (cell == Cell::GRU) {
          // The h gate's recurrent bias is applied inside the cell.
          Value zr = c.slice(rb, {0}, {2 * H}, {1});
          recurrentBias = c.slice(rb, {2 * H}, {H}, {1});
          rb = c.concat({zr, c.splat(element, 0.0, {H})}, 0);
        }
        projected = c.binary(BinaryKind::add, projected,
                             c.binary(BinaryKind::add, wb, rb));
      }
      Value h = initialH ? row(c, initialH, d)
                         : c.splat(element, 0.0, {layer.batch, H});
      Value cellState = initialC ? row(c, initialC, d)
                                 : c.splat(element, 0.0, {layer.batch, H});
      Value pd = peepholes ? row(c, peepholes, d) : Value();
      bool reverse = layer.reverseOnly || d == 1;
      ArrayRef<Activation> activations =
          ArrayRef<Activation>(layer.activations)
              .slice(d * perDirection, perDirection);
      auto [outputs, finalC] =
          runDirection(c, layer, projected, rd, recurrentBias, pd, h, cellState,
                       reverse, activations, lengths);
      hidden[d] = outputs;
      lastH.push_back(outputs.empty() ? h
                                      : outputs[reverse ? 0 : layer.steps - 1]);
      lastC.push_back(finalC);
    }
    if (c.failed())
      return failure();

    // Y: steps x directions x batch x H; Y_h, Y_c: directions x batch x H.
    SmallVector<Value> stepsOut;
    for (int64_t t = 0; t < layer.steps; ++t) {
      SmallVector<Value> perDirection;
      for (int64_t d = 0; d < layer.directions; ++d)
        perDirection.push_back(c.reshape(hidden[d][t], {1, 1, layer.batch, H}));
      stepsOut.push_back(c.concat(perDirection, 1));
    }
    auto stack = [&](ArrayRef<Value> states) {
      SmallVector<Value> parts;
      for (Value v : states)
        parts.push_back(c.reshape(v, {1, layer.batch, H}));
      return c.concat(parts, 0);
    };
    Value y = layer.steps ? c.concat(stepsOut, 0) : Value();
    Value yh = stack(lastH);
    Value yc = cell == Cell::LSTM ? stack(lastC) : Value();
    if (batchFirst) {
      if (y)
        y = c.transpose(y, {2, 0, 1, 3});
      yh = c.transpose(yh, {1, 0, 2});
      if (yc)
        yc = c.transpose(yc, {1, 0, 2});
    }
    return c.setOutputs({y, yh, yc});
  };
}

} // namespace

void registerRecurrentOps(OpTable &t) {
  t.add("RNN", 7, recurrentConverter(Cell::RNN));
  t.add("GRU", 7, recurrentConverter(Cell::GRU));
  t.add("LSTM", 7, recurrentConverter(Cell::LSTM));
}

} // namespace aicc::onnx_importer
