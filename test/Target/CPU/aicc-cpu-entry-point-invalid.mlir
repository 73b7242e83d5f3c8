// RUN: aicc-opt %s -split-input-file -aicc-cpu-entry-point -verify-diagnostics

// expected-error @+1 {{no LLVM function 'main' to call}}
module {
  llvm.func @compiled(%exec: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{no LLVM function 'main' to call}}
module {
  llvm.func @main(!llvm.ptr)
}

// -----

// expected-error @+1 {{the module already defines 'aicc_entry'}}
module {
  llvm.func @main(%exec: !llvm.ptr) {
    llvm.return
  }
  llvm.func @aicc_entry() {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{must take only pointers (buffers, then the execution record) and return nothing}}
  llvm.func @main(%n: i64, %exec: !llvm.ptr) {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{must take only pointers (buffers, then the execution record) and return nothing}}
  llvm.func @main() {
    llvm.return
  }
}
