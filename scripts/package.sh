#!/bin/sh
# Builds a self-contained package of the tools and the runtime:
#
#   scripts/package.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, dist)
#
# writes OUT_DIR/aicc-VERSION-linux-x86_64.tar.xz holding bin/aicc and
# bin/aicc-run (scripts that start the real programs in libexec/ with the
# libraries in lib/), every shared library they need except the C library's
# own, and the runtime's static library and headers. It runs on an x86-64
# Linux machine with glibc 2.36 or newer and no LLVM or MLIR; compiling for
# cuda there finds the CUDA toolkit's ptxas as usual (CUDA_PATH or
# /usr/local/cuda). The package must stay under 60 MiB compressed.
set -eu

build=${1:-build}
out=${2:-dist}
repo=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^project(aicc VERSION \([0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
name=aicc-$version-linux-x86_64
limit=$((60 * 1024 * 1024))

ninja -C "$build" aicc aicc-run aicc_runtime >/dev/null

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/$name
mkdir -p "$root/bin" "$root/libexec" "$root/lib" "$root/include/aicc"

for tool in aicc aicc-run; do
  cp "$build/bin/$tool" "$root/libexec/$tool"
  strip --strip-unneeded "$root/libexec/$tool"
  cat >"$root/bin/$tool" <<WRAPPER
#!/bin/sh
here=\$(cd "\$(dirname "\$0")/.." && pwd)
LD_LIBRARY_PATH="\$here/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "\$here/libexec/$tool" "\$@"
WRAPPER
  chmod +x "$root/bin/$tool"
done

# The shared libraries, less the C library's, which the target has.
for tool in aicc aicc-run; do
  ldd "$build/bin/$tool" | awk '$3 ~ /^\// { print $3 }'
done | sort -u | while read -r lib; do
  case $(basename "$lib") in
  libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | \
    ld-linux*) ;;
  *) cp -L "$lib" "$root/lib/" ;;
  esac
done
strip --strip-unneeded "$root"/lib/*.so* 2>/dev/null || true

cp "$build/lib/libaicc_runtime.a" "$root/lib/"
cp "$repo"/runtime/include/aicc/*.h "$repo"/runtime/include/aicc/*.hpp \
  "$root/include/aicc/"

mkdir -p "$out"
archive=$out/$name.tar.xz
tar -C "$stage" -cf - "$name" | xz -T0 -6 >"$archive"
size=$(stat -c %s "$archive")
echo "$archive: $((size / 1024 / 1024)) MiB ($size bytes)"
if [ "$size" -gt "$limit" ]; then
  echo "error: the package is over 60 MiB" >&2
  exit 1
fi
