#!/usr/bin/env bash
# The CPU benchmark of docs/benchmarks.md: installs what it needs (Debian's
# python3-torchvision and nodejs/npm, onnxruntime-node from the npm
# registry), builds aicc, exports the models and compares aicc's latency
# with ONNX Runtime's. Arguments go to scripts/bench/cpu.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/install-deps.sh
if ! dpkg-query -W -f='${Status}' python3-torchvision 2>/dev/null |
    grep -q "install ok installed"; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y \
    python3-torchvision
fi
scripts/build.sh
ort=$(dirname "$(scripts/bench/ort-node.sh)")
/usr/bin/python3 scripts/bench/export_models.py --out build/bench
/usr/bin/python3 scripts/bench/cpu.py --bin build/bin --work build/bench \
  --ort-node-dir "$ort" "$@"
