#!/usr/bin/env bash
# Installs what running ONNX Runtime from node needs (node and npm from
# Debian when missing, onnxruntime-node from the npm registry under
# build/bench/ort-node) and prints the folder to pass as ORT_NODE_DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
need=()
# node and npm may come from elsewhere than Debian (NodeSource's nodejs
# includes npm and conflicts with Debian's): only their commands matter.
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >&2
fi
ort=build/bench/ort-node
if [ ! -d "$ort/node_modules/onnxruntime-node" ]; then
  mkdir -p "$ort"
  # The package ships its CPU library; its install script only fetches
  # optional GPU pieces, which need network access beyond the registry.
  (cd "$ort" && npm install --no-save --ignore-scripts onnxruntime-node@1.30 >&2)
fi
echo "$PWD/$ort/node_modules"
