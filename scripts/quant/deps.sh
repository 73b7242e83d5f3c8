#!/usr/bin/env bash
# Installs what the quantization benchmarks and accuracy checks need beyond
# the test command's set-up: Debian's python3-torchvision (with
# python3-torch) and python3-sklearn, onnxruntime-node (scripts/bench/
# ort-node.sh), and builds aicc. Prints the ORT_NODE_DIR to use.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/install-deps.sh >&2
need=()
for package in python3-torchvision python3-sklearn; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
    grep -q "install ok installed" || need+=("$package")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >&2
fi
scripts/build.sh >&2
scripts/bench/ort-node.sh
