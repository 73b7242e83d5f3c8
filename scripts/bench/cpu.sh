#!/usr/bin/env bash
# The CPU benchmark of docs/benchmarks.md: installs what it needs (Debian's
# python3-torchvision and nodejs/npm, onnxruntime-node from the npm
# registry), builds aicc, exports the models and compares aicc's latency
# with ONNX Runtime's. Arguments go to scripts/bench/cpu.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/install-deps.sh
need=()
dpkg-query -W -f='${Status}' python3-torchvision 2>/dev/null |
  grep -q "install ok installed" || need+=(python3-torchvision)
# node and npm may come from elsewhere than Debian (NodeSource's nodejs
# includes npm and conflicts with Debian's): only their commands matter.
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
fi
scripts/build.sh
ort=build/bench/ort-node
if [ ! -d "$ort/node_modules/onnxruntime-node" ]; then
  mkdir -p "$ort"
  # The package ships its CPU library; its install script only fetches
  # optional GPU pieces, which need network access beyond the registry.
  (cd "$ort" && npm install --no-save --ignore-scripts onnxruntime-node@1.30)
fi
/usr/bin/python3 scripts/bench/export_models.py --out build/bench
/usr/bin/python3 scripts/bench/cpu.py --bin build/bin --work build/bench \
  --ort-node-dir "$ort" "$@"
