#!/usr/bin/env bash
# Checks that the lines the last commit changed (or those since BASE) follow .clang-format.
# Only changed lines: the code older than .clang-format is reformatted as it is touched.
# Usage: scripts/format-check.sh [BASE]   (default: HEAD~1)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-HEAD~1}
if ! command -v git-clang-format >/dev/null && ! git clang-format -h >/dev/null 2>&1; then
  echo "format-check: git clang-format is missing (Debian: clang-format): NOT checked" >&2
  exit 1
fi
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "format-check: no commit $base here (a shallow clone?): NOT checked"
  exit 0
fi
out=$(git clang-format --diff --extensions c,cc,cpp,h,hpp,cu,cuh "$base" HEAD 2>&1 || true)
case "$out" in
  "" | *"no modified files to format"* | *"did not modify any files"*)
    echo "format-check: the lines changed since $(git rev-parse --short "$base") follow .clang-format"
    exit 0 ;;
esac
printf '%s\n' "$out"
echo "format-check: the lines above differ from .clang-format; run: git clang-format $base" >&2
exit 1
