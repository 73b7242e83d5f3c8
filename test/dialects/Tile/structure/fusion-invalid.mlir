// RUN: aicc-opt %s -split-input-file -verify-diagnostics

func.func @negative_argument_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{body has 0 arguments but the region has 1 inputs}}
  %r = tile.fusion (%x) : (tensor<4xf32>) -> tensor<4xf32> {
    %c = tile.constant dense<1.0> : tensor<4xf32>
    tile.yield %c : tensor<4xf32>
  }
  return
}

// -----

func.func @negative_argument_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{body argument 0 has type 'tensor<4xf16>' but input 0 has type 'tensor<4xf32>'}}
  %r = tile.fusion (%x) : (tensor<4xf32>) -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf16>):
    tile.yield %a : tensor<4xf16>
  }
  return
}

// -----

func.func @negative_yield_types(%x: tensor<4xf32>) {
  // expected-error @+1 {{yields 1 values of types 'tensor<4xf32>' but the region has result types 'tensor<4xi1>'}}
  %r = tile.fusion (%x) : (tensor<4xf32>) -> tensor<4xi1> {
  ^bb0(%a: tensor<4xf32>):
    tile.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @negative_missing_yield(%x: tensor<4xf32>) {
  %r = "tile.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{block with no terminator}}
    %e = "tile.unary"(%a) <{kind = 10 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_captures_from_above(%x: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = tile.fusion () : () -> tensor<4xf32> {
    // expected-error @+1 {{using value defined outside the region}}
    %e = tile.unary exp %x : tensor<4xf32>
    tile.yield %e : tensor<4xf32>
  }
  return
}

// -----

func.func @negative_yield_outside_fusion(%x: tensor<4xf32>) {
  // expected-error @+1 {{expects parent op 'tile.fusion'}}
  tile.yield %x : tensor<4xf32>
}
