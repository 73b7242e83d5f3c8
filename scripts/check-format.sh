#!/usr/bin/env bash
# Fails, listing the files, when any C/C++ source in the project differs from
# what clang-format (LLVM style, .clang-format) would write. With --fix,
# formats them in place instead.
set -euo pipefail
cd "$(dirname "$0")/.."
formatter=${CLANG_FORMAT:-clang-format-22}
mapfile -t files < <(find dialects include lib runtime tools test/unit examples python \
  -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.c' \) 2>/dev/null | sort)
if [ "${1:-}" = "--fix" ]; then
  "$formatter" -i "${files[@]}"
  exit 0
fi
bad=()
for file in "${files[@]}"; do
  if ! "$formatter" --dry-run --Werror "$file" >/dev/null 2>&1; then
    bad+=("$file")
  fi
done
if [ ${#bad[@]} -ne 0 ]; then
  printf 'not clang-formatted (run scripts/check-format.sh --fix):\n' >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "${#files[@]} files clang-formatted"
