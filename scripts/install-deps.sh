#!/usr/bin/env bash
# Installs everything aicc needs to build, test and run, from Debian 12's
# package archive only. Idempotent: packages already present are skipped, and
# nothing is downloaded when all are.
set -euo pipefail

packages=(
  # Build tools.
  cmake ninja-build ccache g++ git
  # LLVM/MLIR 22: headers, static MLIR libraries, libLLVM, FileCheck and lit.
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22
  # clang with its runtime for fuzzing and sanitizers.
  clang-22 libclang-rt-22-dev
  # ONNX: the C++ protobuf classes, the Python package and the backend tests.
  libonnx-dev python3-onnx libonnx-testdata python3-numpy
  libprotobuf-dev protobuf-compiler
  # The rocm target links the ROCm math libraries (ocml, ockl) as bitcode.
  rocm-device-libs
  # The demo trains its model with scikit-learn.
  python3-sklearn
  # Unit tests and formatting.
  libgtest-dev clang-format-22
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
